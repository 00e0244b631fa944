"""The words the roles share, declared once: protocols, start modes, verbosities, statuses.

Every module that accepts or records one of these imports it from here, so a new protocol or
status is added in one place (and ``typing.get_args`` of a Literal gives its tuple of values).
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import AfterValidator

# how the DAG gates evaluation tasks (asuka.dag)
Protocol = Literal["dag", "flat", "full"]
PROTOCOLS: tuple[str, ...] = get_args(Protocol)

# what the code agent starts from: the underspecified query, the clarified PRD (PRD-1R), or a
# rewrite of the request for a requester at a granularity (LiveEvalBench's variants,
# "end-user/abstract", "pm/prd", ...: the task's ``queries``)
BASE_STARTS: tuple[str, ...] = ("query", "prd")
REQUESTERS: tuple[str, ...] = ("end-user", "designer", "pm", "developer")
GRANULARITIES: tuple[str, ...] = ("abstract", "functional", "prd")
STARTS = BASE_STARTS


def check_variant(value: str) -> str:
    """A requester/granularity key ("end-user/abstract"), or a ValueError saying why not."""
    requester, _, granularity = value.partition("/")
    if requester not in REQUESTERS or granularity not in GRANULARITIES:
        raise ValueError(f"a query variant is REQUESTER/GRANULARITY with a requester of "
                         f"{', '.join(REQUESTERS)} and a granularity of "
                         f"{', '.join(GRANULARITIES)}, not {value!r}")
    return value


def check_start(value: str) -> str:
    if value in BASE_STARTS:
        return value
    if "/" not in value:
        raise ValueError(f"unknown value {value!r}: query, prd, or a query variant "
                         f"REQUESTER/GRANULARITY (e.g. end-user/abstract)")
    return check_variant(value)


Start = Annotated[str, AfterValidator(check_start)]

# what the code agent is told after a round (WatchPoint's ablation): nothing, the user's words
# on the executed failures, those plus the diagnostic probes' observations, or the observations
# alone (asuka.probes)
Feedback = Literal["none", "failures", "failures+probes", "probes"]
FEEDBACKS: tuple[str, ...] = get_args(Feedback)
# when the probes run, if the feedback has them: every round, never, by the project's class
# (WatchPoint's package.json classifier), or while the agent fixes too little on its own
Routing = Literal["always", "never", "by-class", "by-self-fix"]
ROUTINGS: tuple[str, ...] = get_args(Routing)

# how a cell's rounds go: the paper's loop over the whole task, or Web-Bench's sequence of
# evaluation tasks (each attempted up to twice, the project stopped at a task failed twice)
Mode = Literal["rounds", "sequential"]
MODES: tuple[str, ...] = get_args(Mode)

# how much the user says per failure
Verbosity = Literal["low", "medium", "high"]
VERBOSITIES: tuple[str, ...] = get_args(Verbosity)

# one criterion's verdict, and one evaluation task's status (asuka.schema)
CriterionStatus = Literal["pass", "fail", "not_found", "unverifiable", "error"]
TaskStatus = Literal["passed", "failed", "skipped", "error"]
# which rung of the resolution ladder decided a verdict (asuka.uiagents.scripted.ladder, .criterion):
# the check as written, relaxed locators or wording, an intent adapted to the app's widget, a
# locator grounded by a model, the check re-planned by a model, an LLM judge
DecidedBy = Literal["scripted", "relaxed", "adapted", "grounded", "replanned", "llm"]
DECIDED_BY: tuple[str, ...] = get_args(DecidedBy)

# what an evaluation task exercises: JoyFrontBench's eight capability dimensions (its Table 4)
Capability = Literal["component-completeness", "representation-fidelity", "visual-quality",
                     "interaction-responsiveness", "computational-rendering", "rule-simulation",
                     "state-management", "data-exchange"]
CAPABILITIES: tuple[str, ...] = get_args(Capability)
