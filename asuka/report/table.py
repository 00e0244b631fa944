"""A report table as plain data: columns and rows of values, where a value is a string, a number
or a ``scoring.Estimate`` (mean with a 95% CI, shown as mean ± half-width). Rates are fractions
here and percentages when rendered (``asuka.report.render``). The paper's tables
(``asuka.report.tables``) and the metric families' (``asuka.report.families``) are built as
these."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from asuka.log.scoring import Estimate
from asuka.report.data import display_name


@dataclass
class Table:
    name: str
    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    note: str = ""
    percent: set[str] = field(default_factory=set)  # columns holding rates (x100 when shown)


def head(agg: Any, varying: list[str] | None = None) -> list[str]:
    """The columns that name a group: the agent and the settings that vary in the run."""
    return ["agent", *[display_name(v) for v in (agg.varying if varying is None else varying)]]


def estimate_or_nan(v: Any) -> Estimate:
    return v if isinstance(v, Estimate) else Estimate(math.nan, math.nan, math.nan, 0)
