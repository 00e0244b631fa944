"""Workspace in, live URL on 127.0.0.1 out.

``Deployer.deploy`` never raises for a broken workspace: a missing index.html, a failing build or
a server that never comes up all end in ``DeployResult(ok=False, error=...)`` with nothing left
running. The caller owns the returned ``Deployment`` and must ``stop()`` it (or use ``with``).
"""

from __future__ import annotations

import re
import shlex
import shutil
import tempfile
import threading
import time
import traceback
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from asuka.deploy import detect
from asuka.deploy import project as project_mod
from asuka.deploy.health import PROBE_INTERVAL, probe_http, wait_http
from asuka.deploy.models import DeployKind, DeployResult, DeployTimeouts
from asuka.deploy.ports import HOST, PortAllocator, default_allocator
from asuka.deploy.procs import LogBuffer, tail_lines
from asuka.deploy.project import ProjectSetupError
from asuka.deploy.sandbox import Sandbox, SandboxProcess, build_child_env, get_sandbox
from asuka.deploy.static import StaticServer
from asuka.schema import ServeSpec

# CLIs that ignore $PORT/$HOST and need flags instead (npm appends args to the script)
_PORT_FLAGS: dict[str, Callable[[int, str], list[str]]] = {
    "vite": lambda p, h: ["--port", str(p), "--strictPort", "--host", h],
    "astro": lambda p, h: ["--port", str(p), "--host", h],
    "next": lambda p, h: ["-p", str(p), "-H", h],
    "webpack": lambda p, h: ["--port", str(p), "--host", h],
    "webpack-dev-server": lambda p, h: ["--port", str(p), "--host", h],
}
# what npm and its install scripts print when a host cannot be reached
_OFFLINE = re.compile(r"getaddrinfo (?:ENOTFOUND|EAI_AGAIN) [\w.-]+|connect ETIMEDOUT [\d.:]+"
                      r"|connect ENETUNREACH [\d.:]+")
# a project's dependencies (Angular, Next, Nuxt) take longer than an app's usual few
PROJECT_INSTALL_S = 900.0
# how long an app may listen elsewhere before the deployer stops waiting for it on $PORT
_OTHER_PORT_GRACE = 2.0


def _needs_download(failure: DeployFailed, step: str, log: str = "") -> Exception:
    """A project step that failed reaching a host (a binary from somewhere other than the npm
    registry, which this machine cannot reach or the sandbox does not let it) is the setting's
    limit, a setup error, never the app's failure; any other failure stands."""
    offline = _OFFLINE.search(f"{failure}\n{log}")
    if offline is None:
        return failure
    return ProjectSetupError(f"the project's {step} needs a download this machine cannot make "
                             f"({offline.group(0)}): {failure}", log=log or str(failure))


class DeployFailed(Exception):
    """A step failed; the message is the result's error."""

    def __init__(self, message: str, timed_out: bool = False) -> None:
        super().__init__(message)
        self.timed_out = timed_out


class Deployment:
    """A running deployment (or the record of a failed one): ``url`` is live until ``stop()``.

    Keep a reference while the app is in use: a Deployment that is garbage-collected (or still
    running at interpreter exit) stops itself, so no server or child outlives its owner."""

    def __init__(self, result: DeployResult, cleanups: list[Callable[[], None]],
                 server_log: LogBuffer | None = None, project_home: Path | None = None) -> None:
        self.result = result
        self._server_log = server_log
        # a task's own project (``ServeSpec``): the copy it serves from, with the app as its
        # ``src/`` after the project's init and build (what Web-Bench's tests read and run in)
        self.project_home = project_home
        self._lock = threading.Lock()
        # a forgotten deployment is still torn down when collected or at interpreter exit
        self._finalizer = weakref.finalize(self, _run_cleanups, cleanups)

    @property
    def url(self) -> str | None:
        return self.result.url

    @property
    def ok(self) -> bool:
        return self.result.ok

    def server_log(self) -> str:
        """Output of the started server so far (npm-start only), including after deploy."""
        return self._server_log.text() if self._server_log else ""

    def stop(self) -> None:
        with self._lock:
            self._finalizer()

    def __enter__(self) -> Deployment:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"Deployment(kind={self.result.kind!r}, ok={self.result.ok}, url={self.url!r})"


