"""Pairwise presentation tasks (asuka.pairwise, issue #16 item 5): the candidate and the task's
reference app captured under one view in real Chromium, judged by a vision model at the wire
(the local scripted server; the real SDK clients), combined over both orderings, recorded with
both screenshots, scored in ATS only when judged."""

from __future__ import annotations

import base64
import copy
import struct
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from asuka.benchmark.loading import load_bench
from asuka.cli import app
from asuka.log.contracts import score_round
from asuka.log.provenance import task_definition
from asuka.log.store import RunStore
from asuka.pairwise import NO_JUDGE, combine
from asuka.report.summary import summarize
from tests.builders import TASK, write_bench
from tests.llm_server import (
    json_reply,
    llm_server,  # noqa: F401 - fixture
    text,
)

runner = CliRunner()
REFERENCE = """<!doctype html><html><head><title>Counter</title></head>
<body style="font-family: sans-serif; margin: 40px">
<h1>Counter</h1><p id="n" style="font-size: 48px">0</p>
<button onclick="n.textContent = +n.textContent + 1">Add one</button>
<section id="more" hidden><h2>Settings</h2></section>
<button onclick="more.hidden = false">Settings</button></body></html>"""
CANDIDATE = """<!doctype html><html><head><title>Count</title></head>
<body style="background: #123; color: #eee"><h1>My counter</h1><p>0</p>
<button>+</button></body></html>"""
VIEW = {"width": 800, "height": 600, "observe_ms": 100, "path": [{"goto": "/"}]}


def _bench(root: Path, view: dict | None = None, pairwise: list | None = None) -> Path:
    task = copy.deepcopy(TASK)
    task["eval_tasks"][0]["core"] = True
    task["eval_tasks"][0]["criteria"][0]["mandatory"] = True
    task["pairwise"] = pairwise if pairwise is not None else [
        {"id": "look", "summary": "The counter page looks finished",
         "aspects": ["visual hierarchy of the count", "legibility"], "view": view or VIEW}]
    write_bench(root, task)
    ref = root / "tasks" / "mini" / "reference"
    ref.mkdir()
    (ref / "index.html").write_text(REFERENCE)
    return root


def _candidate(tmp_path: Path) -> Path:
    app_dir = tmp_path / "candidate"
    app_dir.mkdir()
    (app_dir / "index.html").write_text(CANDIDATE)
    return app_dir


def _eval(tmp_path: Path, bench: Path, *opts: str) -> tuple[RunStore, str]:
    args = ["eval", str(_candidate(tmp_path)), "--task", "mini", "--bench", str(bench),
            "--out", str(tmp_path / "runs"), "--run-id", "pw"]
    for o in opts:
        args += ["--ui-opt", o]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    store = RunStore(tmp_path / "runs" / "pw")
    (cell,) = store.cells()
    return store, cell


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _images(body: dict) -> list[bytes]:
    """The images of one recorded request, in order, for either provider's format."""
    out = []
    for msg in body["messages"]:
        for part in msg["content"] if isinstance(msg["content"], list) else []:
            if part["type"] == "image_url":
                out.append(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))
            elif part["type"] == "image":
                out.append(base64.b64decode(part["source"]["data"]))
    return out


def _prompt(body: dict) -> str:
    return "".join(p.get("text", "") for m in body["messages"]
                   for p in (m["content"] if isinstance(m["content"], list) else []))


def test_combining_both_orderings_never_lets_a_position_decide() -> None:
    assert combine("first", "second") == "good"      # the candidate preferred both times
    assert combine("second", "first") == "bad"       # the reference preferred both times
    for a, b in [("first", "first"), ("second", "second"), ("same", "first"),
                 ("first", "same"), ("same", "same")]:
        assert combine(a, b) == "same", (a, b)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_judged_pairwise_task_at_the_wire(tmp_path: Path, llm_server, provider) -> None:
    bench = _bench(tmp_path / "bench")
    llm_server.script(json_reply({"better": "first", "reason": "bolder count"}),
                      json_reply({"better": "second", "reason": "bolder count again"}))
    model = f"{provider}:vision-test@{llm_server.base_url(provider)}"
    store, cell = _eval(tmp_path, bench, f"pairwise={model}")

    rec = store.load_round(cell, 1)
    res = rec.evaluation.pairwise["look"]
    assert res.status == "judged" and res.verdict == "good", res
    assert [c["order"] for c in res.calls] == ["candidate-first", "reference-first"]
    assert res.judge == f"llm:{provider}:vision-test"
    evidence = store.round_dir(cell, 1) / "evidence"
    cand = (evidence / res.candidate.screenshot).read_bytes()
    ref = (evidence / res.reference.screenshot).read_bytes()
    assert _png_size(cand) == _png_size(ref) == (800, 600)  # the matched viewport
    assert cand != ref

    # what the model was sent: both screenshots, candidate first then reference first, and
    # the task's query and aspects; nothing of the verdicts
    assert len(llm_server.requests) == 2
    first, second = (r.body for r in llm_server.requests)
    assert _images(first) == [cand, ref] and _images(second) == [ref, cand]
    prompt = _prompt(first)
    assert TASK["query"] in prompt and "visual hierarchy of the count" in prompt
    assert "800x600" in prompt

    # ATS counts Good as 1 beside the pointwise tasks; the judge's tokens are the evaluation's
    bt = load_bench(bench, ["mini"])[0][0]
    scores = score_round(bt.task, rec.evaluation)
    assert scores.task_scores["look"] == 1.0
    assert scores.ats == pytest.approx(sum(scores.task_scores.values()) / 4)
    ui = [u for u in rec.agent.usage if u.role == "ui-agent" and u.model == "vision-test"]
    assert ui and ui[0].calls == 2 and ui[0].input_tokens == 20
    rep = runner.invoke(app, ["report", str(store.root), "--format", "md",
                              "--out", str(tmp_path / "rep")])
    assert rep.exit_code == 0, rep.output
    summary = summarize(store, {"mini": bt})
    (group,) = summary["groups"]
    assert group["contract"]["pairwise"] == {"good": 1}
    assert "pairwise G/S/B/err" in (tmp_path / "rep" / "report.md").read_text()
    page = runner.invoke(app, ["report", str(store.root), "--format", "html",
                               "--out", str(tmp_path / "html")])
    assert page.exit_code == 0, page.output
    html = (tmp_path / "html" / "html" / "cells" / cell / "round-1.html").read_text()
    assert "Pairwise presentation tasks" in html and "bolder count again" in html
    assert (tmp_path / "html" / "html" / "cells" / cell / "round-1" /
            "pairwise-look.candidate.png").is_file()


