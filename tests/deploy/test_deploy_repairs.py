"""What the deployer repairs and how it finds a build's output (issue #17 item 2): the
index.html the build wrote, an old output served with a warning, a peer-dependency conflict
retried with --legacy-peer-deps (against a local npm registry), npm's default start; each
repair recorded for the build engineer. Real npm, real processes."""

from __future__ import annotations

import json
import shutil

import pytest

from asuka.deploy import Deployer
from tests.deploy.test_deploy import (
    SANDBOXES,
    SCRIPTS,
    TIMEOUTS,
    fetch,
    needs_npm,
    npm_project,
    write_files,
)

VITE_LIKE_BUILD = """
const fs = require('fs');
fs.mkdirSync('src/dist', {recursive: true});
fs.writeFileSync('src/dist/index.html', '<!doctype html><h1>built app</h1>');
"""


@needs_npm
@pytest.mark.npm
def test_the_deployer_serves_what_the_build_wrote(tmp_path):
    """A Vite project with ``root: 'src'`` builds into src/dist/; the unbuilt entries (the root
    and src/ index.html, which load /src/main.tsx) must not be served."""
    entry = '<!doctype html><div id="root"></div><script type="module" src="/src/main.tsx">'
    npm_project(tmp_path, {"build": "node build.cjs"}, **{
        "build.cjs": VITE_LIKE_BUILD, "index.html": entry, "src/index.html": entry,
        "src/main.tsx": "export {}", "dist/old.txt": "stale"})
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert dep.result.meta["served_dir"] == "src/dist"
        assert b"built app" in fetch(dep.url)[2]
        assert "warning" not in dep.result.meta


@needs_npm
@pytest.mark.npm
def test_an_old_build_output_is_served_with_a_warning(tmp_path):
    """The build exits 0 but writes nothing: last round's dist/ is served, and the record says
    so."""
    npm_project(tmp_path, {"build": "node -e 1"}, **{"dist/index.html": "<h1>last round</h1>"})
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert dep.result.meta["served_dir"] == "dist"
        assert dep.result.meta["warning"] == "served dist/index.html, which this build did not write"
        assert "warning: the build did not write dist/index.html" in dep.result.log


@needs_npm
@pytest.mark.npm
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_peer_dependency_conflict_is_repaired_and_recorded(tmp_path, sandbox, monkeypatch):
    """npm 7+ refuses a peer-dependency conflict (ERESOLVE) that older npm accepted: the
    deployer retries with --legacy-peer-deps, a bounded repair the build engineer cites.
    The packages come from a registry on 127.0.0.1 that npm uses unchanged."""
    from asuka.evaluators import BuildInput
    from asuka.evaluators._checks import no_repairs
    from tests.npm_registry import NpmRegistry

    registry = NpmRegistry({"peer-a": {"1.0.0": {"peerDependencies": {"peer-b": "^2.0.0"}}},
                            "peer-b": {"1.0.0": {}, "2.0.0": {}}})
    monkeypatch.setenv("npm_config_registry", registry.url)
    try:
        write_files(tmp_path, {
            "package.json": json.dumps({
                "name": "fixture", "version": "1.0.0", "private": True,
                "dependencies": {"peer-a": "1.0.0", "peer-b": "1.0.0"},
                "scripts": {"build": "node build.cjs"}}),
            "build.cjs": "require('fs').mkdirSync('dist', {recursive: true});"
                         "require('fs').writeFileSync('dist/index.html', '<h1>peers</h1>');"})
        with Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(tmp_path) as dep:
            assert dep.result.ok, dep.result.error
            assert b"peers" in fetch(dep.url)[2]
            assert dep.result.meta["repair"] == "--legacy-peer-deps"
            assert "ERESOLVE" in dep.result.log
            verdict, _, evidence = no_repairs(BuildInput(dep.result, None))
            assert verdict == "fail" and "retrying with --legacy-peer-deps" in evidence[0]
    finally:
        registry.stop()
    assert "peer-a/-/peer-a-1.0.0.tgz" in registry.requests


@needs_npm
@pytest.mark.npm
def test_without_a_start_script_server_js_starts_as_npm_does(tmp_path):
    """package.json without scripts and a server.js: npm's own default for `npm start`; the
    deploy works and the record says the project lacked its start script (a repair the build
    engineer cites)."""
    from asuka.evaluators import BuildInput
    from asuka.evaluators._checks import no_repairs

    shutil.copy(SCRIPTS / "server.cjs", tmp_path / "server.js")
    npm_project(tmp_path, {})
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert dep.result.kind == "npm-start"
        assert b"hello from start" in fetch(dep.url)[2]
        verdict, _, evidence = no_repairs(BuildInput(dep.result, None))
        assert verdict == "fail" and "has no start script" in evidence[0]
    # without server.js there is still nothing to deploy
    (tmp_path / "server.js").unlink()
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert not dep.result.ok and "no build, start, dev or preview script" in dep.result.error


HARD_CODED_PORT_SERVER = """
const http = require('http');
// ignores $PORT: the port is written into the source, as agents often do
http.createServer((req, res) => {
  res.writeHead(200, {'Content-Type': 'text/html'});
  res.end('<h1>hard-coded port</h1>');
}).listen(%d);
"""


def _free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@needs_npm
@pytest.mark.npm
@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_a_server_that_hard_codes_its_port_is_routed_to(tmp_path, sandbox):
    """The start script's server listens on its own port instead of $PORT: the deployer finds
    the port among the sockets the app's processes own (inside the sandbox's network namespace
    under bwrap), routes to it, and records the repair the build engineer cites."""
    from asuka.evaluators import BuildInput
    from asuka.evaluators._checks import no_repairs

    own_port = _free_port()
    npm_project(tmp_path, {"start": "node server.cjs"},
                **{"server.cjs": HARD_CODED_PORT_SERVER % own_port})
    with Deployer(sandbox=sandbox, timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert b"hard-coded port" in fetch(dep.url)[2]
        assert dep.result.meta["app_port"] == str(own_port)
        assert dep.result.meta["repair"] == f"port {own_port}"
        verdict, _, evidence = no_repairs(BuildInput(dep.result, None))
        assert verdict == "fail"
        assert evidence == [f"the app listens on port {own_port}, not on "
                            f"$PORT={dep.result.meta['port']}; routed {dep.url} to it"]
        if sandbox == "bwrap":  # served through the leased port, not the app's own
            assert dep.url.endswith(f":{dep.result.meta['port']}/")


@needs_npm
@pytest.mark.npm
def test_a_side_port_opened_before_port_is_not_taken_for_the_app(tmp_path):
    """A dev server that opens a live-reload port a moment before $PORT is served on $PORT."""
    side = _free_port()
    server = ("const http = require('http');\n"
              f"http.createServer((q, r) => r.end('reload')).listen({side});\n"
              "setTimeout(() => http.createServer((q, r) => r.end('<h1>the app</h1>'))"
              ".listen(Number(process.env.PORT)), 800);\n")
    npm_project(tmp_path, {"start": "node server.cjs"}, **{"server.cjs": server})
    with Deployer(sandbox="local", timeouts=TIMEOUTS).deploy(tmp_path) as dep:
        assert dep.result.ok, dep.result.error
        assert b"the app" in fetch(dep.url)[2]
        assert "repair" not in dep.result.meta and "app_port" not in dep.result.meta
