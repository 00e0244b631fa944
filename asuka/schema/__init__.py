"""Value objects of the benchmark and of a run.

Benchmark side (read from files; ``_bench``): Task, EvalTask, Criterion, Dag, with the check DSL
(``_dsl``): CheckStep, Locator. Run side (written by the loop; ``_records``): Verdict, Evidence,
EvalTaskResult, RoundEvaluation. Everything here is plain data: no I/O, no browser. This module
is the contract; import from it, not from the private modules.
"""

from asuka.schema._dsl import (  # noqa: F401
    ID_PATTERN,
    Strict,
    LOCATOR_KEYS,
    Locator,
    LOCATOR_OPTIONAL,
    STEP_ARGS,
    CheckStep,
    is_regex,
    to_pattern,
)
from asuka.schema._bench import (  # noqa: F401
    TASK_TYPES,
    CATEGORIES,
    TaskType,
    Category,
    Criterion,
    PATH_OPS,
    PairwiseView,
    PairwiseTask,
    EvalTask,
    Feature,
    Task,
    DagSpec,
    BenchTask,
)
from asuka.schema._records import (  # noqa: F401
    Verdict,
    Evidence,
    Operability,
    AuditFinding,
    Remediation,
    TaskAudit,
    PairwiseShot,
    PairwiseResult,
    EvalTaskResult,
    RoundEvaluation,
)

__all__ = [
    "ID_PATTERN",
    "Strict",
    "LOCATOR_KEYS",
    "Locator",
    "LOCATOR_OPTIONAL",
    "STEP_ARGS",
    "CheckStep",
    "is_regex",
    "to_pattern",
    "TASK_TYPES",
    "CATEGORIES",
    "TaskType",
    "Category",
    "Criterion",
    "PATH_OPS",
    "PairwiseView",
    "PairwiseTask",
    "EvalTask",
    "Feature",
    "Task",
    "DagSpec",
    "BenchTask",
    "Verdict",
    "Evidence",
    "Operability",
    "AuditFinding",
    "Remediation",
    "TaskAudit",
    "PairwiseShot",
    "PairwiseResult",
    "EvalTaskResult",
    "RoundEvaluation",
]
