"""The browser-use agent's tools for a restricted user (a persona evaluator's ``allowed_tools``
and input mode, ``asuka.uiagents.browsing.input_modes``): every action stays in the model's schema, so
the model may try one its user does not have; such a call is denied when it is executed (the
model reads the denial as the action's error and must find another way, as that user would)
and recorded for the criterion's verdict."""

from __future__ import annotations

from typing import Any

from browser_use import Tools
from browser_use.agent.views import ActionResult

from asuka.uiagents.browsing.input_modes import browser_use_denial


class RestrictedTools(Tools):
    """``Tools`` that deny, at run time, each action whose tool this user lacks."""

    def __init__(self, exclude_actions: list[str], mode: str,
                 allowed: frozenset[str] | None) -> None:
        super().__init__(exclude_actions=exclude_actions)
        self.mode, self.allowed = mode, allowed
        self.denials: list[str] = []  # in call order, one per denied call

    async def act(self, action: Any, browser_session: Any, *args: Any, **kwargs: Any
                  ) -> ActionResult:
        for name, params in action.model_dump(exclude_unset=True).items():
            if params is None:
                continue
            denial = browser_use_denial(self.mode, name, self.allowed)
            if denial is not None:
                self.denials.append(denial)
                return ActionResult(error=f"{denial}. You cannot do this as this user; "
                                          f"use an action you have.")
        return await super().act(action, browser_session, *args, **kwargs)


def denial_note(denials: list[str]) -> str:
    """The denials of one criterion's run, for its verdict's reason (counted, in order)."""
    counts: dict[str, int] = {}
    for d in denials:
        counts[d] = counts.get(d, 0) + 1
    return "; ".join(d if n == 1 else f"{d} (x{n})" for d, n in counts.items())
