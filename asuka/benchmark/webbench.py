"""Web-Bench as a benchmark source (``asuka import web-bench PATH``): each project of a local
checkout (``projects/<name>/`` with ``tasks.jsonl`` or ``tasks.yml``, ``src-init/``, ``src/``,
``test/*.spec.js``) becomes one Asuka task whose evaluation tasks are the project's tasks in
order (``init`` first when it has one), chained in its DAG, each decided by its own spec file's
tests through Playwright Test (``EvalTask.spec``, ``Criterion.test``: one criterion per test).

The DAG's chain gates as Web-Bench's cumulative rule does: task k is judged only once tasks
1..k-1 pass, each on its own tests. The project's ``src-init/`` is the workspace before round 1
(``initial``), its ``src/`` the reference app.

The project is carried whole, as Web-Bench runs it (``tasks/wb-<name>/webbench/project/``: its
``test/`` with the specs' helpers, its configs, scripts, types, mocks and assets; only
``src/``, ``src-init/`` and installed modules stay behind), with the repository's workspace
libraries it uses (``webbench/libraries/<folder>/``: ``@web-bench/test-util``, its shop
sibling), whose ``workspace:*`` dependencies in the project's package.json are rewritten to
those local paths. ``asuka.uiagents.playwright_test`` assembles the two around the app being
judged, so ``require('@web-bench/test-util')``, ``../../../libraries/...`` and ``../src`` resolve
as they do in the repository. A project that cannot be imported is listed with its reason,
never dropped silently.

How the project serves the app is read from its own Playwright config (``webServer``: the
command, its environment, where it answers, its timeout), evaluated by node with Playwright Test
stubbed and ``EVAL_PROJECT_PORT`` set to a placeholder (``read_playwright_config``), and written
into the task as ``serve`` (``ServeSpec``): the deployer runs that command in a copy of the
project with the app as its ``src/``. Nothing else of the project runs while importing.

The versions are the repository's: where the checkout has a pnpm lockfile (Rush keeps it in
``common/config/rush/pnpm-lock.yaml``), every dependency of the carried project and libraries is
pinned to the version it resolved there (``pin_locked``), so the deploy installs the ``vite``,
the framework and the plugins Web-Bench ran, not whatever is newest in the registry. (The specs
still run under Asuka's own Playwright, which drives the system Chromium; see
``asuka.uiagents.playwright_test``.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

import yaml

from asuka.schema import ID_PATTERN, ServeSpec

# a string literal (kept) or a comment (dropped): a commented-out test is not a test
_STRING_OR_COMMENT = re.compile(
    r"""("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|(//[^\n]*|/\*.*?\*/)""", re.S)
TEST_CALL = re.compile(r"(?<![.\w])test\(\s*(['\"`])((?:\\.|(?!\1).)*?)\1", re.S)
PREFIX = "wb-"
MAX_SUMMARY = 300
TASK_FILES = ("tasks.jsonl", "tasks.yml", "tasks.yaml")
# what stays behind when a project is carried: the two app versions and anything installed
LEFT_BEHIND = frozenset({"src", "src-init", "node_modules", "test-results", "playwright-report",
                         ".git", "dist", ".next", ".nuxt", ".svelte-kit", ".angular"})
PROJECT_DIR = "webbench/project"
LIBRARIES_DIR = "webbench/libraries"
WORKSPACE_RANGE = "workspace:"
CONFIG_NAMES = ("playwright.config.js", "playwright.config.cjs", "playwright.config.mjs",
                "playwright.config.ts")
# what an agent is not given beside the app: the tests and how they are run (the benchmark's
# answers and the harness's settings)
HIDDEN_FROM_AGENT = frozenset({"test", "tests", "tasks.jsonl", "tasks.yml", "tasks.yaml",
                               *CONFIG_NAMES})
