"""Errors that say whose failure something is (the failure taxonomy: docs/scoring.md, "Whose
failure is what").

A ``SetupError`` is a configuration problem: a missing API key or agent binary, a rejected key
(401/403), an unknown model (404), no sandbox for an external agent. It is nobody's result: the
cell is recorded as failed with the reason and never scored, and resuming the run tries it again.
Backends raise it from ``preflight()`` (before round 1, without network calls) or when a call
reveals it.
"""

from __future__ import annotations


class SetupError(Exception):
    """The cell cannot run as configured; the message says what to fix."""


def preflight(*backends: object) -> None:
    """Call each backend's optional ``preflight()`` (cheap, no network): raise SetupError early."""
    for backend in backends:
        check = getattr(backend, "preflight", None)
        if callable(check):
            check()
