"""Value objects of a deployment: what kind of project it was, where it lives, how it went."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

# external: already served elsewhere (`asuka eval --url`), nothing deployed
DeployKind = Literal["static", "npm-build", "npm-start", "none", "external"]


class DeployTimeouts(BaseModel):
    """Seconds allowed per step; every child process is killed when its step runs out."""

    install: float = Field(300.0, gt=0)
    build: float = Field(180.0, gt=0)
    # until the started server answers HTTP at all (any status)
    start: float = Field(60.0, gt=0)
    # after that, until GET / returns 200 (dev servers compile on the first request)
    health: float = Field(30.0, gt=0)


class DeployResult(BaseModel):
    ok: bool
    kind: DeployKind
    url: str | None = None
    log: str = ""
    timings: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    # extra facts for the run record: sandbox used, served directory, script run, port
    meta: dict[str, str] = Field(default_factory=dict)
