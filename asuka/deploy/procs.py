"""Child processes of a deploy: output capture, bounded logs, and teardown of whole trees.

Every child starts in its own session, so its process group holds everything it forks unless a
grandchild calls setsid itself; teardown therefore also signals the descendants it finds in /proc.
"""

from __future__ import annotations

import codecs
import os
import re
import signal
import subprocess
import threading
import time
from collections import deque
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


class LogBuffer:
    """Keeps the head and the tail of a stream: a failing build's cause sits near the end, and
    the first lines say what ran; the middle of a 50k-line npm log helps nobody."""

    def __init__(self, head_chars: int = 8_000, tail_chars: int = 48_000) -> None:
        self.head_chars, self.tail_chars = head_chars, tail_chars
        self._head: list[str] = []
        self._head_len = 0
        self._tail: deque[str] = deque()
        self._tail_len = 0
        self._dropped = 0
        self._lock = threading.Lock()

    def write(self, text: str) -> None:
        if not text:
            return
        with self._lock:
            room = self.head_chars - self._head_len
            if room > 0:
                self._head.append(text[:room])
                self._head_len += min(room, len(text))
                text = text[room:]
            if not text:
                return
            self._tail.append(text)
            self._tail_len += len(text)
            while self._tail_len > self.tail_chars:
                extra = self._tail_len - self.tail_chars
                first = self._tail[0]
                if len(first) <= extra:
                    self._tail.popleft()
                    self._tail_len -= len(first)
                    self._dropped += len(first)
                else:
                    self._tail[0] = first[extra:]
                    self._tail_len -= extra
                    self._dropped += extra

    def text(self) -> str:
        with self._lock:
            head, tail, dropped = "".join(self._head), "".join(self._tail), self._dropped
        middle = f"\n[... {dropped} characters omitted ...]\n" if dropped else ""
        return _ANSI.sub("", head + middle + tail)


def tail_lines(text: str, lines: int = 25, max_chars: int = 3_000) -> str:
    tail = "\n".join(text.rstrip().splitlines()[-lines:])
    return tail[-max_chars:]


def pump(stream, sink: LogBuffer) -> threading.Thread:
    """Drain a child's pipe in the background so a chatty child never blocks on a full pipe."""

    def run() -> None:
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        fd = stream.fileno()
        try:
            while chunk := os.read(fd, 65536):
                sink.write(decoder.decode(chunk))
        except OSError:
            pass
        finally:
            sink.write(decoder.decode(b"", final=True))
            stream.close()

    thread = threading.Thread(target=run, name="deploy-log-pump", daemon=True)
    thread.start()
    return thread


def _proc_table() -> list[tuple[int, str, int, int]]:
    """(pid, state, ppid, pgid) of every process visible in /proc; empty where there is none."""
    rows = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return rows
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        # the command name may hold spaces and parentheses; fields resume after the last ')'
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 3:
            rows.append((int(entry), fields[0], int(fields[1]), int(fields[2])))
    return rows


def descendants(pid: int) -> list[int]:
    """All live descendants of ``pid``."""
    children: dict[int, list[int]] = {}
    for child, state, ppid, _ in _proc_table():
        if state not in ("Z", "X"):
            children.setdefault(ppid, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes of a process group."""
    return [pid for pid, state, _, group in _proc_table()
            if group == pgid and state not in ("Z", "X")]


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        stat = Path("/proc", str(pid), "stat").read_text()
    except OSError:
        return True
    return stat[stat.rfind(")") + 2:][:1] not in ("Z", "X")


def _signal_all(pgid: int, pids: list[int], sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def kill_tree(proc: subprocess.Popen, grace: float = 3.0) -> None:
    """SIGTERM the child's process group and every descendant, SIGKILL what is left after
    ``grace`` seconds, and reap the child. Safe to call twice."""
    pgid = proc.pid
    known = descendants(proc.pid)

    def anything_left() -> bool:
        proc.poll()
        return (proc.returncode is None or bool(group_members(pgid))
                or any(alive(p) for p in known))

    if anything_left():
        _signal_all(pgid, known, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while anything_left():
            if time.monotonic() > deadline:
                known = list(set(known) | set(descendants(proc.pid)))
                _signal_all(pgid, known, signal.SIGKILL)
                break
            time.sleep(0.05)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        _signal_all(pgid, [proc.pid], signal.SIGKILL)
        proc.wait()


def start_process(argv: list[str], cwd: Path, env: dict[str, str],
                  log: LogBuffer) -> tuple[subprocess.Popen, threading.Thread]:
    proc = subprocess.Popen(
        argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True, close_fds=True,
    )
    return proc, pump(proc.stdout, log)


def listening_ports(pids: list[int]) -> set[int]:
    """TCP ports the given processes listen on. Each process's sockets are matched by inode
    against the socket table of its own network namespace (/proc/PID/net/tcp{,6}), so this
    sees a server inside a sandbox without a network as well as one on the host, and only the
    sockets these processes own."""
    ports: set[int] = set()
    for pid in pids:
        inodes = set()
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
        except OSError:
            continue
        if not inodes:
            continue
        for table in ("tcp", "tcp6"):
            try:
                rows = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
            except OSError:
                continue
            for row in rows:
                fields = row.split()
                # local_address is HEXIP:HEXPORT; state 0A is LISTEN; field 9 is the inode
                if len(fields) > 9 and fields[3] == "0A" and fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports
