"""Evaluation tasks decided by a Playwright Test spec (imported Web-Bench tasks): the spec runs
under ``npx playwright test`` (@playwright/test from the npm registry, installed once, driving
the system Chromium) against the served app, and each criterion that names a test takes that
test's outcome.

The spec is the benchmark's, but it drives the app being judged and some specs run the app's own
scripts (webpack's call ``npm run build`` in its ``src/``), so it runs under the deploy sandbox
(bubblewrap when usable): no network but the served app's port (``reach_port``), the scratch
folder it runs in the only writable path, the npm packages and the app's installed packages
read-only, its process group killed at the end. It runs on a configuration of
ours: the app's URL as ``baseURL``, one worker, no retries unless the run asks for Web-Bench's
CI's (``RETRIES``), the JSON reporter, Asuka's own
``@playwright/test`` release (the one that drives the system Chromium: the 1.57 Web-Bench's
lockfile pins, made for Chromium 143, gives a popup opened under a window name no URL and
cannot reload it on Chromium 156, failing three tests of the ``sass`` and ``survey``
references), and the timeouts
the project's own config sets under Web-Bench's ``IS_EVAL_PRODUCTION`` (Playwright's 30 s a
test and 5 s an expectation where it sets none; ``project_timeouts``). A spec of an
imported project runs inside the project as the repository lays it out (``assemble``): its
``test/`` with its helpers, its other files, the workspace libraries beside ``projects/``, the
app being judged as its ``src/`` (``EVAL_PROJECT_ROOT``), and the npm packages its tests
require, installed once per set from the registry (``asuka.deploy.node_packages``). A failing test's
error is filtered as WatchPoint filters Playwright output (ANSI stripped, framework stack frames
dropped, repeated lines once, a cap); a spec that does not load, or a test the report does not
list, is the harness's error, never the app's failure."""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple, cast
from urllib.parse import urlsplit

from asuka.benchmark.webbench import (
    WebBenchError,
    config_file,
    dependencies,
    library_folders,
    package_json,
    read_playwright_config,
    without_comments,
)
from asuka.deploy.node_packages import PLAYWRIGHT_CORE, ensure_package, ensure_packages
from asuka.deploy.procs import LogBuffer
from asuka.deploy.project import app_of
from asuka.deploy.sandbox import build_child_env, get_sandbox
from asuka.errors import SetupError
from asuka.sanitize import clean
from asuka.schema import EvalTask, EvalTaskResult, Evidence, Verdict
from asuka.uiagents.browsing.browser import LAUNCH_ARGS, find_chromium

BACKEND = "playwright-test"
TEST_TIMEOUT_MS = 30_000    # Web-Bench's playwright.config under IS_EVAL_PRODUCTION
EXPECT_TIMEOUT_MS = 5_000
RUN_TIMEOUT_S = 300
RETRIED_PASS = "the test passed on try"  # how a pass on a retry's reason begins
ERROR_CHARS = 600

CONFIG = """const { devices } = require('@playwright/test');
const own = %(use)s;
module.exports = {
  testDir: %(dir)s, testMatch: [%(match)s], timeout: %(timeout)d, workers: 1, retries: %(retries)d,
  expect: { timeout: %(expect)d },
  outputDir: %(out)s, reporter: [['json', { outputFile: %(report)s }]],
  use: { ...(devices[own.__device] || {}), ...own, __device: undefined,
         baseURL: %(url)s, headless: true,
         launchOptions: { executablePath: %(chromium)s, args: %(args)s } },
};
"""
# what of a project's own ``use`` (its top level, then its Chromium project's) the spec run
# keeps: how the page is emulated, never where it goes, which browser, or what is recorded
EMULATION = frozenset({
    "__device", "viewport", "screen", "deviceScaleFactor", "isMobile", "hasTouch", "userAgent",
    "locale", "timezoneId", "colorScheme", "reducedMotion", "forcedColors", "javaScriptEnabled",
    "ignoreHTTPSErrors", "bypassCSP", "permissions", "geolocation", "extraHTTPHeaders",
    "offline", "acceptDownloads", "actionTimeout", "navigationTimeout", "testIdAttribute"})


class TestRun(NamedTuple):
    """A test's outcome in a JSON report: its last try's status and error, how many tries it
    took (retries), and the first try's error when a retry passed (a flaky test)."""
    status: str
    error: str
    tries: int = 1
    first_error: str = ""


