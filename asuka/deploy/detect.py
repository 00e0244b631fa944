"""What kind of project a workspace holds, decided from its files alone (no registry, no npm)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from asuka.deploy.models import DeployKind

STATIC_DIRS = ("", "dist", "build", "public")
BUILD_OUTPUT_DIRS = ("dist", "build", "out")
START_SCRIPTS = ("start", "dev", "preview")
# after a build, `preview` serves the fresh output, so it beats a dev server
START_SCRIPTS_AFTER_BUILD = ("start", "preview", "dev")
LOCKFILES = ("package-lock.json", "npm-shrinkwrap.json")
DEFAULT_START = "node server.js"  # what `npm start` runs without a start script
# sources and templates, never the output of a build
_NOT_OUTPUT = {"node_modules", "src", "public", ".git", ".cache", ".vite"}

NO_PROJECT_ERROR = (
    "no index.html (root, dist/, build/, public/) and no package.json in WORKSPACE"
)


@dataclass
class Detection:
    kind: DeployKind
    static_root: Path | None = None          # set for kind == "static"
    scripts: dict[str, str] = field(default_factory=dict)
    package_error: str | None = None         # package.json present but unreadable
    default_start: bool = False              # no start script: npm's default, server.js


def read_scripts(workspace: Path) -> tuple[dict[str, str] | None, str | None]:
    """The npm scripts of package.json: (None, None) without one, (None, reason) if unreadable."""
    pkg = workspace / "package.json"
    if not pkg.is_file():
        return None, None
    try:
        data = json.loads(pkg.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"package.json is not valid JSON: {exc}"
    if not isinstance(data, dict):
        return None, "package.json is not a JSON object"
    scripts = data.get("scripts") or {}
    if not isinstance(scripts, dict):
        return {}, None
    return {k: v for k, v in scripts.items() if isinstance(v, str) and v.strip()}, None


def find_static_root(workspace: Path) -> Path | None:
    for sub in STATIC_DIRS:
        root = workspace / sub if sub else workspace
        if (root / "index.html").is_file():
            return root
    return None


# never where a build writes its output for the browser
_NEVER_OUTPUT = {"node_modules", ".git", ".cache", ".vite"}
IndexFiles = dict[str, int]  # index.html path relative to the workspace -> mtime (ns)


def index_files(workspace: Path) -> IndexFiles:
    """Every index.html of the workspace outside dependencies and caches, with its mtime: taken
    before a build so that ``find_build_output`` can tell which ones the build wrote."""
    out: IndexFiles = {}
    root = Path(workspace)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in _NEVER_OUTPUT]
        if "index.html" in filenames:
            path = Path(dirpath) / "index.html"
            try:
                out[path.relative_to(root).as_posix()] = path.stat().st_mtime_ns
            except OSError:
                continue
    return out


def find_build_output(workspace: Path, before: IndexFiles | None = None) -> Path | None:
    """Where a finished build put its index.html. With ``before`` (``index_files`` taken before
    the build): the folder of an index.html the build created or rewrote, wherever the bundler
    was configured to write it (Vite with ``root: 'src'`` writes ``src/dist/``), preferring a
    folder named dist/, build/ or out/, then the shallowest. Otherwise, or when the build wrote
    none: dist/, build/, out/, else the freshest top-level folder holding one (sources such as
    src/ and public/ do not count)."""
    workspace = Path(workspace)
    if before is not None:
        written = [rel for rel, mtime in index_files(workspace).items()
                   if before.get(rel) != mtime]
        if written:
            def rank(rel: str) -> tuple[int, int, str]:
                parts = rel.split("/")[:-1]
                kind = 0 if parts and parts[-1] in BUILD_OUTPUT_DIRS else 1 if parts else 2
                return (kind, len(parts), rel)  # the root's own index.html: the last resort

            return workspace / (min(written, key=rank).rpartition("/")[0] or ".")
    for sub in BUILD_OUTPUT_DIRS:
        if (workspace / sub / "index.html").is_file():
            return workspace / sub
    candidates = [
        d for d in workspace.iterdir()
        if d.is_dir() and d.name not in _NOT_OUTPUT and (d / "index.html").is_file()
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda d: (d / "index.html").stat().st_mtime)


def pick_start_script(scripts: dict[str, str], after_build: bool = False) -> str | None:
    for name in START_SCRIPTS_AFTER_BUILD if after_build else START_SCRIPTS:
        if name in scripts:
            return name
    return None


def inspect_workspace(workspace: Path) -> Detection:
    """npm build beats npm start beats static: with a package.json, a root index.html is usually
    the bundler's source entry (it imports /src/main.jsx) and would not run if served raw."""
    workspace = Path(workspace)
    scripts, package_error = read_scripts(workspace)
    if scripts:
        if "build" in scripts:
            return Detection("npm-build", scripts=scripts)
        if pick_start_script(scripts):
            return Detection("npm-start", scripts=scripts)
    static_root = find_static_root(workspace)
    if static_root is not None:
        return Detection("static", static_root=static_root, scripts=scripts or {})
    if scripts is not None and (workspace / "server.js").is_file():
        # no start script: `npm start` runs server.js by default (npm's documented rule)
        return Detection("npm-start", scripts={**scripts, "start": DEFAULT_START},
                         default_start=True)
    return Detection("none", scripts=scripts or {}, package_error=package_error)


def detect_kind(workspace: Path) -> DeployKind:
    return inspect_workspace(workspace).kind


def has_lockfile(workspace: Path) -> bool:
    return any((workspace / name).is_file() for name in LOCKFILES)


def has_dependencies(workspace: Path) -> bool:
    """Whether package.json declares anything to install (unreadable counts as yes: let npm say
    what is wrong with it)."""
    try:
        data = json.loads((workspace / "package.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return True
    if not isinstance(data, dict):
        return True
    return any(data.get(key) for key in
               ("dependencies", "devDependencies", "optionalDependencies", "bundleDependencies"))