# the port the config is read with, then written back as ``{port}``: unlikely in a command
PORT_PLACEHOLDER = "39117"
# a pnpm lockfile and the folder its importers' paths are relative to (Rush runs pnpm in
# common/temp and keeps the lockfile in common/config/rush)
LOCKFILES = (("common/config/rush/pnpm-lock.yaml", "common/temp"), ("pnpm-lock.yaml", "."))
_EXACT = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$")
# Loads the config (CommonJS or ES module) with @playwright/test stubbed; prints what a run
# needs. Run in a scratch folder holding a copy of the config and the project's package.json.
_READ_CONFIG_JS = r"""
const { pathToFileURL } = require('url');
import(pathToFileURL(process.argv[2]).href).then((m) => {
  let c = m.default;
  if (c && c.default) c = c.default;
  const servers = Array.isArray(c.webServer) ? c.webServer : (c.webServer ? [c.webServer] : []);
  process.stdout.write(JSON.stringify({
    timeout: c.timeout, retries: c.retries, expect: c.expect || {}, baseURL: (c.use || {}).baseURL,
    use: c.use || {}, projects: (c.projects || []).map((p) => ({ name: p.name, use: p.use || {} })),
    testDir: c.testDir, webServer: servers.map((w) => ({ command: w.command, env: w.env || {},
      url: w.url, port: w.port, timeout: w.timeout, cwd: w.cwd })) }));
}).catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
"""
_PLAYWRIGHT_STUB = {
    "package.json": json.dumps({"name": "@playwright/test", "version": "0.0.0-asuka-stub",
                                "exports": {"import": "./index.mjs", "require": "./index.js"}}),
    # a device descriptor is read as its name (``{__device: "Desktop Chrome"}``), for the spec
    # run to take Playwright's own descriptor
    "index.js": "const devices = new Proxy({}, { get: (_, k) => ({ __device: String(k) }) });\n"
                "module.exports = { defineConfig: (c) => c, devices };\n",
    "index.mjs": "export const devices = new Proxy({}, { get: (_, k) => ({ __device: String(k) }) });\n"
                 "export const defineConfig = (c) => c;\nexport default { defineConfig, devices };\n",
}


@dataclass
class Imported:
    task_id: str
    project: str
    eval_tasks: int
    criteria: int
    skipped: list[str] = field(default_factory=list)  # Web-Bench tasks without tests
    libraries: list[str] = field(default_factory=list)  # workspace libraries carried
    pinned: int = 0  # dependencies pinned to the version of the checkout's lockfile


@dataclass
class LeftOut:
    project: str
    reason: str


@dataclass
class WebBenchImport:
    imported: list[Imported] = field(default_factory=list)
    left_out: list[LeftOut] = field(default_factory=list)


class _EvalTaskEntry(TypedDict):
    """One evaluation task as ``import_project`` writes it into task.yaml."""

    id: str
    summary: str
    type: str
    weight: int
    spec: str
    criteria: list[dict[str, str]]


class WebBenchError(ValueError):
    """A project that cannot be imported: which file, and why."""


def without_comments(code: str) -> str:
    """JavaScript source with its comments dropped (string literals kept whole)."""
    return _STRING_OR_COMMENT.sub(lambda m: m.group(1) or "", code)


def titles_of(spec: Path) -> list[str]:
    """The titles of a spec file's ``test(...)`` calls (not ``test.beforeEach`` and kin, not
    those commented out), in order, each once."""
    seen: list[str] = []
    code = without_comments(spec.read_text(encoding="utf-8"))
    for m in TEST_CALL.finditer(code):
        title = m.group(2).replace(f"\\{m.group(1)}", m.group(1))
        if title not in seen:
            seen.append(title)
    return seen


def task_file(project: Path) -> Path | None:
    return next((project / n for n in TASK_FILES if (project / n).is_file()), None)


def projects_of(source: Path) -> list[Path]:
    """The project folders of a checkout (or ``source`` itself when it is one project): every
    folder under ``projects/``, whether or not it can be imported (the import says why not)."""
    source = Path(source)
    if task_file(source) is not None:
        return [source]
    root = source / "projects" if (source / "projects").is_dir() else source
    return sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def checkout_root(project: Path) -> Path | None:
    """The checkout a project belongs to (the folder holding ``projects/`` and
    ``libraries/``), when there is one."""
    parent = project.resolve().parent
    if parent.name == "projects" and (parent.parent / "libraries").is_dir():
        return parent.parent
    return None