def titles(report: dict[str, Any]) -> dict[str, TestRun]:
    """test title -> its ``TestRun`` over every suite of a JSON report."""
    out: dict[str, TestRun] = {}

    def walk(suite: dict[str, Any]) -> None:
        for spec in suite.get("specs", []):
            for test in spec.get("tests", []):
                results = test.get("results") or [{}]
                last = results[-1]
                error = (last.get("error") or {}).get("message") or ""
                first = (results[0].get("error") or {}).get("message") or ""
                out.setdefault(spec.get("title", ""), TestRun(
                    last.get("status", "skipped"), error, len(results),
                    first if len(results) > 1 else ""))
        for child in suite.get("suites", []):
            walk(child)

    for suite in report.get("suites", []):
        walk(suite)
    return out


_PLACEHOLDER = re.compile(r"\$\{[^}]*\}")


def of_title(title: str, found: dict[str, TestRun]) -> list[TestRun]:
    """The report's runs of the spec's test ``title``: the test of that title, or, for a
    title written as a template (``Check Button ${buttonText} Hovered``, a test per value of a
    loop), every test whose title it matches."""
    if title in found:
        return [found[title]]
    if "${" not in title:
        return []
    pattern = re.compile(".+?".join(re.escape(p) for p in _PLACEHOLDER.split(title)), re.S)
    return [run for name, run in found.items() if pattern.fullmatch(name)]


IMPORTED = re.compile(r"""(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)"""
                      r"""|\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]""", re.M)
