"""A task's own project around the workspace: the app is the project's ``src/`` and the project's
command serves it (``ServeSpec``; a Web-Bench project's Playwright ``webServer``).

The project's dependencies are installed once per dependency set, from the npm registry, inside
the deploy sandbox, into a cache shared by rounds and cells (``installed_modules``); each
deployment gets a hard-linked copy of that ``node_modules`` in a scratch copy of the project, so
what a server writes there (Vite's pre-bundled deps) stays its own. The scratch copy mirrors the
repository's layout (``project/`` beside ``libraries/``) so that the ``file:../libraries/<name>``
ranges the import wrote resolve as they did in the repository.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from asuka.deploy.node_packages import cache_root
from asuka.errors import SetupError
from asuka.schema import ServeSpec

# what a copy of the project leaves out: the app versions (the workspace takes src/'s place)
# and whatever an earlier install left behind
LEFT_OUT = frozenset({"node_modules", "src-init", ".git"})
INSTALLED = ".installed"
# ``npx <tool>`` in the command: a tool the project runs without declaring it (``npx serve``)
_NPX = re.compile(r"(?:^|[;&|]\s*|\s)npx\s+(?:--yes\s+|-y\s+)?([@\w][\w./@-]*)")


class ProjectSetupError(SetupError):
    """The project's own dependencies could not be installed: never the app's failure."""

    def __init__(self, message: str, log: str = "") -> None:
        super().__init__(message)
        self.log = log or message


def npx_tools(command: str) -> list[str]:
    """Packages the command runs through ``npx`` (its first word after npx)."""
    return sorted({m.group(1) for m in _NPX.finditer(command)})


def dependency_key(project: Path, libraries: Path | None, command: str) -> str:
    """What decides the installed tree: the project's package.json (and lockfile), its
    libraries' package.json files, and the tools its command runs through npx."""
    h = hashlib.sha256()
    for name in ("package.json", "package-lock.json", "npm-shrinkwrap.json"):
        if (project / name).is_file():
            h.update(name.encode() + b"\0" + (project / name).read_bytes())
    if libraries is not None and libraries.is_dir():
        for pkg in sorted(libraries.glob("*/package.json")):
            h.update(pkg.parent.name.encode() + b"\0" + pkg.read_bytes())
    h.update("\0".join(npx_tools(command)).encode())
    return h.hexdigest()[:16]


def copy_project(project: Path, libraries: Path | None, into: Path, source: str) -> Path:
    """``into/project`` (all of the project but its app versions and ``source``) beside
    ``into/libraries``; returns the project's copy."""
    dest = into / "project"
    top = str(project)
    shutil.copytree(project, dest, symlinks=True, ignore=lambda d, names: [
        n for n in names if n in LEFT_OUT or (d == top and n == source)])
    if libraries is not None and libraries.is_dir():
        shutil.copytree(libraries, into / "libraries", symlinks=True,
                        ignore=lambda _d, names: [n for n in names if n in LEFT_OUT])
    return dest


def app_of(workspace: Path, source: str) -> Path:
    """The app in a workspace: its ``source`` folder when the workspace is the whole project
    (a ``package.json`` beside it), else the workspace itself (an app built elsewhere)."""
    inner = workspace / source
    if inner.is_dir() and (workspace / "package.json").is_file():
        return inner
    return workspace


Runner = Callable[[list[str], Path, list[Path]], None]


def installed_modules(spec: ServeSpec, task_root: Path, run: Runner) -> Path:
    """The cached ``node_modules`` of the project (installed on first use, under a lock, so that
    concurrent cells install it once). ``run(argv, cwd, writable)`` runs a step in the deploy
    sandbox with the network and raises ``ProjectSetupError`` when it fails."""
    project = task_root / spec.project
    libraries = task_root / spec.libraries if spec.libraries else None
    key = dependency_key(project, libraries, spec.command)
    root = cache_root().parent / "projects" / f"{task_root.name}-{key}"
    modules = root / "project" / "node_modules"
    if (root / INSTALLED).is_file():
        return modules
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (root / INSTALLED).is_file():
            return modules
        for stale in ("project", "libraries", ".npm"):
            shutil.rmtree(root / stale, ignore_errors=True)
        (root / "project").mkdir()
        for name in ("package.json", "package-lock.json", "npm-shrinkwrap.json", ".npmrc"):
            if (project / name).is_file():
                shutil.copy2(project / name, root / "project" / name)
        if libraries is not None and libraries.is_dir():
            shutil.copytree(libraries, root / "libraries", symlinks=True,
                            ignore=lambda _d, names: [n for n in names if n in LEFT_OUT])
        base = ["npm", "install", "--no-audit", "--no-fund", "--cache", str(root / ".npm")]
        if (root / "project" / "package.json").is_file():
            try:
                run(base, root / "project", [root])
            except ProjectSetupError as exc:
                if "ERESOLVE" not in exc.log:
                    raise
                # a peer-dependency conflict npm refuses and the repository's own package
                # manager (pnpm) accepts
                base.append("--legacy-peer-deps")
                run(base, root / "project", [root])
        missing = [t for t in npx_tools(spec.command)
                   if not (modules / ".bin" / t.rsplit("/", 1)[-1]).exists()]
        if missing:  # a tool the command fetches with npx: installed beside, not saved
            run([*base, "--no-save", *missing], root / "project", [root])
        shutil.rmtree(root / ".npm", ignore_errors=True)
        (root / INSTALLED).write_text(json.dumps({"command": spec.command, "npx": missing}))
    return modules


def node_headers() -> str | None:
    """The running node's own headers (``<prefix>/include/node``), so that a native package
    built from source (node-gyp, when its prebuilt binary cannot be downloaded) needs no
    download of them either; None when this node has none."""
    node = shutil.which("node")
    if node is None:
        return None
    prefix = Path(node).resolve().parent.parent
    return str(prefix) if (prefix / "include" / "node" / "common.gypi").is_file() else None


def link_modules(modules: Path, into: Path) -> None:
    """``into/node_modules`` as hard links of the cached tree (a copy where links cannot be
    made): cheap, and what the server writes there stays in this deployment."""
    if not modules.is_dir():
        return
    dest = into / "node_modules"
    done = subprocess.run(["cp", "-al", str(modules), str(dest)], capture_output=True)
    if done.returncode != 0:
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(modules, dest, symlinks=True)


def fill_port(text: str, port: int) -> str:
    return text.replace("{port}", str(port))