def read_tasks(project: Path) -> list[dict[str, Any]]:
    """The project's tasks, from ``tasks.jsonl`` (one JSON object a line) or ``tasks.yml`` (a
    YAML list), each with an id and a description."""
    path = task_file(project)
    if path is None:
        raise WebBenchError(f"{project}: no {' or '.join(TASK_FILES)}")
    text = path.read_text(encoding="utf-8")
    rows: list[tuple[str, object]] = []
    if path.suffix == ".jsonl":
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rows.append((f"{path}:{n}", json.loads(line)))
            except ValueError as exc:
                raise WebBenchError(f"{path}:{n}: not JSON ({exc})") from None
    else:
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise WebBenchError(f"{path}: not YAML ({exc})") from None
        if not isinstance(data, list):
            raise WebBenchError(f"{path}: expected a list of tasks, got "
                                f"{type(data).__name__}")
        rows = [(f"{path}: task {n}", row) for n, row in enumerate(data, 1)]
    out: list[dict[str, Any]] = []
    for where, row in rows:
        if not isinstance(row, dict) or not row.get("id") or not row.get("description"):
            raise WebBenchError(f"{where}: a task needs an id and a description")
        if not re.match(ID_PATTERN, str(row["id"])):
            raise WebBenchError(f"{where}: task id {row['id']!r} is not a valid id")
        out.append(row)
    if not out:
        raise WebBenchError(f"{path}: no tasks")
    return out


def package_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WebBenchError(f"{path}: not readable JSON ({exc})") from None
    return data if isinstance(data, dict) else {}


def dependencies(package: dict[str, Any]) -> dict[str, str]:
    """name -> range of a package.json's dependencies and devDependencies."""
    deps: dict[str, str] = {}
    for key in ("dependencies", "devDependencies"):
        if isinstance(package.get(key), dict):
            deps.update({str(k): str(v) for k, v in package[key].items()})
    return deps


def library_folders(root: Path) -> dict[str, Path]:
    """package name -> folder of every library (a folder with a package.json) under ``root``."""
    if not root.is_dir():
        return {}
    return {str(package_json(lib / "package.json").get("name", lib.name)): lib
            for lib in sorted(root.iterdir()) if (lib / "package.json").is_file()}


def workspace_libraries(project: Path) -> dict[str, Path]:
    """package name -> library folder for every workspace package the project uses (and those
    they use in turn), from the checkout's ``libraries/``."""
    wanted = [n for n, v in dependencies(package_json(project / "package.json")).items()
              if v.startswith(WORKSPACE_RANGE)] if (project / "package.json").is_file() else []
    if not wanted:
        return {}
    root = checkout_root(project)
    if root is None:
        raise WebBenchError(f"{project}/package.json: uses the workspace packages "
                            f"{', '.join(wanted)} but no libraries/ folder sits beside "
                            f"projects/ (import from the repository's checkout)")
    available = library_folders(root / "libraries")
    found: dict[str, Path] = {}
    while wanted:
        name = wanted.pop()
        if name in found:
            continue
        if name not in available:
            raise WebBenchError(f"{project}/package.json: workspace package {name} is not in "
                                f"{root / 'libraries'}")
        found[name] = available[name]
        wanted += [n for n, v in dependencies(package_json(available[name] / "package.json")).items()
                   if v.startswith(WORKSPACE_RANGE)]
    return found


def _ignore(_dir: str, names: list[str]) -> set[str]:
    return {n for n in names if n in LEFT_BEHIND}


def _ignore_modules(_dir: str, names: list[str]) -> set[str]:
    return {n for n in names if n == "node_modules"}


def _local_ranges(package: dict[str, Any], libraries: dict[str, Path], prefix: str
                  ) -> dict[str, Any]:
    """``workspace:*`` ranges rewritten to the carried libraries' local paths."""
    for key in ("dependencies", "devDependencies"):
        deps = package.get(key)
        if isinstance(deps, dict):
            for name, version in list(deps.items()):
                if str(version).startswith(WORKSPACE_RANGE) and name in libraries:
                    deps[name] = f"file:{prefix}{libraries[name].name}"
    return package


def lockfile_of(project: Path) -> tuple[Path, Path] | None:
    """The checkout's pnpm lockfile and the folder its importers are relative to, when the
    project belongs to a checkout that has one."""
    root = checkout_root(project)
    if root is None:
        return None
    return next(((root / name, root / base) for name, base in LOCKFILES
                 if (root / name).is_file()), None)


def _read_lockfile(path: Path, mtime: float) -> dict[str, Any]:
    with path.open(encoding="utf-8") as f:
        data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return data if isinstance(data, dict) else {}


_LOCKFILES: dict[tuple[Path, float], dict[str, Any]] = {}


