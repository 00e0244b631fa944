"""`asuka preview`: a task's reference app, or a mutant of it, served on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.loading import load_bench
from asuka.cli import app
from asuka.proving import preview

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode()


@pytest.fixture(scope="module")
def mini_todo():
    (task,), problems = load_bench(MINI, ["mini-todo"])
    assert problems == []
    return task


def test_serve_applies_feature_states_and_stops(mini_todo):
    with preview.serve(mini_todo) as url:
        page = fetch(url)
        assert "<h1>Todos</h1>" in page and "@feature" not in page
        assert fetch(url + "data/seed.json").strip().startswith(("[", "{"))
    with pytest.raises(urllib.error.URLError):
        fetch(url)
    states = preview.feature_states(mini_todo, missing=["heading"], broken=["add"])
    assert states == {"heading": "missing", "add": "broken"}
    with preview.serve(mini_todo, states) as url:
        assert "<h1>Todos</h1>" not in fetch(url)


@pytest.mark.parametrize("args, message", [
    (["--missing", "nope"], "task 'mini-todo' has no feature 'nope' (features: add, complete"),
    (["--broken", "heading"], "feature 'heading' has no broken variant (features with one: add, "
                              "complete)"),
    (["--missing", "add", "--broken", "add"], "feature 'add' given as both missing and broken"),
])
def test_bad_feature_names_are_named(args, message):
    res = CliRunner().invoke(app, ["preview", "mini-todo", "--bench", str(MINI), *args])
    assert res.exit_code == 1
    assert message in " ".join((res.output + res.stderr).split())


def test_unknown_task_is_an_error():
    res = CliRunner().invoke(app, ["preview", "nope", "--bench", str(MINI)])
    assert res.exit_code == 1 and "unknown task id 'nope'" in res.output + res.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serves_until_interrupted(sig):
    # SIGINT ignored on entry, as in a job started in the background: Ctrl-C must still stop it
    proc = subprocess.Popen([sys.executable, "-m", "asuka.cli", "preview", "mini-todo", "--bench",
                             str(MINI), "--missing", "heading"], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        line = proc.stdout.readline()
        assert "mini-todo (heading missing) at http://127.0.0.1:" in line, line
        url = line.split(" at ", 1)[1].split(";", 1)[0]
        assert "<h1>Todos</h1>" not in fetch(url) and "<title>" in fetch(url)
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == 0
        with pytest.raises(urllib.error.URLError):
            fetch(url)
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.browser
def test_screenshot_is_a_png_of_the_page(tmp_path):
    out = tmp_path / "shots" / "todo.png"
    res = CliRunner().invoke(app, ["preview", "mini-todo", "--bench", str(MINI),
                                   "--screenshot", str(out)])
    assert res.exit_code == 0, res.output + res.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width == 1280 and height >= 200, (width, height)
