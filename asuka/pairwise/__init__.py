"""Pairwise presentation tasks (JoyFrontBench's pairwise judging): the candidate compared with
the task's reference app under one matched view, judged Good / Same / Bad.

A task lists them under ``pairwise:`` in its task.yaml (``asuka.schema.PairwiseTask``: id,
summary, capability, the aspects to compare, the view: viewport, interaction path from a fresh
context, observation time). The judge is named by the UI-agent option ``pairwise`` (a vision
model, or ``none``; absent, the UI agent's own ``model``); offline there is none and every
pairwise task is an ``error`` ("not judged"), never a silent pass. Judgements are recorded in
``verdicts.json`` (``pairwise``) with both screenshots under ``evidence/pairwise/``, scored only by
the acceptance-contract metrics (``asuka.log.contracts``: Z = 1 / 0.5 / 0; an error leaves
the scores and is counted), and shown in the viewer."""

from asuka.pairwise._judge import JudgeReply, PairwiseJudge, registry
from asuka.pairwise._stage import (
    NO_JUDGE,
    OPTION,
    SUBDIR,
    combine,
    judge_one,
    judge_presentation,
    make_judge,
)

__all__ = ["NO_JUDGE", "OPTION", "SUBDIR", "JudgeReply", "PairwiseJudge", "combine",
           "judge_one", "judge_presentation", "make_judge", "registry"]