def locked_versions(folder: Path, lock: tuple[Path, Path] | None) -> dict[str, str]:
    """name -> the exact version the lockfile resolved for ``folder`` (a project or a library
    of the checkout): its importer's dependencies, the peer suffix pnpm appends
    (``7.1.5(@types/node@22.15.32)``) dropped, links and local paths left out."""
    if lock is None:
        return {}
    lockfile, base = lock
    key = (lockfile, lockfile.stat().st_mtime)
    if key not in _LOCKFILES:
        try:
            _LOCKFILES[key] = _read_lockfile(*key)
        except (OSError, yaml.YAMLError) as exc:
            raise WebBenchError(f"{lockfile}: not a readable lockfile ({exc})") from None
    importers = _LOCKFILES[key].get("importers")
    rel = Path(os.path.relpath(folder.resolve(), base.resolve())).as_posix()
    entry = importers.get(rel) if isinstance(importers, dict) else None
    versions: dict[str, str] = {}
    for kind in ("dependencies", "devDependencies", "optionalDependencies"):
        deps = entry.get(kind) if isinstance(entry, dict) else None
        for name, info in (deps or {}).items():
            version = str(info.get("version", "") if isinstance(info, dict) else info)
            version = version.split("(", 1)[0]
            if _EXACT.match(version):
                versions[str(name)] = version
    return versions


def pin_locked(package: dict[str, Any], versions: dict[str, str]) -> dict[str, Any]:
    """Every dependency the lockfile resolved set to that exact version (local paths kept)."""
    for key in ("dependencies", "devDependencies", "optionalDependencies"):
        deps = package.get(key)
        if isinstance(deps, dict):
            for name, version in list(deps.items()):
                if name in versions and not str(version).startswith(("file:", WORKSPACE_RANGE)):
                    deps[name] = versions[name]
    return package


def carry(project: Path, folder: Path, libraries: dict[str, Path]) -> int:
    """Copy the project (all but the app versions) and its libraries into the task folder,
    their dependencies pinned to the checkout's lockfile; how many were pinned."""
    target = folder / PROJECT_DIR
    shutil.copytree(project, target, ignore=_ignore, symlinks=True)
    lock = lockfile_of(project)
    pinned = 0
    packages = [(project, target / "package.json", "../libraries/")] + [
        (lib, folder / LIBRARIES_DIR / lib.name / "package.json", "../")
        for lib in libraries.values()]
    for lib in libraries.values():
        shutil.copytree(lib, folder / LIBRARIES_DIR / lib.name, ignore=_ignore_modules,
                        symlinks=True)
    for source, dest, prefix in packages:
        if not dest.is_file():
            continue
        versions = locked_versions(source, lock)
        pkg = pin_locked(_local_ranges(package_json(dest), libraries, prefix), versions)
        pinned += sum(1 for k in ("dependencies", "devDependencies", "optionalDependencies")
                      for n, v in (pkg.get(k) or {}).items() if versions.get(n) == v)
        dest.write_text(json.dumps(pkg, indent=2) + "\n", encoding="utf-8")
    return pinned


def as_given(project: Path, app: Path, dest: Path) -> None:
    """The project as Web-Bench gives it to an agent: its root files, configs and scripts
    (``package.json``, ``vite.config.ts``, ``scripts/``; not its tests, task list or Playwright
    config), with ``app`` (``src-init/`` or ``src/``) as its ``src/``."""
    top = str(project)
    shutil.copytree(project, dest, symlinks=True, ignore=lambda d, names: [
        n for n in names if n in LEFT_BEHIND or n == "node_modules"
        or (d == top and n in HIDDEN_FROM_AGENT)])
    shutil.copytree(app, dest / "src", ignore=_ignore_modules, symlinks=True)


def config_file(project: Path) -> Path | None:
    """The project's Playwright config file, if it has one."""
    return next((project / n for n in CONFIG_NAMES if (project / n).is_file()), None)