def test_without_a_judge_a_pairwise_task_is_an_error_left_out_of_ats(tmp_path: Path) -> None:
    bench = _bench(tmp_path / "bench")
    store, cell = _eval(tmp_path, bench)
    rec = store.load_round(cell, 1)
    res = rec.evaluation.pairwise["look"]
    assert res.status == "error" and res.error == NO_JUDGE and res.verdict is None
    assert res.candidate is None  # nothing captured, nothing served
    bt = load_bench(bench, ["mini"])[0][0]
    scores = score_round(bt.task, rec.evaluation)
    assert "look" not in scores.task_scores and len(scores.task_scores) == 3


def test_a_reference_that_cannot_reach_the_view_is_the_harness_failure(
        tmp_path: Path, llm_server) -> None:
    view = {**VIEW, "path": [{"goto": "/"}, {"click": {"role": "button", "name": "Options"}}]}
    bench = _bench(tmp_path / "bench", view=view)
    store, cell = _eval(tmp_path, bench,
                        f"pairwise=openai:vision-test@{llm_server.openai_base_url}")
    res = store.load_round(cell, 1).evaluation.pairwise["look"]
    assert res.status == "error" and "reference app could not be brought" in res.error
    assert not llm_server.requests  # never judged on a view the reference does not reach


def test_a_candidate_that_misses_a_path_step_is_judged_as_it_is(
        tmp_path: Path, llm_server) -> None:
    """The reference opens its settings; the candidate has no such button. It is photographed
    as it is and the judge is told, in position terms, which app did not complete the steps."""
    view = {**VIEW, "path": [{"goto": "/"}, {"click": {"role": "button", "name": "Settings"}}]}
    bench = _bench(tmp_path / "bench", view=view)
    llm_server.script(json_reply({"better": "second", "reason": "no settings"}),
                      json_reply({"better": "first", "reason": "no settings"}))
    store, cell = _eval(tmp_path, bench,
                        f"pairwise=openai:vision-test@{llm_server.openai_base_url}")
    res = store.load_round(cell, 1).evaluation.pairwise["look"]
    assert res.status == "judged" and res.verdict == "bad"
    assert res.candidate.path_error and "Settings" in res.candidate.path_error
    assert res.reference.path_error is None
    first, second = (_prompt(r.body) for r in llm_server.requests)
    assert "app FIRST did not complete the steps" in first
    assert "app SECOND did not complete the steps" in second


def test_an_unusable_judgement_is_an_error_not_a_verdict(tmp_path: Path, llm_server) -> None:
    bench = _bench(tmp_path / "bench")
    llm_server.script(text("I think the first one, probably"))
    store, cell = _eval(tmp_path, bench,
                        f"pairwise=openai:vision-test@{llm_server.openai_base_url}")
    rec = store.load_round(cell, 1)
    res = rec.evaluation.pairwise["look"]
    assert res.status == "error" and res.error.startswith("judge failed")
    assert res.candidate.screenshot and res.reference.screenshot  # the evidence is kept
    bt = load_bench(bench, ["mini"])[0][0]
    assert "look" not in score_round(bt.task, rec.evaluation).task_scores


def test_pairwise_tasks_are_validated_and_need_no_new_proof(tmp_path: Path) -> None:
    bench = _bench(tmp_path / "ok")
    (bt,), problems = load_bench(bench, ["mini"])
    assert not problems
    plain = copy.deepcopy(TASK)
    plain["eval_tasks"][0]["core"] = True
    plain["eval_tasks"][0]["criteria"][0]["mandatory"] = True
    (bt0,), _ = load_bench(write_bench(tmp_path / "plain", plain), ["mini"])
    # a proof outlives a pairwise task (it has no checks); provenance sees it
    assert task_definition(bt, contracts=False) == task_definition(bt0, contracts=False)
    assert task_definition(bt) != task_definition(bt0)

    def problems_of(pairwise: list, reference: bool = True) -> list[str]:
        root = tmp_path / f"b{len(list(tmp_path.iterdir()))}"
        _bench(root, pairwise=pairwise)
        if not reference:
            data = yaml.safe_load((root / "tasks/mini/task.yaml").read_text())
            data["reference"] = None
            (root / "tasks/mini/task.yaml").write_text(yaml.safe_dump(data))
        return [str(p) for p in load_bench(root, ["mini"])[1]]

    look = {"id": "look", "summary": "s", "aspects": ["a"]}
    assert any("expect_visible" in p and "not an action" in p for p in problems_of(
        [{**look, "view": {"path": [{"expect_visible": {"role": "heading"}}]}}]))
    assert any("already the id" in p for p in problems_of([{**look, "id": "t1"}]))
    assert any("reference" in p for p in problems_of([look], reference=False))
    assert any("aspects" in p for p in problems_of([{"id": "look", "summary": "s"}]))
