"""Fast absence (``asuka.uiagents.browsing.settle``) in real Chromium: a check of something missing fails
once the page has settled, long before its timeout; anything still pending (a timer, a request,
a script loading, a transition, an interval) keeps the check patient, so it passes as it did
when every timeout was waited out."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from asuka.schema import EvalTask
from asuka.uiagents.scripted.agent import ScriptedUIAgent
from tests.conftest import QuietHandler

pytestmark = pytest.mark.browser

# timeouts far above what any settled page needs, so "failed before its timeout" is plain
PATIENT = dict(assert_timeout_s=6, action_timeout_s=6)

STATIC = """<h1>Static</h1><button>Save</button><p id="msg">Nothing yet</p>"""

# one page per thing that keeps a check waiting, so none of them hides another
LATE = {
    # a timer: the element appears 1.2 s after load
    "timer": """<button id="x">x</button><script>
      setTimeout(() => document.body.insertAdjacentHTML('beforeend',
        '<button id="late">Late button</button>'), 1200);</script>""",
    # a request: the result shows when the slow endpoint answers (about 1 s)
    "fetch": """<button id="load">Load</button><script>
      document.getElementById('load').onclick = async () => {
        const r = await fetch('/slow-data');
        document.body.insertAdjacentHTML('beforeend', '<p id="data">' + await r.text() + '</p>');
      };</script>""",
    # a transition: hidden only once it has ended
    "fade": """<style>#fade { transition: opacity 0.9s; } #fade.out { opacity: 0; }</style>
      <p id="fade">Fading</p><button id="fadeout">Fade</button><script>
      const fade = document.getElementById('fade');
      fade.addEventListener('transitionend', () => { fade.hidden = true; });
      document.getElementById('fadeout').onclick = () => fade.classList.add('out');</script>""",
    # an interval: a counter that reaches 3 after about 2.1 s
    "ticks": """<p id="ticks">0</p><script>
      let n = 0;
      const iv = setInterval(() => {
        document.getElementById('ticks').textContent = String(++n);
        if (n === 3) clearInterval(iv);
      }, 700);</script>""",
    # a render a few animation frames after the click (no timer, no request): the quiet window
    "frames": """<button id="go">Go</button><script>
      document.getElementById('go').onclick = () => {
        let n = 0;
        const frame = () => n++ < 6 ? requestAnimationFrame(frame)
          : document.body.insertAdjacentHTML('beforeend', '<p id="done">Done</p>');
        requestAnimationFrame(frame);
      };</script>""",
    # work longer than a check's timeout, visibly under way: a chain of timers, each a step of
    # progress (a loaded machine stretches an app's work like this), then the outcome
    "chain": """<button id="run">Run</button><p id="progress">0</p><script>
      document.getElementById('run').onclick = () => {
        let n = 0;
        const step = () => {
          document.getElementById('progress').textContent = String(++n);
          if (n < 24) setTimeout(step, 100);
          else document.body.insertAdjacentHTML('beforeend',
            location.hash === '#broken' ? '<p id="end">Failed</p>' : '<p id="end">Done</p>');
        };
        setTimeout(step, 100);
      };</script>""",
    # data fetched after load (1 s), read when a dialog opens: opened before it arrives, the
    # dialog's list stays empty
    "data": """<button id="new">New card</button><div id="dialog"></div><script>
      let columns = [];
      fetch('/slow-data').then((r) => r.text()).then((t) => { columns = ['Review', t]; });
      document.getElementById('new').onclick = () => {
        document.getElementById('dialog').innerHTML = '<label>Column <select id="col">'
          + columns.map((c) => '<option>' + c + '</option>').join('') + '</select></label>';
      };</script>""",
    # never at rest: an interval rewriting the page every 100 ms
    "restless": """<p id="clock">0</p><script>
      let t = 0; setInterval(() => {
        document.getElementById('clock').textContent = String(++t); }, 100);</script>""",
    # a script loaded late (no fetch at all): it writes its element when it arrives
    "script": """<p>waiting</p><script>
      requestAnimationFrame(() => { const s = document.createElement('script');
        s.src = '/slow.js'; document.head.appendChild(s); });</script>""",
}


class Handler(QuietHandler):
    def do_GET(self) -> None:  # noqa: N802
        if self.path.startswith("/slow"):
            time.sleep(1.0)
            js = self.path.endswith(".js")
            body = (b"document.body.insertAdjacentHTML('beforeend', '<p id=\"script\">from "
                    b"script</p>');" if js else b"42 records")
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript" if js else "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


@pytest.fixture
def site(static_server: Any, tmp_path: Path) -> Any:
    root = tmp_path / "site"
    root.mkdir()
    (root / "static.html").write_text(f"<!doctype html><title>Static</title>{STATIC}")
    for name, body in LATE.items():
        (root / f"{name}.html").write_text(f"<!doctype html><title>{name}</title>{body}")
    return static_server(root, Handler)


def task(tid: str, *criteria: list[dict[str, Any]]) -> EvalTask:
    return EvalTask.model_validate({
        "id": tid, "summary": "test", "type": "functionality", "weight": 1,
        "shared_context": False,
        "criteria": [{"id": f"{tid}.c{i}", "text": "c", "check": steps}
                     for i, steps in enumerate(criteria)]})


async def evaluate(site: Any, et: EvalTask, **options: Any) -> Any:
    session = await ScriptedUIAgent(**{**PATIENT, **options}).open(site.url)
    try:
        return await session.evaluate(et)
    finally:
        await session.close()


MISSING = task(
    "missing",
    [{"goto": "/static.html"}, {"click": {"role": "button", "name": "Delete"}}],
    [{"goto": "/static.html"}, {"expect_visible": {"role": "heading", "name": "Settings"}}],
    [{"goto": "/static.html"}, {"expect_text": {"css": "#msg", "value": "Saved"}}],
    [{"goto": "/static.html"}, {"expect_count": {"role": "button", "count": 2}}],
)


async def test_missing_things_fail_once_the_page_has_settled(site: Any) -> None:
    fast = await evaluate(site, MISSING)
    assert [v.status for v in fast.verdicts] == ["not_found", "not_found", "fail", "fail"]
    # each decided well before its 6 s timeout, with the reason it would have had at the end
    assert all(v.duration_s < 3 for v in fast.verdicts), [v.duration_s for v in fast.verdicts]
    assert "observed 'Nothing yet'" in fast.verdicts[2].reason
    assert "observed 1 matching element(s)" in fast.verdicts[3].reason


async def test_the_patient_path_reaches_the_same_verdicts(site: Any) -> None:
    et = MISSING.model_copy(update={"criteria": MISSING.criteria[:2]})
    slow = await evaluate(site, et, fast_absence=False)
    assert [v.status for v in slow.verdicts] == ["not_found", "not_found"]
    assert all(v.duration_s >= 5.5 for v in slow.verdicts)  # the whole timeout, as before


async def test_pending_work_keeps_a_check_patient(site: Any) -> None:
    et = task(
        "late",
        [{"goto": "/timer.html"}, {"click": {"role": "button", "name": "Late button"}}],
        [{"goto": "/fetch.html"}, {"click": {"css": "#load"}},
         {"expect_text": {"css": "#data", "value": "42"}}],
        [{"goto": "/fade.html"}, {"click": {"css": "#fadeout"}},
         {"expect_hidden": {"css": "#fade"}}],
        [{"goto": "/ticks.html"}, {"expect_text": {"css": "#ticks", "value": "3"}}],
        [{"goto": "/script.html"}, {"expect_visible": {"css": "#script"}}],
        [{"goto": "/frames.html"}, {"click": {"css": "#go"}},
         {"expect_visible": {"css": "#done"}}],
    )
    result = await evaluate(site, et)
    assert {v.criterion_id: v.reason for v in result.verdicts if v.status != "pass"} == {}


async def test_a_page_still_at_work_at_the_deadline_is_waited_for(site: Any) -> None:
    """At its deadline a check whose page is still busy with work that was due (here 2.4 s of
    visible progress against a 1 s timeout, as a loaded machine stretches an app's work) waits
    for the page's state, not the clock; a broken outcome still fails, and a page that never
    rests fails at LATE_LIMIT times the timeout."""
    run = [{"click": {"css": "#run"}}, {"expect_text": {"css": "#end", "value": "Done"}}]
    et = task("late-work", [{"goto": "/chain.html"}, *run], [{"goto": "/chain.html#broken"}, *run],
              [{"goto": "/restless.html"}, {"expect_visible": {"css": "#never"}}])
    result = await evaluate(site, et, assert_timeout_s=1.0)
    ok, broken, restless = result.verdicts
    assert ok.status == "pass", ok.reason
    assert broken.status == "fail" and "observed 'Failed'" in broken.reason, broken.reason
    assert restless.status == "not_found" and 2.5 < restless.duration_s < 6, restless
    patient = await evaluate(site, task("patient", [{"goto": "/chain.html"}, *run]),
                             assert_timeout_s=1.0, fast_absence=False)
    assert patient.verdicts[0].status == "not_found"  # the patient path keeps its clock


async def test_a_step_after_a_navigation_waits_for_the_data_in_flight(site: Any) -> None:
    """The page's data arrives 1 s after ``load``: the click after ``goto`` waits for it, as a
    user would, so the dialog lists the columns on any machine."""
    et = task("data", [{"goto": "/data.html"}, {"click": {"css": "#new"}},
                       {"select": {"label": "Column", "option": "Review"}}])
    result = await evaluate(site, et)
    assert result.verdicts[0].status == "pass", result.verdicts[0].reason