def _run_cleanups(cleanups: list[Callable[[], None]]) -> None:
    while cleanups:
        try:
            cleanups.pop()()
        except Exception:  # noqa: BLE001 - one failed cleanup must not skip the others
            pass


class _Attempt:
    """Mutable state of one deploy call: log, timings, and what to undo."""

    def __init__(self, workspace: Path, kind: DeployKind) -> None:
        self.workspace = workspace
        self.kind: DeployKind = kind
        self.parts: list[str] = []
        self.timings: dict[str, float] = {}
        self.meta: dict[str, str] = {}
        self.cleanups: list[Callable[[], None]] = []
        self.server_log: LogBuffer | None = None
        self.project_home: Path | None = None

    def note(self, text: str) -> None:
        self.parts.append(text.rstrip("\n") + "\n")

    def log(self) -> str:
        return "".join(self.parts)

    def result(self, *, url: str | None = None, error: str | None = None) -> DeployResult:
        return DeployResult(ok=error is None, kind=self.kind, url=url, log=self.log(),
                            timings={k: round(v, 3) for k, v in self.timings.items()},
                            error=error, meta=self.meta)


class Deployer:
    """Thread-safe: one Deployer may run many deploys at once (e.g. via asyncio.to_thread).

    ``sandbox``: a registry name (auto, local, bwrap, docker) or a Sandbox instance.
    ``npm_cache``: a cache dir shared by installs; default, a throwaway one per deploy."""

    def __init__(self, sandbox: str | Sandbox = "auto", timeouts: DeployTimeouts | None = None,
                 npm_cache: Path | str | None = None, ports: PortAllocator | None = None) -> None:
        self.sandbox: Sandbox = get_sandbox(sandbox)
        self.timeouts = timeouts or DeployTimeouts()
        # shared between deploys (npm's cache is safe for concurrent use); None: one per deploy
        self.npm_cache = Path(npm_cache).resolve() if npm_cache else None
        self.ports = ports or default_allocator()

    def deploy(self, workspace: Path | str, serve: ServeSpec | None = None,
               task_root: Path | str | None = None) -> Deployment:
        """``serve`` (with the task's folder ``task_root``): the task's own project serves the
        workspace (``asuka.deploy.project``); a failed install of the project's dependencies is
        a ``ProjectSetupError``, raised, since it is never the app's failure."""
        started = time.monotonic()
        ws = Path(workspace).resolve()
        attempt = _Attempt(ws, "none")
        try:
            if serve is not None:
                if task_root is None:
                    raise ValueError("serve needs the task's folder (task_root)")
                url = self._deploy_project(attempt, serve, Path(task_root).resolve())
            else:
                url = self._deploy(attempt)
            result = attempt.result(url=url)
        except ProjectSetupError:
            _run_cleanups(attempt.cleanups)
            raise
        except DeployFailed as failure:
            result = attempt.result(error=str(failure))
        except Exception as exc:  # noqa: BLE001 - a deploy bug must not crash the whole run
            attempt.note(traceback.format_exc())
            result = attempt.result(error=f"deploy crashed: {type(exc).__name__}: {exc}")
        result.timings["total"] = round(time.monotonic() - started, 3)
        deployment = Deployment(result, attempt.cleanups, attempt.server_log,
                                attempt.project_home)
        if not result.ok:
            deployment.stop()
        return deployment

    # ------------------------------------------------------------------ steps

    def _deploy(self, attempt: _Attempt) -> str:
        ws = attempt.workspace
        if not ws.is_dir():
            raise DeployFailed(f"workspace {ws} is not a directory")
        with _timed(attempt, "detect"):
            found = detect.inspect_workspace(ws)
        attempt.kind = found.kind
        if found.kind == "static":
            return self._serve_static(attempt, found.static_root)
        if found.kind == "none":
            raise DeployFailed(_no_project_error(ws, found))
        attempt.meta["sandbox"] = self.sandbox.name
        scratch = Path(tempfile.mkdtemp(prefix="asuka-deploy-"))
        attempt.cleanups.append(lambda: shutil.rmtree(scratch, ignore_errors=True))
        (scratch / "home").mkdir()
        self._install(attempt, scratch)
        if found.kind == "npm-build":
            before = detect.index_files(ws)
            self._run_step(attempt, scratch, "build", ["npm", "run", "build"],
                           self.timeouts.build)
            output = detect.find_build_output(ws, before)
            if output is not None:
                rel = (output / "index.html").relative_to(ws).as_posix()
                if rel in before and before[rel] == detect.index_files(ws).get(rel):
                    attempt.note(f"warning: the build did not write {rel}; serving it as it was")
                    attempt.meta["warning"] = f"served {rel}, which this build did not write"
                return self._serve_static(attempt, output)
            script = detect.pick_start_script(found.scripts, after_build=True)
            if script is None:
                raise DeployFailed("build succeeded but wrote no index.html (looked in dist/, "
                                   "build/, out/) and package.json has no start, preview or "
                                   "dev script to serve it")
            attempt.note("build wrote no index.html; starting the app instead")
            attempt.kind = "npm-start"
            return self._start(attempt, scratch, script, found.scripts[script])
        script = detect.pick_start_script(found.scripts)
        if found.default_start:
            attempt.note("package.json has no start script; starting server.js, as npm does "
                         "by default")
        return self._start(attempt, scratch, script, found.scripts[script])

    def install_project(self, serve: ServeSpec, task_root: Path | str,
                        note: Callable[[str], None] = lambda _text: None) -> Path:
        """The ``node_modules`` of the task's project (``asuka.deploy.project``), installed on
        first use in this deployer's sandbox with the network; ``note`` gets each step's
        output. A ``ProjectSetupError`` when the install fails."""
        task_root = Path(task_root).resolve()
        nodedir = project_mod.node_headers()
        headers = {"npm_config_nodedir": nodedir} if nodedir else {}

        def run(argv: list[str], cwd: Path, writable: list[Path]) -> None:
            log = LogBuffer()
            with tempfile.TemporaryDirectory(prefix="asuka-install-") as tmp:
                (Path(tmp) / "home").mkdir()
                proc = self.sandbox.spawn(argv, workspace=cwd, env=self._env(
                    Path(tmp), network=True, npm_config_cache=str(writable[0] / ".npm"),
                    # never a browser download: specs and probes drive the system Chromium
                    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD="1", **headers), log=log,
                    network=True, writable=[Path(tmp), *writable])
                try:
                    code = proc.wait(max(self.timeouts.install, PROJECT_INSTALL_S))
                finally:
                    proc.stop()
            note(f"$ {shlex.join(argv)}  (in the project's dependency cache)\n" + log.text())
            if code != 0:
                what = "timed out" if code is None else f"failed (exit {code})"
                raise ProjectSetupError(f"installing the project's dependencies {what}: "
                                        f"{shlex.join(argv)}\n" + tail_lines(log.text()),
                                        log=log.text())

        return project_mod.installed_modules(serve, task_root, run)

    def _deploy_project(self, attempt: _Attempt, serve: ServeSpec, task_root: Path) -> str:
        attempt.kind = "project"
        attempt.meta["sandbox"] = self.sandbox.name
        if not attempt.workspace.is_dir():
            raise DeployFailed(f"workspace {attempt.workspace} is not a directory")
        project = task_root / serve.project
        if not project.is_dir():
            raise ProjectSetupError(f"the task's project {project} is missing")
        scratch = Path(tempfile.mkdtemp(prefix="asuka-deploy-"))
        attempt.cleanups.append(lambda: shutil.rmtree(scratch, ignore_errors=True))
        (scratch / "home").mkdir()
        libraries = task_root / serve.libraries if serve.libraries else None
        with _timed(attempt, "install"):
            modules = self.install_project(serve, task_root, attempt.note)
        with _timed(attempt, "assemble"):
            home = project_mod.copy_project(project, libraries, scratch / "app", serve.source)
            attempt.project_home = home
            # a workspace shaped as the project (its root files with the app in src/, as the
            # agent is given it) deploys its src/; the project's own root files, configs and
            # dependencies serve it (the agent's copies of them are its context)
            app = project_mod.app_of(attempt.workspace, serve.source)
            shutil.copytree(app, home / serve.source, symlinks=True,
                            ignore=lambda _d, names: [n for n in names if n == "node_modules"])
            project_mod.link_modules(modules, home)
            if serve.assets and (project / serve.assets).is_dir() \
                    and not (home / serve.source / "assets").exists():
                # as Web-Bench's evaluator does: the project's assets beside the app's files
                shutil.copytree(project / serve.assets, home / serve.source / "assets")
        # the variables Web-Bench's evaluator sets, beside the task's own
        common = {"EVAL_PROJECT_ROOT": str(home / serve.source), "EVAL": "true"}
        if serve.init:  # the app's own environment (an install of its packages): the network
            try:
                self._run_step(attempt, scratch, "init", ["/bin/sh", "-c", serve.init],
                               self.timeouts.install, network=True, cwd=home, env=common)
            except DeployFailed as failure:
                raise _needs_download(failure, "init") from None
        if serve.build:  # a build that fails is the app's failure, as in Web-Bench
            try:
                self._run_step(attempt, scratch, "build", ["/bin/sh", "-c", serve.build],
                               self.timeouts.build, cwd=home, env=common)
            except DeployFailed as failure:
                # unless it failed reaching a host (prisma's build fetches its engines)
                raise _needs_download(failure, "build") from None
        lease = self.ports.lease()
        attempt.cleanups.append(lease.release)
        port = lease.port
        command = project_mod.fill_port(serve.command, port)
        env = {k: project_mod.fill_port(v, port) for k, v in serve.env.items()}
        attempt.meta.update(command=command, port=str(port))
        env = {"PORT": str(port), "EVAL_PROJECT_PORT": str(port), **common, **env}
        try:
            return self._launch(attempt, scratch, ["/bin/sh", "-c", command], home / serve.cwd,
                                port, env, serve.path, max(self.timeouts.start, serve.timeout_s),
                                "the project's serve command")
        except DeployFailed as failure:
            # nosql's server starts MongoDB from a binary it downloads on first start
            server_log = attempt.server_log.text() if attempt.server_log else ""
            raise _needs_download(failure, "serve command", server_log) from None

    def _env(self, scratch: Path, *, network: bool, **extra: str) -> dict[str, str]:
        home = scratch / "home"
        cache = self.npm_cache if (network and self.npm_cache) else home / ".npm"
        return build_child_env({"HOME": str(home), "npm_config_cache": str(cache), **extra},
                               network=network)

    def _install(self, attempt: _Attempt, scratch: Path) -> None:
        ws = attempt.workspace
        if not detect.has_dependencies(ws):
            attempt.note("package.json declares no dependencies; skipping install")
            return
        install = ["npm", "install", "--prefer-offline"]
        # npm ci wipes node_modules; an existing tree (the last round's) is only topped up
        if detect.has_lockfile(ws) and not (ws / "node_modules").is_dir():
            try:
                self._run_step(attempt, scratch, "install", ["npm", "ci"],
                               self.timeouts.install, network=True)
                return
            except DeployFailed as failure:
                if failure.timed_out:
                    raise
                # agents often edit package.json and leave the lockfile stale, which only ci
                # refuses; hosting platforms run `npm install` anyway
                attempt.note("npm ci failed; retrying with npm install")
        try:
            self._run_step(attempt, scratch, "install", install, self.timeouts.install,
                           network=True)
        except DeployFailed as failure:
            if failure.timed_out or "ERESOLVE" not in attempt.log():
                raise
            # a peer-dependency conflict npm 7+ refuses and npm 6 (and most agents' own
            # machines) accepted: a bounded repair, recorded as one
            attempt.note("npm install failed on a peer-dependency conflict (ERESOLVE); "
                         "retrying with --legacy-peer-deps")
            _record_repair(attempt, "--legacy-peer-deps")
            self._run_step(attempt, scratch, "install", [*install, "--legacy-peer-deps"],
                           self.timeouts.install, network=True)

    def _run_step(self, attempt: _Attempt, scratch: Path, step: str, argv: list[str],
                  timeout: float, network: bool = False, cwd: Path | None = None,
                  env: dict[str, str] | None = None) -> None:
        command = shlex.join(argv)
        writable = [scratch] + ([self.npm_cache] if network and self.npm_cache else [])
        if network and self.npm_cache:
            self.npm_cache.mkdir(parents=True, exist_ok=True)
        log = LogBuffer()
        with _timed(attempt, step):
            proc = self.sandbox.spawn(argv, workspace=cwd or attempt.workspace,
                                      env=self._env(scratch, network=network, **(env or {})),
                                      log=log, network=network, writable=writable)
            try:
                code = proc.wait(timeout)
            finally:
                proc.stop()  # also whatever the step left running in the background
        attempt.note(f"$ {command}\n{log.text()}")
        if code is None:
            raise DeployFailed(f"{step} timed out after {timeout:g}s: {command}\n"
                               + tail_lines(log.text()), timed_out=True)
        if code != 0:
            raise DeployFailed(f"{step} failed (exit {code}): {command}\n"
                               + tail_lines(log.text()))

    def _serve_static(self, attempt: _Attempt, root: Path) -> str:
        with _timed(attempt, "serve"):
            server = None
            for _ in range(5):
                lease = self.ports.lease()
                try:
                    server = StaticServer(root, lease.port)
                    break
                except OSError:  # lost a race with a process outside our leases
                    lease.release()
            if server is None:
                raise DeployFailed("could not bind a port for the static server")
            attempt.cleanups += [lease.release, server.stop]
        attempt.meta["served_dir"] = str(root.relative_to(attempt.workspace))
        attempt.meta["port"] = str(lease.port)
        attempt.note(f"serving {root} at {server.url}")
        with _timed(attempt, "health"):
            status = wait_http(server.url, lambda s: s == 200, self.timeouts.health)
        if status != 200:
            raise DeployFailed(f"static server: GET / returned {status} instead of 200")
        return server.url

    def _start(self, attempt: _Attempt, scratch: Path, script: str, body: str) -> str:
        lease = self.ports.lease()
        attempt.cleanups.append(lease.release)
        port, host = lease.port, self.sandbox.bind_host
        argv = ["npm", "run", script]
        flags = _port_flags(body, port, host)
        if flags:
            argv += ["--", *flags]
        attempt.meta.update(script=script, port=str(port))
        return self._launch(attempt, scratch, argv, attempt.workspace, port,
                            {"PORT": str(port), "HOST": host}, "/", self.timeouts.start,
                            "the app must listen on $PORT")

    def _launch(self, attempt: _Attempt, scratch: Path, argv: list[str], cwd: Path, port: int,
                extra_env: dict[str, str], path: str, start_timeout: float, hint: str) -> str:
        """Run the server ``argv`` from ``cwd`` in the sandbox (no network) until
        ``http://127.0.0.1:port{path}`` answers 200."""
        base = f"http://{HOST}:{port}/"
        url = base + path.lstrip("/")
        attempt.server_log = log = LogBuffer()
        env = self._env(scratch, network=False, **extra_env)
        with _timed(attempt, "start"):
            proc = self.sandbox.spawn(argv, workspace=cwd, env=env, log=log,
                                      network=False, writable=[scratch], expose_port=port)
            attempt.cleanups.append(proc.stop)
            if proc.pid is not None:  # leader of the process group stop() kills
                attempt.meta["pid"] = str(proc.pid)
            status, moved = self._wait_started(url, port, proc, start_timeout)
        command = shlex.join(argv)
        shown = " ".join(f"{k}={v}" for k, v in extra_env.items())
        attempt.note(f"$ {command}  ({shown})\n{log.text()}")
        if moved:
            app_port, base = moved
            url = base + path.lstrip("/")
            # a server that hard-codes its port (or a script with a port flag of its own): a
            # bounded repair of configuration, recorded and cited, not a failed deploy
            attempt.meta["app_port"] = str(app_port)
            _record_repair(attempt, f"port {app_port}")
            attempt.note(f"the app listens on port {app_port}, not on $PORT={port}; "
                         f"routed {base} to it")
        if status is None:
            code = proc.poll()
            if code is not None:
                raise DeployFailed(f"`{command}` exited (code {code}) before serving on port "
                                   f"{port}\n" + tail_lines(log.text()))
            raise DeployFailed(f"`{command}` did not answer HTTP on {HOST}:{port} within "
                               f"{start_timeout:g}s ({hint})\n" + tail_lines(log.text()))
        with _timed(attempt, "health"):
            status = wait_http(url, lambda s: s == 200, self.timeouts.health, proc)
        if status != 200:
            raise DeployFailed(f"GET {path} returned {status} instead of 200 within "
                               f"{self.timeouts.health:g}s\n" + tail_lines(log.text()))
        return base

    def _wait_started(self, url: str, port: int, proc: SandboxProcess, timeout: float
                      ) -> tuple[int | None, tuple[int, str] | None]:
        """Poll ``url`` until it answers HTTP, the process exits or the start timeout passes.
        Meanwhile, once the app listens on some port but not on ``port``, route to the first
        of its ports that answers HTTP. Returns (last status, (app port, url) if rerouted)."""
        deadline = time.monotonic() + timeout
        tried: set[int] = {port}
        first_seen: float | None = None
        while True:
            status = probe_http(url)
            if status is not None or proc.poll() is not None or time.monotonic() >= deadline:
                return status, None
            others = proc.listening_ports() - tried
            if others and first_seen is None:
                first_seen = time.monotonic()
            # a dev server may open a side port (live reload, HMR) just before $PORT: wait
            if not others or time.monotonic() - first_seen < _OTHER_PORT_GRACE:
                time.sleep(PROBE_INTERVAL)
                continue
            for other in sorted(others):
                tried.add(other)
                reachable = proc.reroute(other)
                if reachable is None:
                    break
                moved = f"http://{HOST}:{reachable}/"
                status = probe_http(moved)
                if status is not None:
                    return status, (other, moved)
                proc.reroute(port)
            time.sleep(PROBE_INTERVAL)


def _record_repair(attempt: _Attempt, repair: str) -> None:
    previous = attempt.meta.get("repair")
    attempt.meta["repair"] = f"{previous}; {repair}" if previous else repair


@contextmanager
def _timed(attempt: _Attempt, step: str) -> Iterator[None]:
    started = time.monotonic()
    try:
        yield
    finally:
        took = time.monotonic() - started
        attempt.timings[step] = attempt.timings.get(step, 0.0) + took


def _no_project_error(ws: Path, found: detect.Detection) -> str:
    if found.package_error:
        return (f"{found.package_error}, and no index.html (root, dist/, build/, public/) "
                f"in {ws}")
    if (ws / "package.json").is_file():
        return ("package.json has no build, start, dev or preview script, and no index.html "
                f"(root, dist/, build/, public/) in {ws}")
    return detect.NO_PROJECT_ERROR.replace("WORKSPACE", str(ws))


def _port_flags(script_body: str, port: int, host: str) -> list[str]:
    """Flags for the tool that runs last in the script, since npm appends args at the end."""
    last = script_body.replace("&&", ";").replace("||", ";").split(";")[-1]
    words = [w for w in last.split() if "=" not in w or w.startswith("-")]
    if words and words[0] in ("npx", "pnpm", "yarn", "bunx"):
        words = words[1:]
    tool = words[0].rsplit("/", 1)[-1] if words else ""
    make = _PORT_FLAGS.get(tool)
    return make(port, host) if make else []


class ExternalDeployer:
    """Deploys nothing: the app already runs at ``url`` (``asuka eval --url``). Same interface
    as ``Deployer``, so the loop evaluates it like any deployed workspace."""

    def __init__(self, url: str) -> None:
        self.url = url

    def deploy(self, workspace: Path | str, serve: ServeSpec | None = None,
               task_root: Path | str | None = None) -> Deployment:
        return Deployment(DeployResult(ok=True, kind="external", url=self.url,
                                       meta={"external": self.url}), cleanups=[])
