"""The jury of evaluators (LiveEvalBench's roles, as configuration): a build engineer reading
the deploy's trajectory, a code engineer inspecting the source read-only, the UI tester (the
run's UI agent on the task's criteria), each a YAML file in ``evaluators/`` beside ``tasks/``
(``EvaluatorSpec``), run in dependency order on every round's artifact (the build gate skips
those that depend on a build that did not pass) and scored out of its points."""

from asuka.evaluators._checks import BUILD_CHECKS, CHECKS, CODE_CHECKS, BuildInput, CodeInput
from asuka.evaluators._jury import jury_score, run_jury, run_order, score_of, succeeded
from asuka.evaluators._source import inspect_sources
from asuka.evaluators._spec import EVALUATORS_DIR, EvaluatorSpec, default_jury, load_evaluators
from asuka.evaluators._spec import OPTION as EVALUATORS_OPTION

__all__ = ["BUILD_CHECKS", "CHECKS", "CODE_CHECKS", "EVALUATORS_DIR", "EVALUATORS_OPTION", "BuildInput", "CodeInput",
           "EvaluatorSpec", "default_jury", "inspect_sources", "jury_score", "load_evaluators", "run_jury", "run_order", "score_of",
           "succeeded"]
