"""Runs last (by name): nothing the earlier tests started may still be running."""

from tests.leakcheck import WATCHED, leftovers


def test_no_browser_node_or_server_process_left():
    alive = [a for a in leftovers() if any(w in a for w in WATCHED)]
    assert not alive, "left behind:\n" + "\n".join(alive)