NPM_NAME = re.compile(r"(?:@[a-z0-9~-][a-z0-9._~-]*/)?[a-z0-9~-][a-z0-9._~-]*")
SOURCE_SUFFIXES = (".js", ".cjs", ".mjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
HARNESS_PACKAGES = frozenset({"@playwright/test", "playwright", "playwright-core"})
PROJECT_LEFT_OUT = frozenset({"src", "node_modules"})


def package_of(specifier: str) -> str | None:
    """The npm package a bare import specifier names (None: relative, absolute, builtin)."""
    if specifier.startswith((".", "/", "node:")) or not specifier:
        return None
    parts = specifier.split("/")
    name = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
    if not NPM_NAME.fullmatch(name):  # a string that only looks like an import
        return None
    return None if name in _builtins() else name


_BUILTINS: frozenset[str] | None = None


def _builtins() -> frozenset[str]:
    global _BUILTINS
    if _BUILTINS is None:
        import subprocess

        try:
            out = subprocess.run([shutil.which("node") or "node", "-p",
                                  "require('module').builtinModules.join(' ')"],
                                 capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.TimeoutExpired):
            out = ""
        _BUILTINS = frozenset(out.split()) or frozenset(
            {"fs", "path", "os", "util", "url", "child_process", "crypto", "events",
             "assert", "http", "https", "stream", "timers", "constants", "buffer"})
    return _BUILTINS


def libraries_of(project: Path) -> dict[str, Path]:
    """package name -> folder of the workspace libraries carried beside an imported project."""
    return library_folders(project.parent / "libraries")


def spec_packages(project: Path) -> list[str]:
    """``name@range`` of every npm package the project's tests import (not the harness's own
    Playwright, the workspace libraries or Node's builtins), ranges from its package.json."""
    libraries = libraries_of(project)
    ranges = dependencies(package_json(project / "package.json"))
    for lib in libraries.values():
        ranges = {**dependencies(package_json(lib / "package.json")), **ranges}
    found: set[str] = set()
    roots = [project / "test", *libraries.values()]
    for root in roots:
        for path in root.rglob("*") if root.is_dir() else []:
            if path.suffix not in SOURCE_SUFFIXES or "node_modules" in path.parts:
                continue
            code = without_comments(path.read_text(encoding="utf-8", errors="replace"))
            for m in IMPORTED.finditer(code):
                name = package_of(next(g for g in m.groups() if g))
                if name and name not in HARNESS_PACKAGES and name not in libraries:
                    found.add(name)
    out = []
    for name in sorted(found):
        version = ranges.get(name, "latest")
        out.append(f"{name}@{'latest' if version.startswith(('workspace:', 'file:')) else version}")
    return out


# the spec runs under Asuka's Playwright: a project's own copy must not shadow it (Playwright
# refuses to be loaded twice)
PLAYWRIGHT_PACKAGES = frozenset({"@playwright", "playwright", "playwright-core"})


def _link_all(modules: Path, into: Path, skip: frozenset[str] = frozenset()) -> None:
    """Symlink every package of ``modules`` (but those named in ``skip``) into the
    ``node_modules`` folder ``into``."""
    if not modules.is_dir():
        return
    into.mkdir(parents=True, exist_ok=True)
    for entry in modules.iterdir():
        if entry.name.startswith(".") or entry.name in skip:
            continue
        if entry.name.startswith("@"):
            for pkg in entry.iterdir():
                dest = into / entry.name / pkg.name
                if not dest.exists():
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    dest.symlink_to(pkg)
        elif not (into / entry.name).exists():
            (into / entry.name).symlink_to(entry)


def assemble(spec: Path, scratch: Path, source: Path | None, modules: list[Path]) -> Path:
    """The test folder to run ``spec`` from. For an imported project
    (``<project>/test/<spec>``): ``scratch/run/projects/<name>/``, a copy of the project (files
    are copied, not linked: an ES module resolves its imports from its real path), with a copy
    of the app being judged as its ``src``, the project's packages as deployed (``source`` is
    the deployed project; Playwright's left out) linked into its ``node_modules`` as the
    repository installs them, the libraries as ``scratch/run/libraries`` and the packages
    (Playwright, the libraries by name, the tests' dependencies) in ``scratch/run/node_modules``,
    so CommonJS and ES modules resolve alike."""
    project = spec.parent.parent
    if spec.parent.name != "test" or not (project / "package.json").is_file():
        return spec.parent
    run = scratch / "run"
    home = run / "projects" / project.name
    top = str(project)
    shutil.copytree(project, home, symlinks=True, ignore=lambda d, names: [
        n for n in names if n in PROJECT_LEFT_OUT and (d == top or n == "node_modules")])
    if source is not None:  # a copy too: what src/ imports from ../ is the project's
        app = app_of(source, "src")
        shutil.copytree(app, home / "src", symlinks=True,
                        ignore=lambda _d, names: [n for n in names if n == "node_modules"])
        if (app / "node_modules").is_dir():  # the app's own packages, as its init installed
            (home / "src" / "node_modules").symlink_to((app / "node_modules").resolve())
        if app != source:  # the project's packages as deployed, where its files resolve them
            # (typescript's specs run tsc on cases that import React's types)
            _link_all((source / "node_modules").resolve(), home / "node_modules",
                      skip=PLAYWRIGHT_PACKAGES)
        if (project / "assets").is_dir() and not (home / "src" / "assets").exists():
            # as Web-Bench's evaluator does, and the deploy (ServeSpec.assets)
            shutil.copytree(project / "assets", home / "src" / "assets")
    node_modules = run / "node_modules"
    node_modules.mkdir()
    libraries = libraries_of(project)
    if libraries:
        shutil.copytree(project.parent / "libraries", run / "libraries", symlinks=True)
        for name, lib in libraries.items():
            dest = node_modules / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.symlink_to(run / "libraries" / lib.name)
    for m in modules:
        _link_all(m, node_modules)
    return home / "test"


async def run_spec(eval_task: EvalTask, spec: Path, base_url: str,
                   source: Path | None = None, retries: int | str = "none") -> EvalTaskResult:
    """Run ``spec`` against ``base_url``; one verdict per criterion that names a test.
    ``source``: the folder of the app being judged (an imported project's ``src/``);
    ``retries``: ``spec_retries`` of the run (``RETRIES``)."""
    t0 = time.monotonic()
    project = spec.parent.parent
    try:
        modules = [await asyncio.to_thread(ensure_package, "@playwright/test", PLAYWRIGHT_CORE)]
    except SetupError as exc:  # the harness's runner, never the app's failure
        return _error(eval_task, f"Playwright Test {PLAYWRIGHT_CORE} cannot be installed: "
                                 f"{exc}", t0)
    try:
        wanted = spec_packages(project) if spec.parent.name == "test" else []
    except WebBenchError as exc:  # the imported project's files, never the app's failure
        return _error(eval_task, f"the spec's project cannot be read: {exc}", t0)
    if wanted:
        try:
            modules.append(await asyncio.to_thread(ensure_packages, wanted))
        except SetupError as exc:  # the harness's packages, never the app's failure
            return _error(eval_task, f"the spec's npm packages cannot be installed: {exc}", t0)
    scratch = Path(tempfile.mkdtemp(prefix="asuka-pwtest-"))
    try:
        test_dir = assemble(spec, scratch, source, modules)
        report_path = scratch / "report.json"
        config = scratch / "playwright.config.cjs"
        test_ms, expect_ms = await asyncio.to_thread(project_timeouts, project)
        tries_more = await asyncio.to_thread(project_retries, project, retries) if (
            spec.parent.name == "test") else spec_retries(retries)
        use = await asyncio.to_thread(project_emulation, project) if (
            spec.parent.name == "test") else {}
        config.write_text(CONFIG % {"use": json.dumps(use),
            "dir": json.dumps(str(test_dir)), "match": json.dumps(spec.name),
            "timeout": test_ms, "expect": expect_ms, "retries": tries_more,
            "out": json.dumps(str(scratch / "out")),
            "report": json.dumps(str(report_path)), "url": json.dumps(base_url),
            "chromium": json.dumps(find_chromium() or ""), "args": json.dumps(list(LAUNCH_ARGS))})
        cli = modules[0] / "@playwright" / "test" / "cli.js"
        # the project's installed tools (tsc, webpack) on PATH, as `npm test` puts them
        project_modules = source / "node_modules" if source is not None else None
        bins = [project_modules / ".bin"] if project_modules is not None else []
        bins += [m / ".bin" for m in modules]
        path = os.pathsep.join([*(str(b) for b in bins if b.is_dir()), "/usr/bin", "/bin"])
        extra = {"PATH": path, "HOME": str(scratch),
                 "NODE_PATH": os.pathsep.join([str(scratch / "run" / "node_modules"),
                                               *map(str, modules)]),
                 "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1", "CI": "1", "IS_EVAL_PRODUCTION": "1"}
        if source is not None:
            extra["EVAL_PROJECT_ROOT"] = str(test_dir.parent / "src")
        port = urlsplit(base_url).port
        if port is not None:  # a spec may build its own URLs (webpack's goes to 0.0.0.0:PORT)
            extra["EVAL_PROJECT_PORT"] = str(port)
        readonly = [*modules]
        if source is not None:  # the project's packages and the app's own, as deployed
            readonly += [m.resolve() for m in (project_modules, app_of(source, "src") /
                                               "node_modules") if m is not None and m.is_dir()]
        # an imported project's test folder is a copy in the scratch folder; a bare spec's
        # folder (a task's own) is only read
        inside = test_dir.resolve().is_relative_to(scratch.resolve())
        if not inside:
            readonly.append(test_dir)
        output = await _run_sandboxed(
            [shutil.which("node") or "node", str(cli), "test", "--config", str(config)],
            test_dir.parent if inside else scratch, scratch, readonly,
            build_child_env(extra, network=False), port)
        if output is None:
            return _error(eval_task, f"playwright test did not finish within {RUN_TIMEOUT_S}s",
                          t0)
        try:
            report = json.loads(report_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = clean(output, ERROR_CHARS)
            return _error(eval_task, f"{spec.name} produced no report: {tail}", t0)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    found = titles(report)
    errors = [clean(e.get("message", ""), ERROR_CHARS) for e in report.get("errors", [])]
    verdicts = []
    for c in eval_task.criteria:
        if c.test is None:
            continue
        runs = of_title(c.test, found)
        if not runs:
            reason = errors[0] if errors else f"the report has no test {c.test!r}"
            verdicts.append(Verdict(criterion_id=c.id, status="error", backend=BACKEND,
                                    reason=f"{spec.name}: {reason}"))
            continue
        # a title written with ${...} is one test per value of a loop: all of them must pass
        run = next((r for r in runs if r.status != "passed"), runs[0])
        if run.status == "passed":
            flaky = next((r for r in runs if r.tries > 1), None)
            reason = "the test passed" if flaky is None else (
                f"{RETRIED_PASS} {flaky.tries} (a retry; its first try failed: "
                f"{clean(flaky.first_error, ERROR_CHARS // 2)})")
        else:
            reason = clean(run.error, ERROR_CHARS) or f"the test {run.status}"
        verdicts.append(Verdict(
            criterion_id=c.id, backend=BACKEND,
            status="pass" if run.status == "passed" else "fail" if run.status in (
                "failed", "timedOut", "interrupted") else "unverifiable", reason=reason))
    statuses = {v.status for v in verdicts}
    status = ("error" if "error" in statuses else "passed" if statuses == {"pass"}
              else "failed")
    return EvalTaskResult(eval_task_id=eval_task.id, status=status, verdicts=verdicts,
                          attempts=1, duration_s=round(time.monotonic() - t0, 3),
                          error=next((v.reason for v in verdicts if v.status == "error"), None),
                          evidence=Evidence())


async def _run_sandboxed(argv: list[str], cwd: Path, scratch: Path, readonly: list[Path],
                         env: dict[str, str], port: int | None) -> str | None:
    """Run the spec's runner under the deploy sandbox; its output, or None past the clock."""
    log = LogBuffer()
    # online to the page as on the machine Web-Bench ran on (bom's tests read navigator.onLine)
    proc = await asyncio.to_thread(
        get_sandbox("auto").spawn, argv, workspace=cwd, env=env, log=log, network=False,
        writable=[scratch], readonly=readonly, reach_port=port, appear_online=True)
    try:
        code = await asyncio.to_thread(proc.wait, RUN_TIMEOUT_S)
    finally:  # also when the evaluation is cancelled: nothing outlives it
        proc.stop()  # the runner's whole process group: its browser, a build it started
    return None if code is None else log.text()


def emulation(config: dict[str, Any]) -> dict[str, Any]:
    """The page emulation a project's config sets (``EMULATION`` of its ``use``, then of its
    Chromium project's, which wins): Web-Bench's chart and SVG projects fix a 640-pixel viewport
    their tests measure against."""
    projects = [p for p in config.get("projects") or [] if isinstance(p, dict)]
    chosen = next((p for p in projects if "chrom" in str(p.get("name", "")).lower()),
                  projects[0] if projects else {})
    out: dict[str, Any] = {}
    for use in (config.get("use"), chosen.get("use")):
        if isinstance(use, dict):
            out.update({k: v for k, v in use.items() if k in EMULATION})
    return out


@functools.lru_cache(maxsize=256)
def _read_config(project: Path, _mtime: float, ci: bool) -> str:
    return json.dumps(read_playwright_config(project, ci=ci))


def project_config(project: Path, ci: bool = False) -> dict[str, Any]:
    """The project's Playwright config as read by node (``ci``: as Web-Bench's own CI reads
    it), once per version of the file; ``{}`` without one or when it cannot be read."""
    config = config_file(project)
    if config is None:
        return {}
    try:
        return cast(dict[str, Any], json.loads(_read_config(project, config.stat().st_mtime,
                                                            ci)))
    except WebBenchError:
        return {}


# how often a failed test is tried again: "none" (as Web-Bench's evaluator runs an agent's
# app: its configs say ``retries: CI ? 2 : 0`` and it sets no CI), "ci" (as Web-Bench's own CI
# tests its references, ``CI=true``: the project's config decides, 2 for every project), or a
# number. A pass on a retry says so in its reason.
RETRIES = ("none", "ci")


def spec_retries(mode: int | str) -> int:
    """The retries of ``mode`` that need no project (``"ci"`` without a config: none)."""
    if isinstance(mode, bool) or not (mode in RETRIES or isinstance(mode, int) and mode >= 0):
        raise ValueError(f"spec_retries: {mode!r} is not one of {', '.join(RETRIES)} or a "
                         "number of retries >= 0")
    return mode if isinstance(mode, int) else 0


def project_retries(project: Path, mode: int | str) -> int:
    """``spec_retries`` of ``mode`` for a test of ``project``: ``"ci"`` reads its config."""
    tries = spec_retries(mode)
    if mode != "ci":
        return tries
    retries = project_config(project, ci=True).get("retries")
    return int(retries) if isinstance(retries, (int, float)) and retries > 0 else 0


def project_emulation(project: Path) -> dict[str, Any]:
    """``emulation`` of the project's Playwright config, or none."""
    return emulation(project_config(project))


def project_timeouts(project: Path) -> tuple[int, int]:
    """A test's and an expectation's timeout (ms) as the project's own Playwright config sets
    them under ``IS_EVAL_PRODUCTION`` (Web-Bench's evaluator), else Playwright's defaults."""
    config = project_config(project)
    test = config.get("timeout")
    expect = (config.get("expect") or {}).get("timeout")
    return (int(test) if isinstance(test, (int, float)) and test > 0 else TEST_TIMEOUT_MS,
            int(expect) if isinstance(expect, (int, float)) and expect > 0
            else EXPECT_TIMEOUT_MS)


def _error(eval_task: EvalTask, reason: str, t0: float) -> EvalTaskResult:
    return EvalTaskResult(
        eval_task_id=eval_task.id, status="error", attempts=1, error=reason,
        duration_s=round(time.monotonic() - t0, 3),
        verdicts=[Verdict(criterion_id=c.id, status="error", backend=BACKEND, reason=reason)
                  for c in eval_task.criteria])
