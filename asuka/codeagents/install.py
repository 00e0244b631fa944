"""Installing the agent CLIs at the versions ``cli_agents.yaml`` pins (its ``package`` field).

Each tool goes into a folder of its own under the tools directory (``ASUKA_TOOLS_DIR``, default
``~/.cache/asuka/agent-tools``): an npm package with ``npm install --prefix``, a PyPI package
into a venv of its own. The folder is outside any checkout, so a sealed agent can be shown its
program without being shown the benchmark. An adapter whose binary is not on ``PATH`` finds it
there (``installed_binary``). What failed is written beside it (``install-error.txt``), so a
test that needs the tool is skipped with the reason rather than silently.

    python -m asuka.codeagents.install claude-code aider codex
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from asuka.codeagents.adapters import CLIAdapter, load_adapters

__all__ = ["install", "install_error", "installed_binary", "tools_dir"]

INSTALL_TIMEOUT_S = 900
ERROR_FILE = "install-error.txt"
VERSION_FILE = "installed-version.txt"


def tools_dir() -> Path:
    return Path(os.environ.get("ASUKA_TOOLS_DIR")
                or Path.home() / ".cache" / "asuka" / "agent-tools")


def _binary_name(adapter: CLIAdapter) -> str:
    return adapter.binary[0] if isinstance(adapter.binary, list) else adapter.binary


def installed_binary(tool: str, adapter: CLIAdapter) -> Path | None:
    """The tool's program as installed here at its pinned version, or None."""
    if not adapter.package:
        return None
    home = tools_dir() / tool
    stamp = home / VERSION_FILE
    if not stamp.is_file() or stamp.read_text().strip() != adapter.package:
        return None  # not installed, or another version: install again
    name = _binary_name(adapter)
    for candidate in (home / "node_modules" / ".bin" / name, home / "venv" / "bin" / name):
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def install_error(tool: str) -> str | None:
    f = tools_dir() / tool / ERROR_FILE
    return f.read_text().strip() if f.is_file() else None


def install(tool: str, adapter: CLIAdapter) -> Path:
    """Install ``tool`` at its pinned version (nothing to do when it is there); returns its
    program. Raises RuntimeError with the installer's last words when it cannot."""
    if not adapter.package:
        raise RuntimeError(f"{tool}: cli_agents.yaml pins no package for it")
    found = installed_binary(tool, adapter)
    if found is not None:
        return found
    home = tools_dir() / tool
    home.mkdir(parents=True, exist_ok=True)
    (home / ERROR_FILE).unlink(missing_ok=True)
    registry, _, spec = adapter.package.partition(":")
    if registry == "npm":
        steps = [["npm", "install", "--prefix", str(home), "--no-audit", "--no-fund",
                  "--loglevel", "error", spec]]
    elif registry == "pypi":
        venv = home / "venv"
        steps = [[sys.executable, "-m", "venv", "--clear", str(venv)],
                 [str(venv / "bin" / "pip"), "install", "-q", spec]]
    else:
        raise RuntimeError(f"{tool}: unknown registry in package {adapter.package!r} "
                           "(npm:NAME@VERSION or pypi:NAME==VERSION)")
    for argv in steps:
        try:
            done = subprocess.run(argv, capture_output=True, text=True,
                                  timeout=INSTALL_TIMEOUT_S, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            reason = f"{argv[0]} {argv[1]}: {exc}"
        else:
            if done.returncode == 0:
                continue
            reason = (done.stderr or done.stdout).strip()[-1500:] or f"exit {done.returncode}"
        (home / ERROR_FILE).write_text(reason + "\n")
        raise RuntimeError(f"{tool}: installing {spec} failed: {reason}")
    (home / VERSION_FILE).write_text(adapter.package + "\n")
    found = installed_binary(tool, adapter)
    if found is None:
        reason = f"{spec} installed, but it has no program {_binary_name(adapter)!r}"
        (home / ERROR_FILE).write_text(reason + "\n")
        raise RuntimeError(f"{tool}: {reason}")
    return found


def main(argv: list[str] | None = None) -> int:
    adapters = load_adapters()
    names = (argv if argv is not None else sys.argv[1:]) or [
        n for n, a in adapters.items() if a.package]
    failed = 0
    for name in names:
        if name not in adapters:
            print(f"{name}: unknown tool; known: {', '.join(sorted(adapters))}")
            failed += 1
            continue
        try:
            path = install(name, adapters[name])
        except RuntimeError as exc:
            print(f"{name}: not installed: {exc}")
            failed += 1
        else:
            print(f"{name}: {adapters[name].package} at {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
