"""What passes between the scripted agent and a grounding backend: a ``Miss`` (a locator matched
nothing) or a ``Wording`` (an element showed other words) in, an ``Answer`` or a ``Judgement``
out; the backend protocol, the failure that makes a verdict ``error``, and which expected values
are never judged (``numeric``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from asuka.schema import CheckStep, Locator
from asuka.usage import Usage

OBSERVED_CHARS = 2_000


class GroundingFailed(Exception):
    """The grounding model could not be reached or refused the call (after retries)."""


@dataclass
class Miss:
    criterion_id: str
    criterion_text: str
    steps: list[CheckStep]        # the check as it ran (earlier groundings applied)
    step: int                     # index of the step whose locator matched nothing
    snapshot: str                 # the page's accessibility snapshot (aria YAML)

    @property
    def locator(self) -> Locator:
        loc = self.steps[self.step].locator
        assert loc is not None
        return loc


@dataclass
class Wording:
    criterion_id: str
    criterion_text: str
    step: CheckStep
    index: int
    expected: str
    observed: str
    # the expected text matched nothing: ``observed`` is the text of the region it was looked
    # for in (the step's scope, else the page's main content), not of one element
    region: bool = False


@dataclass
class Replan:
    """A check the rungs below could not carry through on this app (a miss, or an action on a
    widget of another kind): a model may rewrite its actions for the page it sees."""

    criterion_id: str
    criterion_text: str
    steps: list[CheckStep]        # the check as written
    step: int                     # the step where it stopped
    failure: str                  # what happened there (technical)
    snapshot: str                 # the page's accessibility snapshot at that moment
    # a rewrite already tried that could not be carried through either: its steps, the step
    # of it where it stopped and why (the snapshot is then the page at that moment)
    tried: list[CheckStep] | None = None
    tried_step: int | None = None
    tried_failure: str = ""


@dataclass
class Replanned:
    """A re-planned check: ``steps`` (validated, every stated value kept), ``absent`` (the app
    has no such feature), or neither (unusable: the deterministic verdict stands)."""

    steps: list[CheckStep] | None = None
    absent: bool = False
    reason: str = ""
    model: str | None = None
    tokens: int = 0
    cached: bool = False
    usage: Usage | None = None


@dataclass
class Answer:
    """A grounding: ``locator`` (a replacement), ``absent``, or neither (unusable)."""

    locator: Locator | None = None
    absent: bool = False
    reason: str = ""
    model: str | None = None
    tokens: int = 0
    cached: bool = False
    usage: Usage | None = None    # what this call billed (None when cached)


@dataclass
class Judgement:
    passed: bool | None = None    # None: the reply was unusable (the deterministic fail stands)
    reason: str = ""
    model: str | None = None
    tokens: int = 0
    cached: bool = False
    usage: Usage | None = None


class GroundingBackend(Protocol):
    name: str
    active: bool                  # False: the scripted agent never calls it

    def preflight(self) -> None: ...

    async def ground(self, miss: Miss, scope: str) -> Answer: ...

    async def judge_wording(self, wording: Wording, scope: str) -> Judgement | None: ...

    async def replan(self, plan: Replan, scope: str) -> Replanned | None: ...


def numeric(expected: str) -> bool:
    """An expected value with a digit (or a regex digit class) is a number or a date: its
    verdict stays deterministic."""
    return bool(re.search(r"\d", expected)) or "\\d" in expected
