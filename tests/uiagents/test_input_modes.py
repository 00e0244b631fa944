"""Touch-only and keyboard-only users of the scripted agent (asuka.uiagents.browsing.input_modes): real
pages in real Chromium. A keyboard user reaches a button by Tab and not a clickable div; a touch
user taps; actions a user does not have are denied (unverifiable), never the app's failure."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from asuka.deploy.ports import lease_port
from asuka.deploy.static import StaticServer
from asuka.schema import EvalTask
from asuka.uiagents.scripted.agent import ScriptedUIAgent

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><html><body>
<button id="b" onclick="out.textContent = 'button: ' + (event.pointerType || 'keyboard-or-tap')">Save</button>
<div id="d" onclick="out.textContent = 'div clicked'">Open details</div>
<label><input type="checkbox" id="cb"> Remember me</label>
<input aria-label="Name" id="name">
<p id="out">-</p>
<script>
  document.getElementById('b').addEventListener('touchstart', () => { window.touched = true; });
</script></body></html>"""


def _task(*criteria: list) -> EvalTask:
    return EvalTask.model_validate({
        "id": "t", "summary": "s", "type": "functionality", "weight": 1,
        "criteria": [{"id": f"t.c{i}", "text": f"c{i}", "check": steps}
                     for i, steps in enumerate(criteria)]})


CLICK_BUTTON = [{"goto": "/"}, {"click": {"role": "button", "name": "Save"}},
                {"expect_text": {"css": "#out", "value": "/^button/"}}]
CLICK_DIV = [{"goto": "/"}, {"click": {"text": "Open details"}},
             {"expect_text": {"css": "#out", "value": "div clicked"}}]
CHECK = [{"goto": "/"}, {"check": {"role": "checkbox", "name": "Remember me"}},
         {"eval": "document.getElementById('cb').checked"}]
FILL = [{"goto": "/"}, {"fill": {"label": "Name", "value": "Ada"}},
        {"expect_value": {"label": "Name", "value": "Ada"}}]
HOVER = [{"goto": "/"}, {"hover": {"role": "button", "name": "Save"}}]
PRESS = [{"goto": "/"}, {"press": {"label": "Name", "key": "Enter"}}]


def _run(tmp_path: Path, mode: str) -> dict[str, tuple[str, str]]:
    (tmp_path / "index.html").write_text(PAGE)
    lease = lease_port()
    server = StaticServer(tmp_path, lease.port)
    try:
        async def go():
            agent = ScriptedUIAgent(input=mode, viewport=(390, 844) if mode == "touch"
                                    else (1280, 800))
            session = await agent.open(server.url)
            try:
                return await session.evaluate(_task(CLICK_BUTTON, CLICK_DIV, CHECK, FILL, HOVER,
                                                    PRESS))
            finally:
                await session.close()
        res = asyncio.run(go())
    finally:
        server.stop()
        lease.release()
    return {v.criterion_id: (v.status, v.reason) for v in res.verdicts}


def test_a_keyboard_only_user(tmp_path: Path) -> None:
    got = _run(tmp_path, "keyboard")
    assert got["t.c0"][0] == "pass"                      # Tab to the button, Enter
    assert got["t.c1"][0] == "fail" and "not reachable with the keyboard" in got["t.c1"][1]
    assert got["t.c2"][0] == "pass" and got["t.c3"][0] == "pass"  # Space; Tab then type
    assert got["t.c4"][0] == "unverifiable" and "denied: hover" in got["t.c4"][1]
    assert got["t.c5"][0] == "pass"                      # the keyboard has keys


def test_a_touch_only_user(tmp_path: Path) -> None:
    got = _run(tmp_path, "touch")
    assert got["t.c0"][0] == "pass" and got["t.c1"][0] == "pass"  # taps reach both
    assert got["t.c2"][0] == "pass" and got["t.c3"][0] == "pass"
    assert got["t.c4"][0] == "unverifiable" and "touch-only" in got["t.c4"][1]
    assert got["t.c5"][0] == "unverifiable" and "denied: press" in got["t.c5"][1]


def test_any_input_is_todays_user(tmp_path: Path) -> None:
    got = _run(tmp_path, "any")
    assert {s for s, _ in got.values()} == {"pass"}


def test_an_unknown_input_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="input must be one of"):
        ScriptedUIAgent(input="mouse-only")


def test_browser_use_actions_map_to_the_persona_tools() -> None:
    """A model-driven persona's actions: a click is a tap on a phone and a click otherwise
    (a keyboard-only user has none); bookkeeping is always allowed; an action that is no
    tool is denied whenever tools are restricted."""
    from asuka.uiagents.browsing.input_modes import browser_use_denial, browser_use_tool

    assert browser_use_tool("touch", "click") == "tap"
    assert browser_use_tool("keyboard", "click") == "click"
    assert browser_use_tool("any", "send_keys") == "keyboard"
    assert browser_use_tool("any", "done") is None
    keyboard = frozenset({"navigate", "keyboard", "type"})
    assert browser_use_denial("keyboard", "click", keyboard) == (
        "denied: click needs the tool 'click', which is not in this evaluator's allowed_tools")
    assert browser_use_denial("keyboard", "send_keys", keyboard) is None
    assert browser_use_denial("keyboard", "done", keyboard) is None
    assert browser_use_denial("any", "evaluate", keyboard).startswith("denied: the action")
    assert browser_use_denial("any", "evaluate", None) is None  # unrestricted
