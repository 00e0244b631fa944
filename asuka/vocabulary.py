"""The words the roles share, declared once: protocols, start modes, verbosities, statuses.

Every module that accepts or records one of these imports it from here, so a new protocol or
status is added in one place (and ``typing.get_args`` of a Literal gives its tuple of values).
"""

from __future__ import annotations

from typing import Literal, get_args

# how the DAG gates evaluation tasks (asuka.protocol.dag)
Protocol = Literal["dag", "flat", "full"]
PROTOCOLS: tuple[str, ...] = get_args(Protocol)

# what the code agent starts from: the underspecified query, or the clarified PRD (PRD-1R)
Start = Literal["query", "prd"]
STARTS: tuple[str, ...] = get_args(Start)

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
# which stage decided a verdict: the check as written, the check on grounded locators, an LLM
DecidedBy = Literal["scripted", "grounded", "llm"]

# what an evaluation task exercises: JoyFrontBench's eight capability dimensions (its Table 4)
Capability = Literal["component-completeness", "representation-fidelity", "visual-quality",
                     "interaction-responsiveness", "computational-rendering", "rule-simulation",
                     "state-management", "data-exchange"]
CAPABILITIES: tuple[str, ...] = get_args(Capability)
