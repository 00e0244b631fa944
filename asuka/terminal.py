"""The terminal, shared: a live progress display (``asuka.loop.progress``) and a role that
talks to the person at the terminal (the human user) must take turns, or the display redraws
over the prompt. Live displays register here; ``prompt_lease`` pauses them while a prompt is
open, one prompt at a time."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_live: list[tuple[Callable[[], None], Callable[[], None]]] = []  # (stop, start)
_lease = threading.Lock()


def register_live(stop: Callable[[], None], start: Callable[[], None]) -> Callable[[], None]:
    """Register a live display; returns the function that unregisters it."""
    entry = (stop, start)
    _live.append(entry)
    return lambda: _live.remove(entry) if entry in _live else None


@contextmanager
def prompt_lease() -> Iterator[None]:
    """The terminal to oneself: live displays paused, other prompts waiting."""
    with _lease:
        paused = list(_live)
        for stop, _ in paused:
            stop()
        try:
            yield
        finally:
            for _, start in paused:
                start()
