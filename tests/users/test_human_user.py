"""The human user (issue #18 item 4), driven through a pseudo-terminal as a person would drive
it: `asuka run --user human` prints the round's app URL (served while the prompt waits) and the
executed failures, reads the typed feedback (an empty first line skips a round), and logs every
event to JSONL."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(rb"the app is at (http://127\.0\.0\.1:\d+/)")


def _read_until(fd: int, pattern: re.Pattern[bytes], seen: bytearray, start: int = 0,
                timeout: float = 240):
    """The first match of ``pattern`` in the terminal output after ``start``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = pattern.search(seen, start)
        if m:
            return m
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen.extend(chunk)
    raise AssertionError(f"no {pattern.pattern!r} in the terminal output:\n"
                         + seen.decode(errors="replace")[-3000:])


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_a_person_types_the_feedback_through_a_terminal(tmp_path) -> None:
    log = tmp_path / "human-feedback.jsonl"  # the default: in the working directory
    argv = [sys.executable, "-m", "asuka.cli", "run", "--bench", str(ROOT / "tests/fixtures/bench"),
            "--task", "mini-todo", "-p", "weak", "--rounds", "2", "--user", "human",
            "--out", str(tmp_path / "runs"), "--run-id", "h"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: asuka on the pseudo-terminal
        os.chdir(tmp_path)
        os.execv(sys.executable, argv)
    seen = bytearray()
    try:
        prompt = re.compile(rb"this round's feedback\)\.\r?\n> ")
        first = _read_until(fd, URL, seen)
        asked = _read_until(fd, prompt, seen, first.end())
        # while the prompt waits, the round's app is really served there
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
                first.group(1).decode(), timeout=10) as page:
            assert page.status == 200 and b"<" in page.read()
        os.write(fd, b"The heading is wrong\nand Add does nothing\n\n")
        second = _read_until(fd, re.compile(rb"round 2: the app is at"), seen, asked.end())
        _read_until(fd, prompt, seen, second.end())
        os.write(fd, b"\n")  # nothing to say this round
        _, status = os.waitpid(pid, 0)
        pid = 0
    finally:
        if pid:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, seen.decode(errors="replace")[-3000:]
    text = seen.decode(errors="replace")
    assert "What the tester found:" in text and "task 1 / crit 1" in text

    from asuka.log.store import RunStore

    store = RunStore(tmp_path / "runs" / "h")
    (cell,) = store.cells()
    r1, r2 = store.load_rounds(cell)
    assert r1.feedback == "The heading is wrong\nand Add does nothing\n"
    assert r2.feedback == ""
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["event"], e["round"]) for e in events] == [
        ("shown", 1), ("typed", 1), ("shown", 2), ("skipped", 2)]
    assert events[0]["url"] == first.group(1).decode()
    assert events[1]["text"] == "The heading is wrong\nand Add does nothing"
    assert [e["event"] for e in r1.user["events"]] == ["shown", "typed"]
