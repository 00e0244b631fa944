"""The pairwise stage of one evaluation: after the protocol, while the candidate is still served,
each of the task's pairwise presentation tasks is captured on the candidate and on the task's
reference app (served from the benchmark, all features live) under its view, and judged in both
orderings of the two screenshots.

``combine``: the candidate is ``good`` only when the judge prefers it in both orderings, ``bad``
only when it prefers the reference in both, else ``same`` (a position preference alone never
decides). No judge, a reference that cannot be brought to the view, or a judge that fails is
``error``: the harness's failure, recorded with the reason, counted, and never scored."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Literal

from asuka.llm import LLMError
from asuka.pairwise._capture import Capture, capture
from asuka.pairwise._judge import Answer, PairwiseJudge, registry
from asuka.schema import BenchTask, PairwiseResult, PairwiseShot, PairwiseTask
from asuka.usage import Usage

OPTION = "pairwise"  # the UI-agent option naming the judge
SUBDIR = "pairwise"  # screenshots, under the round's evidence dir
NO_JUDGE = ("not judged: no pairwise judge configured (give a vision model with "
            "--ui-opt pairwise=PROVIDER:MODEL)")
Verdict = Literal["good", "same", "bad"]


def combine(candidate_first: Answer, reference_first: Answer) -> Verdict:
    """The verdict from both orderings (the candidate is FIRST in the first, SECOND in the
    second)."""
    if candidate_first == "first" and reference_first == "second":
        return "good"
    if candidate_first == "second" and reference_first == "first":
        return "bad"
    return "same"


def make_judge(value: Any, ui_options: dict[str, Any] | None = None) -> PairwiseJudge | None:
    """The judge the ``pairwise`` option names: ``none`` (or absent with no UI model) -> None;
    a model (``openai:gpt-4o``, a ModelSpec dict) -> the ``llm`` judge; ``{"backend": NAME,
    ...options}`` -> that backend. Absent, the UI agent's own ``model`` judges (browser-use and
    hybrid drive a vision model already)."""
    if value is None:
        value = (ui_options or {}).get("model")
    if value in (None, False, "", "none"):
        return None
    if isinstance(value, dict) and "backend" in value:
        opts = dict(value)
        return registry.get(opts.pop("backend"), **opts)
    return registry.get("llm", model=value)


def _error(task: PairwiseTask, reason: str, judge: str = "", **shots: Any) -> PairwiseResult:
    return PairwiseResult(task_id=task.id, status="error", error=reason, judge=judge, **shots)


def _save(png: bytes | None, evidence_dir: Path | None, name: str) -> str | None:
    if png is None or evidence_dir is None:
        return None
    path = Path(evidence_dir) / SUBDIR / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(png)
    return f"{SUBDIR}/{name}"


def _note(position: str, shot: Capture) -> list[str]:
    return [f"app {position} did not complete the steps ({shot.path_error}); it is shown as it "
            "then was"] if shot.path_error else []


async def judge_one(task: PairwiseTask, query: str, judge: PairwiseJudge, browser: Any,
                    candidate_url: str, reference_url: str, evidence_dir: Path | None = None,
                    data_dir: Path | None = None) -> PairwiseResult:
    t0 = time.perf_counter()
    label = getattr(judge, "label", judge.name)
    cand = await capture(browser, candidate_url, task.view, data_dir)
    ref = await capture(browser, reference_url, task.view, data_dir)
    shots = {"candidate": PairwiseShot(screenshot=_save(cand.png, evidence_dir,
                                                        f"{task.id}.candidate.png"),
                                       path_error=cand.path_error),
             "reference": PairwiseShot(screenshot=_save(ref.png, evidence_dir,
                                                        f"{task.id}.reference.png"),
                                       path_error=ref.path_error)}
    if ref.png is None or ref.path_error:
        return _error(task, "the reference app could not be brought to the view: "
                            f"{ref.path_error or 'no screenshot'}", label, **shots)
    if cand.png is None:
        return _error(task, f"the candidate could not be photographed: {cand.path_error}",
                      label, **shots)
    calls: list[dict[str, Any]] = []
    try:
        for order, first, second, notes in (
                ("candidate-first", cand.png, ref.png, _note("FIRST", cand)),
                ("reference-first", ref.png, cand.png, _note("SECOND", cand))):
            answer, reason = await judge.judge(task, query, first, second, notes)
            calls.append({"order": order, "answer": answer, "reason": reason})
    except LLMError as exc:
        return PairwiseResult(task_id=task.id, status="error", error=f"judge failed: {exc}",
                              judge=label, calls=calls, duration_s=time.perf_counter() - t0,
                              **shots)
    verdict = combine(calls[0]["answer"], calls[1]["answer"])
    reason = " | ".join(f"{c['order']}: {c['answer']} ({c['reason']})" for c in calls)
    return PairwiseResult(task_id=task.id, status="judged", verdict=verdict, reason=reason,
                          judge=label, calls=calls, duration_s=time.perf_counter() - t0, **shots)


async def judge_presentation(bench_task: BenchTask, candidate_url: str,
                             judge: PairwiseJudge | None, evidence_dir: Path | None = None
                             ) -> tuple[dict[str, PairwiseResult], list[Usage]]:
    """Every pairwise task of ``bench_task`` judged on the candidate served at
    ``candidate_url`` (an empty dict when the task has none)."""
    tasks = bench_task.task.pairwise
    if not tasks:
        return {}, []
    if judge is None:
        return {t.id: _error(t, NO_JUDGE) for t in tasks}, []
    from playwright.async_api import async_playwright

    from asuka.deploy.reference import serve
    from asuka.uiagents.browsing.browser import launch

    data_dir = Path(bench_task.root) / "data"
    results: dict[str, PairwiseResult] = {}
    with serve(bench_task) as reference_url:
        async with async_playwright() as pw:
            browser = await launch(pw)
            try:
                for t in tasks:
                    results[t.id] = await judge_one(t, bench_task.task.query, judge, browser,
                                                    candidate_url, reference_url, evidence_dir,
                                                    data_dir)
            finally:
                await browser.close()
    return results, judge.usage()
