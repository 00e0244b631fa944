"""Deployer tests: real processes, real sandboxes, real HTTP on 127.0.0.1."""

from __future__ import annotations

import fcntl
import hashlib
import http.client
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from asuka.deploy import Deployer, DeployTimeouts, PortAllocator, build_child_env, detect_kind
from asuka.deploy.docker_sandbox import docker_available
from asuka.deploy.procs import LogBuffer
from asuka.deploy.sandbox import bwrap_usable
from tests.builders import FIXTURES
from tests.fake_docker import fake_docker  # noqa: F401 (fixture)

FIXTURES = FIXTURES / "deploy"
SCRIPTS = FIXTURES / "scripts"
HAVE_NPM = shutil.which("npm") is not None and shutil.which("node") is not None
TIMEOUTS = DeployTimeouts(install=180, build=120, start=20, health=15)

needs_npm = pytest.mark.skipif(not HAVE_NPM, reason="node/npm not installed")
needs_bwrap = pytest.mark.skipif(not bwrap_usable(), reason="bubblewrap unusable here")
SANDBOXES = ["local", pytest.param("bwrap", marks=needs_bwrap)]
_NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def fetch(url: str) -> tuple[int, str, bytes]:
    with _NO_PROXY.open(url, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def write_files(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def npm_project(root: Path, scripts: dict[str, str], **files: str) -> Path:
    package = {"name": "fixture", "version": "1.0.0", "private": True, "scripts": scripts}
    write_files(root, {"package.json": json.dumps(package), **files})
    return root


def gone(pid: int) -> bool:
    psutil = pytest.importorskip("psutil")
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def group_gone(pgid: int) -> bool:
    psutil = pytest.importorskip("psutil")
    for proc in psutil.process_iter(["status"]):
        try:
            if os.getpgid(proc.pid) == pgid and proc.info["status"] != psutil.STATUS_ZOMBIE:
                return False
        except (ProcessLookupError, psutil.Error):
            continue
    return True


# ----------------------------------------------------------------- detection


@pytest.mark.parametrize("files, kind", [
    ({"index.html": "x"}, "static"),
    ({"dist/index.html": "x"}, "static"),
    ({"public/index.html": "x"}, "static"),
    ({"package.json": '{"scripts": {"build": "vite build", "dev": "vite"}}', "index.html": "x"},
     "npm-build"),
    ({"package.json": '{"scripts": {"dev": "vite"}}'}, "npm-start"),
    ({"package.json": '{"name": "no-scripts"}', "build/index.html": "x"}, "static"),
    ({"package.json": "{not json"}, "none"),
    ({"README.md": "x"}, "none"),
])
def test_detect_kind(tmp_path, files, kind):
    assert detect_kind(write_files(tmp_path, files)) == kind


# ----------------------------------------------------------------- static


def test_static_root_is_served_and_stops(tmp_path):
    ws = write_files(tmp_path, {"index.html": "<h1>root page</h1>", "dist/index.html": "dist",
                                "app.js": "export const x = 1;", "mod.mjs": "", "s.css": "",
                                "i.svg": "<svg/>", "d.json": "{}"})
    with Deployer(sandbox="local").deploy(ws) as dep:
        assert dep.result.ok, dep.result.error
        assert dep.result.kind == "static" and dep.result.meta["served_dir"] == "."
        assert dep.url.startswith("http://127.0.0.1:")
        status, _, body = fetch(dep.url)
        assert status == 200 and b"root page" in body
        for name, mime in [("app.js", "text/javascript"), ("mod.mjs", "text/javascript"),
                           ("s.css", "text/css"), ("i.svg", "image/svg+xml"),
                           ("d.json", "application/json")]:
            assert fetch(dep.url + name)[1].startswith(mime), name
        url = dep.url
    with pytest.raises(OSError):
        fetch(url)


def test_static_in_dist_preferred_over_build(tmp_path):
    ws = write_files(tmp_path, {"dist/index.html": "<p>from dist</p>",
                                "build/index.html": "<p>from build</p>"})
    with Deployer(sandbox="local").deploy(ws) as dep:
        assert dep.result.ok and dep.result.kind == "static"
        assert dep.result.meta["served_dir"] == "dist"
        assert b"from dist" in fetch(dep.url)[2]


def test_static_server_stays_inside_root(tmp_path):
    secret = write_files(tmp_path / "host", {"secret.txt": "host secret"}) / "secret.txt"
    ws = write_files(tmp_path / "ws", {"index.html": "<p>app</p>", "assets/a.js": "1"})
    (ws / "leak.txt").symlink_to(secret)
    (ws / "hostdir").symlink_to(secret.parent, target_is_directory=True)
    with Deployer(sandbox="local").deploy(ws) as dep:
        port = int(dep.result.meta["port"])
        for path in ["/leak.txt", "/hostdir/secret.txt", "/../host/secret.txt",
                     "/%2e%2e/host/secret.txt", "/assets/"]:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            conn.close()
            assert b"host secret" not in body, path
            assert b"a.js" not in body, f"directory listing at {path}"
        # client-side routes fall back to the app
        assert b"<p>app</p>" in fetch(dep.url + "settings/profile")[2]


def test_neither_index_nor_package_json_fails_cleanly(tmp_path):
    write_files(tmp_path, {"README.md": "nothing to serve", "src/app.js": ""})
    dep = Deployer(sandbox="local").deploy(tmp_path)
    assert not dep.result.ok and dep.result.kind == "none" and dep.url is None
    assert dep.result.error == (
        f"no index.html (root, dist/, build/, public/) and no package.json in {tmp_path}")
    dep.stop()
    dep.stop()  # idempotent


# ----------------------------------------------------------------- ports


def test_port_leases_are_distinct_and_released(tmp_path):
    ports = PortAllocator(31000, 31049, lock_dir=tmp_path)
    with ThreadPoolExecutor(8) as pool:
        leases = list(pool.map(lambda _: ports.lease(), range(40)))
    assert len({lease.port for lease in leases}) == 40
    # a second allocator stands in for another process: the flocks keep it off held ports
    other = PortAllocator(31000, 31049, lock_dir=tmp_path)
    extra = [other.lease() for _ in range(10)]
    assert not {lease.port for lease in extra} & {lease.port for lease in leases}
    for lease in leases + extra:
        lease.release()
    assert ports.leased() == set() and other.leased() == set()
    # a port someone else listens on is skipped
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        one = PortAllocator(busy.getsockname()[1], busy.getsockname()[1] + 1, lock_dir=tmp_path)
        with one.lease() as lease:
            assert lease.port == busy.getsockname()[1] + 1


def test_concurrent_deploys_get_distinct_ports(tmp_path):
    deployer = Deployer(sandbox="local")
    workspaces = [write_files(tmp_path / f"w{i}", {"index.html": f"<p>site {i}</p>"})
                  for i in range(6)]
    with ThreadPoolExecutor(6) as pool:
        deployments = list(pool.map(deployer.deploy, workspaces))
    try:
        assert all(d.result.ok for d in deployments)
        assert len({d.url for d in deployments}) == 6
        for i, dep in enumerate(deployments):
            assert f"site {i}".encode() in fetch(dep.url)[2]
    finally:
        for dep in deployments:
            dep.stop()


# ----------------------------------------------------------------- npm + sandboxes


@needs_npm
@pytest.mark.npm
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_failing_build_reports_log_tail(tmp_path, sandbox):
    npm_project(tmp_path, {"build": "node -e \"console.error('boom-marker'); process.exit(1)\""})
    dep = Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(tmp_path)
    assert not dep.result.ok and dep.result.kind == "npm-build" and dep.url is None
    assert dep.result.error.startswith("build failed (exit 1): npm run build")
    assert "boom-marker" in dep.result.error
    # nothing to install: the step is skipped rather than run for nothing
    assert "skipping install" in dep.result.log and "boom-marker" in dep.result.log
    assert "build" in dep.result.timings and "install" not in dep.result.timings


@needs_npm
@pytest.mark.npm
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_npm_start_serves_and_stop_kills_everything(tmp_path, sandbox):
    psutil = pytest.importorskip("psutil")
    shutil.copy(SCRIPTS / "server.cjs", tmp_path / "server.cjs")
    npm_project(tmp_path, {"start": "node server.cjs --spawn-detached"})
    dep = Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(tmp_path)
    try:
        assert dep.result.ok, dep.result.error + "\n" + dep.result.log
        assert dep.result.kind == "npm-start"
        status, _, body = fetch(dep.url)
        assert status == 200 and b"hello from start" in body
        leader = int(dep.result.meta["pid"])
        tree = [leader] + [p.pid for p in psutil.Process(leader).children(recursive=True)]
        names = {psutil.Process(p).name() for p in tree}
        assert "sleep" in names, names  # the detached grandchild is running
    finally:
        dep.stop()
    deadline = time.monotonic() + 5
    while not (all(gone(p) for p in tree) and group_gone(leader)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [p for p in tree if not gone(p)] == []
    assert group_gone(leader)
    with pytest.raises(OSError):
        fetch(dep.url)


@needs_npm
@pytest.mark.npm
@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_start_that_never_listens_times_out(tmp_path, sandbox):
    npm_project(tmp_path, {"start": "node -e \"setInterval(() => {}, 1000)\""})
    timeouts = TIMEOUTS.model_copy(update={"start": 3})
    started = time.monotonic()
    dep = Deployer(sandbox=sandbox, timeouts=timeouts).deploy(tmp_path)
    assert time.monotonic() - started < 30
    assert not dep.result.ok and dep.result.kind == "npm-start"
    assert "did not answer HTTP" in dep.result.error and "within 3s" in dep.result.error
    leader = int(dep.result.meta["pid"])
    assert gone(leader) and group_gone(leader)


@needs_npm
@pytest.mark.npm
def test_build_without_output_falls_back_to_start(tmp_path):
    shutil.copy(SCRIPTS / "server.cjs", tmp_path / "server.cjs")
    npm_project(tmp_path, {"build": "node -e \"1\"", "start": "node server.cjs"})
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert dep.result.kind == "npm-start" and dep.result.meta["script"] == "start"
        assert b"hello from start" in fetch(dep.url)[2]


@needs_npm
@pytest.mark.npm
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_api_keys_never_reach_the_build(tmp_path, sandbox, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-should-not-leak")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp-should-not-leak")
    monkeypatch.setenv("MY_SECRET_THING", "should-not-leak")
    shutil.copy(SCRIPTS / "envdump.cjs", tmp_path / "envdump.cjs")
    npm_project(tmp_path, {"build": "node envdump.cjs"})
    with Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        env = json.loads(fetch(dep.url + "env.json")[2])
    assert "OPENAI_API_KEY" not in env and "GITHUB_TOKEN" not in env
    assert "should-not-leak" not in json.dumps(env)
    assert env["HOME"] != os.environ.get("HOME")


def test_child_env_is_an_allowlist():
    parent = {"PATH": "/usr/bin", "OPENAI_API_KEY": "k", "ANTHROPIC_API_KEY": "k",
              "AWS_SECRET_ACCESS_KEY": "k", "NPM_TOKEN": "k", "RANDOM_VAR": "x",
              "HTTPS_PROXY": "http://127.0.0.1:3128", "HTTP_PROXY": "http://user:pw@127.0.0.1:3128"}
    offline = build_child_env({"PORT": "1", "HOST": "127.0.0.1", "X_API_KEY": "k"},
                              network=False, parent=parent)
    assert offline["PATH"] == "/usr/bin" and offline["PORT"] == "1"
    assert not {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AWS_SECRET_ACCESS_KEY", "NPM_TOKEN",
                "RANDOM_VAR", "X_API_KEY", "HTTPS_PROXY"} & set(offline)
    online = build_child_env({}, network=True, parent=parent)
    assert online["HTTPS_PROXY"] == "http://127.0.0.1:3128" and "HTTP_PROXY" not in online


@needs_npm
@needs_bwrap
@pytest.mark.npm
def test_bwrap_build_cannot_write_outside_or_reach_network(tmp_path):
    results = {}
    for sandbox in ("bwrap", "local"):
        outside = tmp_path / f"outside-{sandbox}" / "escaped.txt"
        outside.parent.mkdir()
        ws = tmp_path / f"ws-{sandbox}"
        shutil.copytree(SCRIPTS, ws)
        with socket.socket() as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen()
            config = {"outside": str(outside), "port": listener.getsockname()[1]}
            npm_project(ws, {"build": "node probe.cjs"},
                        **{"probe-config.json": json.dumps(config)})
            with Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(ws) as dep:
                assert dep.result.ok, dep.result.error
        results[sandbox] = (json.loads((ws / "result.json").read_text()), outside.exists())
    (bwrap, bwrap_escaped), (local, local_escaped) = results["bwrap"], results["local"]
    # the local run proves the probe works: without a sandbox both escapes succeed
    assert local == {"outside": "written", "net": "connected"} and local_escaped
    assert bwrap["outside"] != "written" and not bwrap_escaped
    assert bwrap["net"] != "connected", bwrap


# ----------------------------------------------------------------- vite fixture


@pytest.fixture(scope="session")
def vite_node_modules(request, tmp_path_factory) -> Path:
    """node_modules of the Vite fixture, installed once per package-lock.json and kept in the
    pytest cache across sessions."""
    if not HAVE_NPM:
        pytest.skip("node/npm not installed")
    app = FIXTURES / "vite-app"
    key = hashlib.sha256((app / "package-lock.json").read_bytes()).hexdigest()[:16]
    store = getattr(request.config, "cache", None)  # None under -p no:cacheprovider
    root = store.mkdir("asuka-deploy") if store else tmp_path_factory.mktemp("asuka-deploy")
    cache = Path(root) / f"vite-{key}"
    modules = cache / "node_modules"
    with open(cache.parent / "install.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel workers install once
        if not (modules / ".package-lock.json").is_file():
            stage = tmp_path_factory.mktemp("vite-install")
            shutil.copy(app / "package.json", stage)
            shutil.copy(app / "package-lock.json", stage)
            done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=stage,
                                  capture_output=True, text=True, timeout=300)
            if done.returncode != 0:
                pytest.skip(f"npm ci failed (registry unreachable?): {done.stderr[-500:]}")
            cache.mkdir(exist_ok=True)
            shutil.rmtree(modules, ignore_errors=True)
            shutil.move(stage / "node_modules", modules)
    return modules


def _link_or_copy(src: str, dst: str) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture
def vite_workspace(tmp_path, vite_node_modules) -> Path:
    ws = tmp_path / "vite-app"
    shutil.copytree(FIXTURES / "vite-app", ws, ignore=shutil.ignore_patterns("node_modules",
                                                                             "dist"))
    shutil.copytree(vite_node_modules, ws / "node_modules", symlinks=True,
                    copy_function=_link_or_copy)
    return ws


@pytest.mark.npm
@pytest.mark.slow
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_vite_fixture_builds_and_serves(vite_workspace, sandbox):
    with Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(vite_workspace) as dep:
        assert dep.result.ok, f"{dep.result.error}\n{dep.result.log}"
        assert dep.result.kind == "npm-build" and dep.result.meta["served_dir"] == "dist"
        assert "vite" in dep.result.log and "$ npm install" in dep.result.log
        status, mime, html = fetch(dep.url)
        assert status == 200 and mime.startswith("text/html")
        script = html.decode().split('src="', 1)[1].split('"', 1)[0]
        status, mime, js = fetch(dep.url + script.lstrip("/"))
        assert status == 200 and mime.startswith("text/javascript")
        assert b"Increment" in js and b"Count: " in js


# ----------------------------------------------------------------- docker, logs


needs_docker = pytest.mark.skipif(not docker_available(), reason="no Docker engine")


@pytest.fixture
def docker_image(monkeypatch):
    """The image the docker sandbox runs: ``node:20`` when the engine has it, else one built
    here from this machine's Node (no registry is needed)."""
    import docker

    from asuka.deploy.docker_image import build_host_node_image

    client = docker.from_env()
    try:
        client.images.get("node:20")
        return "node:20"
    except docker.errors.ImageNotFound:
        tag = build_host_node_image(client)
    monkeypatch.setenv("ASUKA_DOCKER_IMAGE", tag)
    return tag


def our_containers() -> list:
    import docker

    return docker.from_env().containers.list(all=True, filters={"label": "asuka=deploy"})


@pytest.mark.npm
@needs_docker
def test_docker_sandbox_builds(tmp_path, docker_image):
    """A real engine: the build runs in a container of the image, without the parent's
    secrets; the container is gone afterwards."""
    shutil.copy(SCRIPTS / "envdump.cjs", tmp_path / "envdump.cjs")
    npm_project(tmp_path, {"build": "node envdump.cjs"})
    os.environ["ASUKA_TEST_SECRET_API_KEY"] = "never-in-a-container"
    try:
        with Deployer(sandbox="docker", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
            assert dep.result.ok, dep.result.error
            page = fetch(dep.url)[2]
            assert b"env" in page and b"never-in-a-container" not in page
    finally:
        del os.environ["ASUKA_TEST_SECRET_API_KEY"]
    assert our_containers() == []


@pytest.mark.npm
@needs_docker
def test_docker_sandbox_serves_on_the_hosts_loopback_and_builds_offline(tmp_path,
                                                                         docker_image):
    """npm start in a container on the host's network (no bridge: the engine has none),
    reached on 127.0.0.1; a build step has no network at all: it cannot reach a server on the
    host's loopback."""
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    import docker

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"reached")

        def log_message(self, *args):
            pass

    host = HTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=host.serve_forever, daemon=True).start()
    try:
        shutil.copy(SCRIPTS / "server.cjs", tmp_path / "server.cjs")
        reach = (f"node -e \"require('http').get('http://127.0.0.1:{host.server_port}/', r => "
                 "{ console.log('NETWORK ' + 'REACHED'); process.exit(0) }).on('error', e => { "
                 "console.log('offline: ' + e.code); process.exit(0) })\"")
        npm_project(tmp_path, {"build": f"{reach} && node -e \"1\"",
                               "start": "node server.cjs"})
        with Deployer(sandbox="docker", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
            assert dep.result.ok, dep.result.error + "\n" + dep.result.log
            assert dep.result.kind == "npm-start", dep.result.log
            assert "offline: " in dep.result.log and "NETWORK REACHED" not in dep.result.log
            status, _, body = fetch(dep.url)
            assert status == 200 and b"hello from start" in body
            modes = {c.attrs["HostConfig"]["NetworkMode"] for c in our_containers()}
            assert modes <= {"host", "none"}, modes
    finally:
        host.shutdown()
    assert our_containers() == []
    networks = {n.name for n in docker.from_env().networks.list()}
    assert "bridge" not in networks or not docker.from_env().networks.get(
        "bridge").attrs.get("Containers")


@pytest.mark.npm
@pytest.mark.skipif(not bwrap_usable(), reason="the fake engine isolates with bubblewrap")
def test_docker_sandbox_at_the_wire(tmp_path, fake_docker):
    """The deploy's docker steps through the real SDK against the fake engine: the build runs in
    a container that mounts only the workspace and the deploy's scratch dir, without the
    parent's secrets, and every container is removed afterwards."""
    shutil.copy(SCRIPTS / "envdump.cjs", tmp_path / "envdump.cjs")
    npm_project(tmp_path, {"build": "node envdump.cjs"})
    with Deployer(sandbox="docker", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert b"env" in fetch(dep.url)[2]
    assert fake_docker.creates, "no container was asked for"
    for body in fake_docker.creates:
        assert body["Labels"] == {"asuka": "deploy"}
        assert all(b.split(":")[0].startswith(str(tmp_path)) or "asuka-" in b
                   for b in body["HostConfig"]["Binds"]), body["HostConfig"]["Binds"]
        assert not any("SECRET" in e or "API_KEY" in e for e in body["Env"])
    assert all(c.removed for c in fake_docker.containers.values())


def test_log_buffer_keeps_head_and_tail():
    log = LogBuffer(head_chars=20, tail_chars=20)
    log.write("\x1b[31mhead\x1b[0m\n")  # 14 chars, colour codes stripped on read
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(log.write, ["x" * 50] * 40))
    log.write("tail\n")
    text = log.text()
    assert text.startswith("head\nxxxxxx\n[... 1979 characters omitted ...]\n")
    assert text.endswith("x" * 15 + "tail\n")
