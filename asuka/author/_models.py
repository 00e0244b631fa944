"""What each authoring stage must answer (pydantic, so a reply that does not fit is an error
the model is told about), and the task files they add up to."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from asuka.schema import CATEGORIES, ID_PATTERN, TASK_TYPES

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


STAGES: dict[str, type[BaseModel]] = {"prd": PrdOut, "query": QueryOut, "data": DataOut,
                                      "evaluation": EvaluationOut, "dag": DagOut}
