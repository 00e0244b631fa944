"""What each authoring stage must answer (pydantic, so a reply that does not fit is an error
the model is told about), and the task files they add up to."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from asuka.schema import CATEGORIES, ID_PATTERN, TASK_TYPES, CheckStep

Category = Literal[tuple(CATEGORIES)]  # type: ignore[valid-type]
TaskType = Literal[tuple(TASK_TYPES)]  # type: ignore[valid-type]


class PrdOut(BaseModel):
    """Stage prd: the clarified product requirements."""

    title: str = Field(min_length=1)
    prd: str = Field(min_length=1, description="Markdown: hierarchical modules, exception rules")


class QueryOut(BaseModel):
    """Stage query: the deliberately underspecified request a user would type."""

    query: str = Field(min_length=1)


class DataFile(BaseModel):
    path: str = Field(pattern=r"^data/[A-Za-z0-9_.\-/]+$")
    content: str
    anomalies: list[str] = Field(default_factory=list)  # the deliberate ones, for the notes


class DataOut(BaseModel):
    """Stage data: the mock data files, with deliberate anomalies."""

    files: list[DataFile] = Field(default_factory=list)


class CriterionOut(BaseModel):
    id: str = Field(pattern=ID_PATTERN)
    text: str = Field(min_length=1)


class EvalTaskOut(BaseModel):
    id: str = Field(pattern=ID_PATTERN)
    summary: str = Field(min_length=1)
    type: TaskType
    weight: int = Field(ge=1, le=5)
    criteria: list[CriterionOut] = Field(min_length=1)


class EvaluationOut(BaseModel):
    """Stage evaluation: evaluation tasks with their expected outcomes and weights."""

    eval_tasks: list[EvalTaskOut] = Field(min_length=1)


class DagOut(BaseModel):
    """Stage dag: which evaluation task must pass before which."""

    edges: list[tuple[str, str]] = Field(default_factory=list)


class ReferenceOut(BaseModel):
    """Stage reference: what the code agent built (the files themselves are in reference/,
    where a person may edit them before re-running from the checks stage)."""

    files: list[str] = Field(default_factory=list)
    features: dict[str, list[str]] = Field(default_factory=dict)  # marker -> kinds found


class FeatureOut(BaseModel):
    tasks: list[str] = Field(min_length=1)
    broken: list[str] | None = None


class ChecksOut(BaseModel):
    """Stage checks: check steps for every criterion, and which evaluation tasks fail when a
    marked feature is missing (``tasks``) or broken (``broken``)."""

    checks: dict[str, list[dict[str, Any]]]
    features: dict[str, FeatureOut]

    @field_validator("checks")
    @classmethod
    def _steps_are_the_dsl(cls, checks: dict[str, list[dict[str, Any]]]
                           ) -> dict[str, list[dict[str, Any]]]:
        for cid, steps in checks.items():
            if not steps:
                raise ValueError(f"{cid}: no check steps")
            for k, step in enumerate(steps):
                try:
                    CheckStep.model_validate(step)
                except ValueError as exc:
                    raise ValueError(f"{cid} step {k} {step!r}: "
                                     f"{str(exc).splitlines()[-1].strip()}") from None
        return checks


STAGES: dict[str, type[BaseModel]] = {"prd": PrdOut, "query": QueryOut, "data": DataOut,
                                      "evaluation": EvaluationOut, "dag": DagOut,
                                      "reference": ReferenceOut, "checks": ChecksOut}
