"""Input-restricted users for the scripted agent (``ScriptedUIAgent(input=...)``), the tools of
LiveEvalBench's persona evaluators:

- ``touch``: a touch-only phone user (the context has touch and is mobile): ``click``,
  ``check`` and ``uncheck`` are taps; ``hover``, ``dblclick`` and ``press`` (no pointer to hover
  with, no physical keyboard) are denied.
- ``keyboard``: a keyboard-only user: no pointer at all. ``click`` focuses the target by pressing
  Tab (as the user would, from wherever focus is) and presses Enter (Space on a checkbox or
  radio); ``check``/``uncheck`` Tab to it and press Space when its state differs; ``fill``,
  ``select`` and ``upload`` first reach their field by Tab. A target Tab never reaches fails as
  "not reachable with the keyboard". ``hover`` and ``dblclick`` are denied.

A denied step raises ``StepDenied``: the criterion is ``unverifiable`` for this user (its check
needs an action the user does not have), recorded with the reason, never a failure of the app.
"""

from __future__ import annotations

from typing import Any

from asuka.uiagents.browsing.locate import StepFailed

INPUTS = ("any", "touch", "keyboard")
DENIED: dict[str, frozenset[str]] = {
    "any": frozenset(),
    "touch": frozenset({"hover", "dblclick", "press"}),
    "keyboard": frozenset({"hover", "dblclick"}),
}
MAX_TABS = 80  # a page with more stops than this before the target is not keyboard-usable
DENIED_PREFIX = "denied: "


class StepDenied(StepFailed):
    """The step needs an action this user does not have."""


# the evaluator tool (asuka.evaluators TOOLS["ui"]) a check step uses, per input mode
_POINTER = {"any": "click", "touch": "tap", "keyboard": "keyboard"}


def tool_of(mode: str, op: str) -> str | None:
    if op in ("click", "check", "uncheck", "dblclick", "choose", "turn_on", "turn_off"):
        return _POINTER.get(mode, "click")
    return {"goto": "navigate", "reload": "navigate", "hover": "hover", "fill": "type", "set": "type",
            "press": "keyboard", "select": "select", "upload": "upload"}.get(
        op, "read-page" if op == "eval" or op.startswith("expect_") else None)


def check_allowed(mode: str, op: str, allowed: frozenset[str] | None = None) -> None:
    """Raise ``StepDenied`` for a step this user lacks, or whose tool is not in ``allowed``
    (an evaluator's ``allowed_tools``; None: every tool)."""
    if op in DENIED.get(mode, frozenset()):
        raise StepDenied(f"{DENIED_PREFIX}{op} is not available to a {mode}-only user")
    tool = tool_of(mode, op)
    if allowed is not None and tool is not None and tool not in allowed:
        raise StepDenied(f"{DENIED_PREFIX}{op} needs the tool {tool!r}, which is not in this "
                         f"evaluator's allowed_tools")


async def focus_by_keyboard(page: Any, target: Any) -> int:
    """Press Tab until ``target`` (or something inside it) has the focus; the presses taken."""
    handle = await target.element_handle()
    inside = "el => el === document.activeElement || el.contains(document.activeElement)"
    if await handle.evaluate(inside):
        return 0
    for n in range(1, MAX_TABS + 1):
        await page.keyboard.press("Tab")
        if await handle.evaluate(inside):
            return n
    raise StepFailed(f"not reachable with the keyboard ({MAX_TABS} Tab presses never focused it)")


async def _is_toggle(target: Any) -> bool:
    return await target.evaluate(
        "el => el.matches('input[type=checkbox], input[type=radio], [role=checkbox], "
        "[role=radio], [role=switch]')")


async def activate(mode: str, page: Any, target: Any, timeout_ms: float) -> None:
    """A click as this user makes it."""
    if mode == "touch":
        await target.tap(timeout=timeout_ms)
    elif mode == "keyboard":
        await focus_by_keyboard(page, target)
        await page.keyboard.press("Space" if await _is_toggle(target) else "Enter")
    else:
        await target.click(timeout=timeout_ms)


async def set_checked(mode: str, page: Any, target: Any, checked: bool,
                      timeout_ms: float) -> None:
    if mode == "any":
        await (target.check if checked else target.uncheck)(timeout=timeout_ms)
        return
    if await target.is_checked() == checked:
        return
    if mode == "touch":
        await target.tap(timeout=timeout_ms)
    else:
        await focus_by_keyboard(page, target)
        await page.keyboard.press("Space")
    if await target.is_checked() != checked:
        raise StepFailed(f"{'checking' if checked else 'unchecking'} it did not change its state")


# ---------------------------------------------------------------- browser-use's actions

# the evaluator tool each browser-use action is; its own bookkeeping (finishing, waiting, its
# scratch files) is no user interaction and always allowed
BROWSER_USE_TOOLS = {
    "navigate": "navigate", "go_back": "navigate", "switch": "navigate", "close": "navigate",
    "click": "click", "input": "type", "send_keys": "keyboard", "upload_file": "upload",
    "dropdown_options": "select", "select_dropdown": "select", "screenshot": "screenshot",
    "extract": "read-page", "search_page": "read-page", "find_elements": "read-page",
    "find_text": "read-page", "scroll": "read-page",
}
BROWSER_USE_INTERNAL = frozenset({"done", "wait", "write_file", "replace_file", "read_file"})


def browser_use_tool(mode: str, action: str) -> str | None:
    """The tool a browser-use action needs for this user (None: bookkeeping, always allowed;
    ``"?"``: an action with no tool, denied whenever tools are restricted)."""
    if action in BROWSER_USE_INTERNAL:
        return None
    tool = BROWSER_USE_TOOLS.get(action, "?")
    # a browser-use click is a pointer event whatever the user: a tap on a phone, else a click
    # (a keyboard-only user has none and reaches targets with send_keys)
    return ("tap" if mode == "touch" else "click") if tool == "click" else tool


def browser_use_denial(mode: str, action: str, allowed: frozenset[str] | None) -> str | None:
    """Why this user may not take the action (None: allowed)."""
    tool = browser_use_tool(mode, action)
    if tool is None or allowed is None or tool in allowed:
        return None
    if tool == "?":
        return f"{DENIED_PREFIX}the action {action!r} is not a tool of this evaluator"
    return (f"{DENIED_PREFIX}{action} needs the tool {tool!r}, which is not in this "
            f"evaluator's allowed_tools")
