"""npm packages the harness itself runs (not the agents'): playwright-core for the LLM probes'
browser scripts, installed once per version into a cache that sandboxed scripts get read-only
(``NODE_PATH``). Never a browser download: scripts drive the system Chromium."""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
from pathlib import Path

from asuka.errors import SetupError

PLAYWRIGHT_CORE = "1.65.1"  # pinned: the probes of one run all drive the same Playwright


def cache_root() -> Path:
    base = os.environ.get("ASUKA_CACHE_DIR") or Path.home() / ".cache" / "asuka"
    return Path(base) / "node-packages"


def ensure_package(name: str, version: str, timeout_s: float = 300) -> Path:
    """The ``node_modules`` directory holding ``name@version`` (installed on first use, under
    a lock so concurrent cells install it once). A SetupError when npm cannot install it."""
    return ensure_packages([f"{name}@{version}"], f"{name.replace('/', '+')}@{version}",
                           timeout_s)


def ensure_packages(specs: list[str], key: str | None = None, timeout_s: float = 600) -> Path:
    """The ``node_modules`` directory holding every ``name@range`` of ``specs`` together,
    installed on first use into a cache keyed by the list (``key``: a readable folder name)
    without running install scripts. A SetupError when npm cannot install them."""
    specs = sorted(set(specs))
    if key is None:
        key = "set-" + hashlib.sha256("\n".join(specs).encode()).hexdigest()[:16]
    root = cache_root() / key
    modules = root / "node_modules"
    marker = root / ".installed"
    if marker.is_file():
        return modules
    root.mkdir(parents=True, exist_ok=True)
    what = " ".join(specs)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.is_file():
            return modules
        env = {**os.environ, "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
        try:
            done = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts",
                 "--prefix", str(root), *specs], env=env, capture_output=True, text=True,
                timeout=timeout_s, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SetupError(f"could not install {what} from the npm registry: "
                             f"{exc}") from None
        if done.returncode != 0:
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-5:])
            raise SetupError(f"npm install {what} failed: {tail}")
        marker.write_text(what)
    return modules
