"""One browser for a whole run (``asuka.uiagents.browsing.browser.shared_browsers``, what a sweep
opens around its cells): sessions opened inside it use the run's browser instead of launching
their own, a session's close leaves it running, and isolation is unchanged because every
criterion still runs in a fresh context (storage set by one evaluation is not seen by the
next). The browser is gone when the block ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asuka.schema import EvalTask
from asuka.uiagents.browsing.browser import current_shared_browsers, shared_browsers
from asuka.uiagents.scripted.agent import ScriptedUIAgent

pytestmark = pytest.mark.browser

PAGE = """<!doctype html><title>Store</title><p id="v"></p><button>Remember</button><script>
  const show = () => { document.getElementById('v').textContent =
    localStorage.getItem('k') || 'nothing stored'; };
  document.querySelector('button').onclick = () => { localStorage.setItem('k', 'remembered');
    show(); };
  show();</script>"""


def task(tid: str, steps: list[dict[str, Any]]) -> EvalTask:
    return EvalTask.model_validate({
        "id": tid, "summary": "test", "type": "functionality", "weight": 1,
        "criteria": [{"id": f"{tid}.c0", "text": "c", "check": steps}]})


REMEMBER = task("remember", [{"goto": "/"}, {"click": {"role": "button", "name": "Remember"}},
                             {"expect_text": {"css": "#v", "value": "remembered"}}])
FRESH = task("fresh", [{"goto": "/"}, {"expect_text": {"css": "#v", "value": "nothing stored"}}])


async def test_a_run_shares_one_browser_and_keeps_criteria_isolated(static_server: Any,
                                                                    tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(PAGE)
    site = static_server(tmp_path)
    agent = ScriptedUIAgent()
    async with shared_browsers():
        assert current_shared_browsers() is not None
        first = await agent.open(site.url)
        second = await agent.open(site.url)
        assert first._browser is second._browser  # one browser, two sessions
        assert (await first.evaluate(REMEMBER)).verdicts[0].status == "pass"
        await first.close()
        browser = second._browser
        assert browser.is_connected()  # a session's close leaves the run's browser running
        result = await second.evaluate(FRESH)  # a fresh context: nothing stored
        assert result.verdicts[0].status == "pass", result.verdicts[0].reason
        await second.close()
    assert current_shared_browsers() is None and not browser.is_connected()
    alone = await agent.open(site.url)  # outside a run: a browser of its own, as before
    try:
        assert alone._browser is not browser and alone._browser.is_connected()
    finally:
        await alone.close()
    assert not alone._browser.is_connected()
