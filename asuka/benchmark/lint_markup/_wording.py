"""Wording findings: the names a step's locators use (role name, label, placeholder, text, alt,
title), the option it selects and the text it expects, where they are wording that neither the
PRD, the query, the mock data nor the evaluation task's own typed values give.
"""

from __future__ import annotations

from typing import Iterator

from asuka.benchmark.lint_markup._backing import Backing, Typed
from asuka.benchmark.lint_markup._markup import RawFinding, chain
from asuka.benchmark.lint_markup._text import short
from asuka.schema import CheckStep, is_regex

_NAME_KEYS = ("name", "label", "placeholder", "text", "alt", "title")


def wording_findings(step: CheckStep, back: Backing, typed: Typed, prd_name: str
                     ) -> Iterator[RawFinding]:
    """(kind, via, subjects, reason) of each unbacked name, option or expected text of a step."""
    for loc in chain(step.locator):
        for key in _NAME_KEYS:
            value = getattr(loc, key)
            if not isinstance(value, str):
                continue
            via = "role name" if key == "name" else key
            what = f"{loc.role} name" if key == "name" else key
            if key == "placeholder":
                missing = back.value(value, typed, placeholder=True)
                if missing:
                    elsewhere = not back.value(value, typed)
                    yield ("name", via, missing,
                           f"placeholder {short(value)}: " +
                           (f"{prd_name} has these words, but not as a placeholder (an input "
                            "the PRD names by its label need not have one: find it by label)"
                            if elsewhere else f"wording not in {prd_name}"))
                continue
            missing = back.value(value, typed)
            if missing:
                yield ("name", via, missing,
                       f"{what} {short(value)}: wording not in {prd_name}, the query or the data"
                       + (f" ({', '.join(map(short, missing))})" if is_regex(value) else ""))
    if step.op == "select" and isinstance(step.params.get("option"), str):
        option = step.params["option"]
        missing = back.value(option, Typed([]))
        if missing:
            yield ("name", "option", missing,
                   f"option {short(option)}: wording not in {prd_name}, the query or the data")
    if step.op == "expect_text" and isinstance(step.params.get("value"), str):
        value = step.params["value"]
        missing = back.value(value, typed)
        if missing:
            exact = step.params.get("contains") is False
            yield ("wording", "expect_text", missing,
                   f"expect_text {'exactly ' if exact else ''}{short(value)}: wording not in "
                   f"{prd_name}, the query or the data"
                   + (f" ({', '.join(map(short, missing))})" if is_regex(value) else ""))
