"""Whether a deployed app answers HTTP: one probe (no proxy: the app is on loopback), and a
poll until a status is good, the serving process exits, or time runs out."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from asuka.deploy.sandbox import SandboxProcess

PROBE_INTERVAL = 0.2


_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def probe_http(url: str) -> int | None:
    """HTTP status of GET url (after redirects), or None when nothing answered HTTP."""
    try:
        with _NO_PROXY.open(url, timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except (OSError, ValueError, urllib.error.URLError):
        return None
    except Exception:  # noqa: BLE001 - http.client raises assorted errors on garbage
        return None


def wait_http(url: str, good: Callable[[int | None], bool], timeout: float,
              proc: SandboxProcess | None = None) -> int | None:
    """Poll until ``good(status)``, the process exits, or ``timeout``; return the last status."""
    deadline = time.monotonic() + timeout
    status = None
    while True:
        status = probe_http(url)
        if good(status):
            return status
        if proc is not None and proc.poll() is not None:
            return status
        if time.monotonic() >= deadline:
            return status
        time.sleep(PROBE_INTERVAL)