def read_playwright_config(project: Path, timeout_s: float = 30,
                           ci: bool = False) -> dict[str, Any]:
    """The project's Playwright config, evaluated by node as Web-Bench's evaluator sees it
    (``IS_EVAL_PRODUCTION``, ``EVAL_PROJECT_ROOT=src``, the port ``PORT_PLACEHOLDER``); paths
    into the project come back relative to it (``./assets``). ``ci``: as Web-Bench's own CI
    sees it when it tests the references (``CI=true``: the configs' ``retries: 2``)."""
    config = config_file(project)
    if config is None:
        raise WebBenchError(f"{project}: no Playwright config ({', '.join(CONFIG_NAMES)})")
    if config.suffix == ".ts":
        raise WebBenchError(f"{config}: a TypeScript Playwright config cannot be read")
    with tempfile.TemporaryDirectory(prefix="asuka-wbconfig-") as tmp:
        work = Path(tmp).resolve()
        shutil.copy2(config, work / config.name)
        if (project / "package.json").is_file():  # its "type" decides CommonJS or ES module
            shutil.copy2(project / "package.json", work / "package.json")
        stub = work / "node_modules" / "@playwright" / "test"
        stub.mkdir(parents=True)
        for name, text in _PLAYWRIGHT_STUB.items():
            (stub / name).write_text(text, encoding="utf-8")
        (work / "read-config.cjs").write_text(_READ_CONFIG_JS, encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work),
               "EVAL_PROJECT_PORT": PORT_PLACEHOLDER, "EVAL_PROJECT_ROOT": "src",
               "IS_EVAL_PRODUCTION": "true", **({"CI": "true"} if ci else {})}
        try:
            done = subprocess.run(["node", str(work / "read-config.cjs"),
                                   str(work / config.name)], cwd=work, env=env,
                                  capture_output=True, text=True, timeout=timeout_s,
                                  stdin=subprocess.DEVNULL)
        except FileNotFoundError:
            raise WebBenchError("node is needed to read the projects' Playwright configs "
                                "(not found on PATH)") from None
        except subprocess.TimeoutExpired:
            raise WebBenchError(f"{config}: reading it took more than {timeout_s:g}s") from None
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[0]
            raise WebBenchError(f"{config}: node could not load it: {last[:300]}")
        text = done.stdout.replace(str(work) + "/", "./").replace(str(work), ".")
        try:
            # read-config.cjs prints one JSON object
            return cast(dict[str, Any], json.loads(text))
        except json.JSONDecodeError as exc:
            raise WebBenchError(f"{config}: unreadable answer from node: {exc}") from None


def serve_spec(project: Path, config: dict[str, Any]) -> ServeSpec:
    """The task's ``serve``: the config's (first) ``webServer`` with the port as ``{port}``."""
    servers = config.get("webServer") or []
    if not servers or not servers[0].get("command"):
        raise WebBenchError(f"{project}: its Playwright config has no webServer command")
    server = servers[0]

    def ported(value: object) -> str:
        return str(value).replace(PORT_PLACEHOLDER, "{port}")

    scripts = (package_json(project / "package.json").get("scripts") or {}) if (
        project / "package.json").is_file() else {}
    url = str(server.get("url") or config.get("baseURL") or "/")
    path = re.sub(r"^[a-z]+://[^/]+", "", url) or "/"
    timeout = server.get("timeout")
    return ServeSpec(project=PROJECT_DIR, libraries=LIBRARIES_DIR if (
        project / "package.json").is_file() else None,
        command=ported(server["command"]).strip(),
        # what Web-Bench's evaluator runs before the tests: `npm run init`, `npm run build`
        # (when the script is there and not empty), with the project's assets copied in
        init="npm run init" if str(scripts.get("init") or "").strip() else None,
        build="npm run build" if str(scripts.get("build") or "").strip() else None,
        assets="assets" if (project / "assets").is_dir() else None,
        env={str(k): ported(v) for k, v in (server.get("env") or {}).items()},
        cwd=str(server.get("cwd") or "."), path=path,
        timeout_s=max(60.0, float(timeout) / 1000) if timeout else 60.0)


