"""Value objects of a deployment: what kind of project it was, where it lives, how it went."""

from __future__ import annotations

from pydantic import BaseModel, Field

from asuka.log.records import DeployKind, DeployResult

__all__ = ["DeployKind", "DeployResult", "DeployTimeouts"]


class DeployTimeouts(BaseModel):
    """Seconds allowed per step; every child process is killed when its step runs out."""

    install: float = Field(300.0, gt=0)
    build: float = Field(180.0, gt=0)
    # until the started server answers HTTP at all (any status)
    start: float = Field(60.0, gt=0)
    # after that, until GET / returns 200 (dev servers compile on the first request)
    health: float = Field(30.0, gt=0)
