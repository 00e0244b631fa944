"""A pytest plugin: the suite fails if it leaves a Chromium, Node or server process behind.

Untrusted code must never outlive its round, and neither may our browsers: every child process
of the test session must be gone when the session ends (after a short grace period)."""

from __future__ import annotations

import time

import psutil

WATCHED = ("chrom", "node", "npm", "vite", "http.server", "bwrap", "sleep")


def leftovers(grace_s: float = 5.0) -> list[str]:
    me = psutil.Process()
    deadline = time.monotonic() + grace_s
    while True:
        alive = []
        for p in me.children(recursive=True):
            try:
                name = " ".join(p.cmdline()[:3]) or p.name()
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"pid {p.pid}: {name[:120]}")
            except psutil.Error:
                continue
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.2)


def pytest_sessionfinish(session, exitstatus):
    alive = leftovers()
    watched = [a for a in alive if any(w in a for w in WATCHED)]
    if watched:
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        msg = "processes left behind by the test session:\n  " + "\n  ".join(watched)
        if tr:
            tr.write_line(msg, red=True)
        session.exitstatus = 1