def import_project(project: Path, bench: Path) -> Imported:
    """Write ``tasks/wb-<name>/``, ``prds/`` and ``dags/`` entries for one project."""
    name = re.sub(r"[^A-Za-z0-9_.\-]", "-", project.name)
    task_id = PREFIX + name
    rows = read_tasks(project)
    libraries = workspace_libraries(project)
    eval_tasks: list[_EvalTaskEntry] = []
    skipped: list[str] = []
    for row in rows:
        tid = str(row["id"])
        spec = project / "test" / f"{tid}.spec.js"
        titles = titles_of(spec) if spec.is_file() else []
        if not titles:
            skipped.append(tid)
            continue
        description = " ".join(str(row["description"]).split())
        eval_tasks.append({
            "id": tid, "summary": description[:MAX_SUMMARY],
            "type": "presence" if tid == "init" else "functionality", "weight": 1,
            "spec": f"{PROJECT_DIR}/test/{spec.name}",
            "criteria": [{"id": f"{tid}.t{i}", "text": title, "test": title}
                         for i, title in enumerate(titles)]})
    if not eval_tasks:
        raise WebBenchError(f"{project}: no task has a spec with tests under test/")
    serve = serve_spec(project, read_playwright_config(project))
    folder = Path(bench) / "tasks" / task_id
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    pinned = carry(project, folder, libraries)
    initial = project / "src-init"
    if initial.is_dir():
        as_given(project, initial, folder / "initial")
    if (project / "src").is_dir():
        as_given(project, project / "src", folder / "reference")
    steps = "\n".join(f"{i}. {str(r['description']).strip()}" for i, r in enumerate(rows, 1))
    task = {
        "id": task_id, "title": f"Web-Bench: {project.name}", "category": "utility",
        "query": f"Build this project step by step:\n{steps}",
        "origin": f"web-bench:{project.name}",
        "notes": (f"Imported from the Web-Bench project {project.name} ({len(rows)} tasks, "
                  f"{len(eval_tasks)} with tests): each evaluation task is decided by its "
                  f"Playwright Test spec; the DAG is the chain."),
        "reference": "reference" if (project / "src").is_dir() else None,
        "initial": "initial" if initial.is_dir() else None,
        "serve": serve.model_dump(exclude_defaults=True),
        "eval_tasks": eval_tasks}
    (folder / "task.yaml").write_text(
        "# Imported by `asuka import web-bench`; re-import rather than edit.\n"
        + yaml.safe_dump(task, sort_keys=False, allow_unicode=True, width=100),
        encoding="utf-8")
    for sub, text in (("prds", _prd(project.name, rows)), ("dags", yaml.safe_dump(
            {"edges": [[a["id"], b["id"]] for a, b in zip(eval_tasks, eval_tasks[1:])],
             "notes": "Web-Bench's sequential chain"}, sort_keys=False))):
        (Path(bench) / sub).mkdir(parents=True, exist_ok=True)
        ext = "md" if sub == "prds" else "yaml"
        (Path(bench) / sub / f"{task_id}.{ext}").write_text(text, encoding="utf-8")
    return Imported(task_id, project.name, len(eval_tasks),
                    sum(len(e["criteria"]) for e in eval_tasks), skipped, sorted(libraries),
                    pinned)


def _prd(name: str, rows: list[dict[str, Any]]) -> str:
    lines = [f"# {name} (Web-Bench)", "", "The project's tasks, in the order they are built:", ""]
    for r in rows:
        level = f" ({r['level']})" if r.get("level") else ""
        lines.append(f"- **{r['id']}**{level}: {' '.join(str(r['description']).split())}")
    return "\n".join(lines) + "\n"


def remove_task(bench: Path, task_id: str) -> None:
    """Take an imported task out of the benchmark again (its folder, PRD and DAG)."""
    shutil.rmtree(Path(bench) / "tasks" / task_id, ignore_errors=True)
    for path in (Path(bench) / "prds" / f"{task_id}.md", Path(bench) / "dags" / f"{task_id}.yaml"):
        path.unlink(missing_ok=True)


def import_webbench(source: Path, bench: Path, names: list[str] | None = None
                    ) -> WebBenchImport:
    """Import every project of ``source`` (or those ``names``) into the benchmark ``bench``;
    each project that cannot be imported is left out with its reason."""
    projects = projects_of(Path(source))
    if names:
        unknown = sorted(set(names) - {p.name for p in projects})
        if unknown:
            raise WebBenchError(f"no project {', '.join(unknown)} in {source}")
        projects = [p for p in projects if p.name in names]
    if not projects:
        raise WebBenchError(f"no Web-Bench project (a folder with {' or '.join(TASK_FILES)}) "
                            f"in {source}")
    out = WebBenchImport()
    for p in projects:
        if task_file(p) is None:
            out.left_out.append(LeftOut(p.name, f"no {' or '.join(TASK_FILES)} (not a "
                                                f"benchmark project)"))
            continue
        try:
            out.imported.append(import_project(p, Path(bench)))
        except (WebBenchError, OSError, UnicodeDecodeError) as exc:
            out.left_out.append(LeftOut(p.name, str(exc)))
    return out
