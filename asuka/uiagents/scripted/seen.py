"""What a user would have seen when a check did not hold, in plain words.

A verdict's ``reason`` is technical (the step, its locator, what Playwright observed) and stays
in the evidence and the viewer; ``Verdict.seen`` is what the User role may repeat: no locator,
selector, step name or "matching element" count, only what a person looking at the page would
say ("I couldn't find it", "it shows “$1,896.20”; I expected “$1,798.65”", "I counted 10; I
expected 7"). The feedback puts it beside the criterion's own text, so it never has to name
the element itself.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from asuka.schema import CheckStep, is_regex

SHOWN = 140


def _quote(text: str) -> str:
    text = " ".join(str(text).split())
    if len(text) > SHOWN:
        text = text[: SHOWN - 1] + "…"
    return f"“{text}”"


def _plain(value: Any) -> str | None:
    """An expected value a user could state: a literal, never a regular expression."""
    if value is None or isinstance(value, (list, dict)):
        return None
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return None if is_regex(text) or not text.strip() else text


def _count_wanted(params: dict[str, Any]) -> str:
    if params.get("count") is not None:
        return str(params["count"])
    lo, hi = params.get("min"), params.get("max")
    if lo is not None and hi is not None:
        return f"between {lo} and {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def _shown(detail: str, prefix: str) -> str | None:
    """The text of ``<prefix> '<repr>'`` (either quote style), or None."""
    m = re.match(prefix + r" ('.*'|\".*\")$", detail, re.S)
    if not m:
        return None
    try:
        return str(ast.literal_eval(m.group(1)))
    except (ValueError, SyntaxError):
        return m.group(1)[1:-1]


def user_words(step: CheckStep | None, detail: str, *, missing: bool, http: int | None = None
               ) -> str:
    """One sentence a user could say about a check that stopped at ``step`` with ``detail``."""
    if http is not None and http >= 400:
        return f"the page showed an error (HTTP {http})"
    if step is None:
        return "the app did not open"
    op, params = step.op, step.params
    if missing:
        if op in ("fill", "set"):
            return "I couldn't find where to enter that"
        if op in ("select", "choose"):
            return "I couldn't find where to choose that"
        if op in ("click", "dblclick", "check", "uncheck", "turn_on", "turn_off"):
            return "I couldn't find the control to do that"
        return "I couldn't find it on the page"
    if detail.startswith("timed out") or detail.startswith("task timed out") or \
            "did not respond" in detail:
        return "the page stopped responding"
    if "did not finish loading" in detail or detail.startswith("could not load"):
        return "the page did not load"
    value = _shown(detail, "observed value")
    if value is not None:
        want = _plain(params.get("value"))
        shown = _quote(value) if value else "empty"
        return f"the field shows {shown}" + (f"; I expected {_quote(want)}" if want else "")
    m = re.match(r"observed (\d+) reading\(s\) pointing along the chart", detail)
    if m:
        return (f"pointing along the chart I found {m.group(1)} different columns; I expected "
                f"{_count_wanted(params)}")
    m = re.match(r"pointing along the chart never showed '(.*)'", detail)
    if m:
        return f"I pointed along the chart but it never showed {_quote(m.group(1))}"
    m = re.match(r"observed (\d+) matching element", detail)
    if m:
        return f"I counted {m.group(1)}; I expected {_count_wanted(params)}"
    m = re.match(r"(\d+) of \d+ matching element\(s\) visible", detail)
    if m:
        return "it is still shown"
    text = _shown(detail, "observed")
    if text is not None and op == "expect_text":
        want = _plain(params.get("value"))
        shown = _quote(text) if text.strip() else "nothing"
        return f"it shows {shown}" + (f"; I expected {_quote(want)}" if want else "")
    if re.match(r"observed [a-z-]+=", detail) or detail.startswith("the element has no attr"):
        return "it is not in the state described"
    if detail.startswith("the element exists but is not visible"):
        return "it is there but I can't see it"
    if detail.startswith("only ") and "none at nth" in detail:
        return "there are fewer of them than described"
    if "no option matches" in detail:
        want = _plain(params.get("option"))
        return f"{_quote(want)} is not among the choices" if want else \
            "the choice described is not offered"
    if "not enabled" in detail:
        return "the control is disabled, so I couldn't use it"
    if "not visible" in detail:
        return "the control is not visible, so I couldn't use it"
    if "intercepts pointer events" in detail:
        return "something on top of the control blocked my click"
    if "not reachable with the keyboard" in detail:
        return "I couldn't reach it with the keyboard"
    if detail.startswith("upload file not found"):
        return "I couldn't upload the file"
    if op == "eval" or detail.startswith("returned") or detail.startswith("JavaScript threw"):
        return "it did not behave as described"
    if op in ("click", "dblclick", "check", "uncheck", "fill", "select", "press", "upload",
              "set", "choose", "turn_on", "turn_off", "hover"):
        return "I couldn't use the control as described"
    return "it did not behave as described"
