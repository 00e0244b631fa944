"""The agreement study (issue #19): the annotation console driven in real Chromium by two
annotators (keyboard and mouse), one of them cut off by killing the server and resuming after a
restart; the labels in SQLite; `asuka agree RUN --humans` against statistics computed here by
hand from the same labels and verdicts."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.cli import app

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "tests" / "fixtures" / "bench"
runner = CliRunner()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _console(run: Path, port: int) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "asuka.cli", "annotate", str(run), "--bench",
                             str(BENCH), "--port", str(port), "--sample", "2", "--seed", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        m = re.search(r"open (http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        if m:
            url = m.group(1)
            for _ in range(100):  # the server is up once it answers
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    return proc, url
                except OSError:
                    time.sleep(0.1)
        if proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"the console did not start: {proc.stdout.read()}")


def _stop(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    proc.wait(timeout=30)


def _position(page) -> tuple[int, int]:
    m = re.search(r"item (\d+) of (\d+)", page.inner_text("body"))
    return int(m.group(1)), int(m.group(2))


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_two_annotators_label_a_run_and_agree_reports_it(tmp_path) -> None:
    from playwright.sync_api import sync_playwright

    from asuka.uiagents.browsing.browser import LAUNCH_ARGS, find_chromium

    res = runner.invoke(app, ["run", "--bench", str(BENCH), "--task", "mini-todo", "-p", "weak",
                              "-p", "strong", "--rounds", "2", "--out", str(tmp_path / "runs"),
                              "--run-id", "r"])
    assert res.exit_code == 0, res.output
    run = tmp_path / "runs" / "r"
    port = _free_port()
    proc, url = _console(run, port)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=find_chromium(), args=list(LAUNCH_ARGS))
            page = browser.new_page()
            # without the token, or under another host name, nothing is served
            assert page.goto(url.split("?")[0]).status == 403
            page.goto(url)
            page.fill("input[name=annotator]", "amy")
            page.click("text=Start labelling")
            first, total = _position(page)
            assert first == 1 and total >= 4
            assert page.locator("#app").get_attribute("src").startswith("http://127.0.0.1:")
            assert page.locator("#verdict").count() == 0  # blind
            with page.expect_navigation():
                page.keyboard.press("p")
            assert _position(page)[0] == 2
            with page.expect_navigation():
                page.keyboard.press("f")
            assert _position(page)[0] == 3
            # the server dies mid-way: the two labels are already in SQLite
            _stop(proc, signal.SIGKILL)
            db = sqlite3.connect(run / "annotations.sqlite")
            assert db.execute("select item, label from labels where annotator='amy' "
                              "order by item").fetchall() == [(1, "pass"), (2, "fail")]
            db.close()
            proc, url = _console(run, port)
            page.goto(url)
            page.click("text=amy")  # resumes where she stopped
            assert _position(page)[0] == 3
            mouse = ["pass", "fail", "cant_tell"]
            while page.locator("#done").count() == 0:  # the rest with the mouse
                n = _position(page)[0]
                page.fill("textarea[name=note]", f"<b>note {n}</b>")
                with page.expect_navigation():
                    page.click(f"#{mouse[n % 3]}")
            assert f"All {total} labelled, amy" in page.inner_text("#done")
            # bob, in review mode on his first item: the verdict shows once he has labelled
            page.goto(url.replace("/?", "/label?annotator=bob&item=1&review=1&"))
            assert page.locator("#verdict").count() == 0
            with page.expect_navigation():
                page.keyboard.press("f")
            page.wait_for_selector("#verdict")
            assert page.inner_text("#mine") == "fail"
            with page.expect_navigation():
                page.keyboard.press("n")
            while page.locator("#done").count() == 0:
                n = _position(page)[0]
                with page.expect_navigation():
                    page.keyboard.press("p" if n % 2 else "f")
            # annotator input is escaped where it is shown
            page.goto(url.replace("/?", "/label?annotator=amy&item=3&"))
            assert page.locator("textarea[name=note] b").count() == 0
            browser.close()
    finally:
        _stop(proc)

    db = sqlite3.connect(run / "annotations.sqlite")
    labels = db.execute("select annotator, i.cell_id, i.round, i.criterion, label from labels "
                        "join items i using (item)").fetchall()
    assert db.execute("select value from meta where key='schema_version'").fetchone() == ("1",)
    db.close()
    assert {a for a, *_ in labels} == {"amy", "bob"}
    assert sum(a == "amy" for a, *_ in labels) == total == sum(a == "bob" for a, *_ in labels)

    # by hand: the judge's decided verdicts against each label (can't tell left out)
    from asuka.log.store import RunStore

    store = RunStore(run)
    judge = {}
    for _, cell, r, crit, _ in labels:
        rec = store.load_round(cell, r)
        v = next(v for t in rec.evaluation.results.values() for v in t.verdicts
                 if v.criterion_id == crit)
        judge[(cell, r, crit)] = "pass" if v.status == "pass" else "fail"
    pairs = [(judge[(c, r, k)], lab) for _, c, r, k, lab in labels if lab != "cant_tell"]
    agree_n = sum(j == h for j, h in pairs)
    tp = sum(j == h == "pass" for j, h in pairs)
    fp = sum(j == "pass" and h == "fail" for j, h in pairs)
    fn = sum(j == "fail" and h == "pass" for j, h in pairs)
    out = tmp_path / "agree.json"
    res = runner.invoke(app, ["agree", str(run), "--humans", "--bench", str(BENCH), "--out",
                              str(out)])
    assert res.exit_code == 0, res.output
    got = json.loads(out.read_text())
    assert got["compared"] == len(pairs)
    assert got["cant_tell"] == sum(lab == "cant_tell" for *_, lab in labels)
    assert got["overall"]["accuracy"] == pytest.approx(agree_n / len(pairs))
    if tp + fp:
        assert got["overall"]["precision"] == pytest.approx(tp / (tp + fp))
    if tp + fn:
        assert got["overall"]["recall"] == pytest.approx(tp / (tp + fn))
    assert got["confusion"]["judge pass / human fail"] == fp
    assert f"accuracy {agree_n / len(pairs):.3f}" in res.output
    assert "amy vs bob" in got["human_vs_human"]
    assert len(got["disagreements"]) == len(pairs) - agree_n
    # a section of the report, and the labels exported and imported again unchanged
    res = runner.invoke(app, ["report", str(run), "--bench", str(BENCH), "-f", "md",
                              "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    assert "### Judge vs human labels" in md
    assert f"| all | {len(pairs)} | {100 * agree_n / len(pairs):.1f}" in md
    for fmt in ("csv", "jsonl"):
        dump = tmp_path / f"labels.{fmt}"
        res = runner.invoke(app, ["annotate", str(run), "--sample", "2", "--seed", "3",
                                  "--export", str(dump)])
        assert res.exit_code == 0 and f"exported {2 * total} label(s)" in res.output, res.output
        copy = tmp_path / f"copy-{fmt}"
        import shutil
        shutil.copytree(run, copy, ignore=shutil.ignore_patterns("annotations.sqlite*"))
        res = runner.invoke(app, ["annotate", str(copy), "--sample", "2", "--seed", "3",
                                  "--import", str(dump)])
        assert res.exit_code == 0, res.output
        from asuka.annotate import LabelStore

        strip = [{k: v for k, v in x.items() if k != "at"} for x in LabelStore(run).labels()]
        assert [{k: v for k, v in x.items() if k != "at"}
                for x in LabelStore(copy).labels()] == strip
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"annotator": "x", "cell_id": "nope", "round": 1,
                               "criterion": "c", "label": "pass"}) + "\n")
    res = runner.invoke(app, ["annotate", str(run), "--sample", "2", "--seed", "3",
                              "--import", str(bad)])
    assert res.exit_code == 1 and "bad.jsonl:1: no sampled item" in res.output

