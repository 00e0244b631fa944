"""A fake Docker Engine for tests: the engine's HTTP API on a unix socket, as the real SDK sees it.

No Docker engine can run on these machines, so the ``docker`` sandboxes are tested at the wire
level: the unchanged ``docker`` SDK talks to this server through ``DOCKER_HOST=unix://...``. It
answers the calls a ``containers.run(detach=True)`` container's life makes (version, ping,
create, start, inspect, logs, wait, kill, delete), records every create body for assertions, and
*runs* the container's command the way an engine would isolate it: in bubblewrap, with the
image's root (here: the host's system dirs, plus the image's own files at ``/image``) read-only,
only the requested bind mounts visible, the container's environment and working dir, and no
network under ``network_mode=none``. So what our code asks the engine for is what the command can
see. Standard library only.
"""

from __future__ import annotations

import json
import os
import re
import socketserver
import struct
import subprocess
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

API_VERSION = "1.43"


@dataclass
class FakeContainer:
    id: str
    body: dict
    proc: subprocess.Popen | None = None
    output: bytes = b""
    exit_code: int | None = None
    removed: bool = False
    done: threading.Event = field(default_factory=threading.Event)


class FakeDockerEngine(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True

    def __init__(self, socket_path: Path, image_root: Path | None = None) -> None:
        self.socket_path = socket_path
        self.image_root = image_root  # the image's own files, seen at /image
        self.containers: dict[str, FakeContainer] = {}
        self.creates: list[dict] = []
        self.calls: list[str] = []
        self._lock = threading.Lock()
        super().__init__(str(socket_path), _Handler)
        self._thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def docker_host(self) -> str:
        return f"unix://{self.socket_path}"

    def start(self) -> FakeDockerEngine:
        self._thread.start()
        return self

    def stop(self) -> None:
        for c in self.containers.values():
            _kill(c)
        self.shutdown()
        self.server_close()

    # ------------------------------------------------------------ container semantics
    def create(self, body: dict) -> FakeContainer:
        with self._lock:
            cid = f"{len(self.containers) + 1:012x}"
            c = FakeContainer(cid, body)
            self.containers[cid] = c
            self.creates.append(body)
        return c

    def run(self, c: FakeContainer) -> None:
        from asuka.deploy.sandbox import BwrapSandbox

        host = c.body.get("HostConfig") or {}
        writable, readonly = [], []
        for bind in host.get("Binds") or []:
            src, dest, mode = (bind.split(":") + ["rw"])[:3]
            assert src == dest, "asuka mounts host paths at the same path"
            (readonly if mode == "ro" else writable).append(Path(src))
        network = host.get("NetworkMode") != "none"
        workdir = Path(c.body.get("WorkingDir") or "/")
        cmd = BwrapSandbox().command(c.body["Cmd"], workspace=workdir, network=network,
                                     writable=[p for p in writable if p != workdir],
                                     readonly=readonly)
        if self.image_root is not None:  # the image's files, which no bind mount provides
            cut = cmd.index("--remount-ro")
            cmd[cut:cut] = ["--ro-bind", str(self.image_root), "/image"]
        env = dict(e.split("=", 1) for e in c.body.get("Env") or [])
        env.setdefault("PATH", "/image/bin:/usr/local/bin:/usr/bin:/bin")
        c.proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  start_new_session=True)

        def reap() -> None:
            c.output = c.proc.stdout.read()
            c.exit_code = c.proc.wait()
            c.done.set()

        threading.Thread(target=reap, daemon=True).start()


def _kill(c: FakeContainer) -> None:
    if c.proc is not None and c.proc.poll() is None:
        try:
            os.killpg(c.proc.pid, 9)
        except ProcessLookupError:
            pass


class _Handler(BaseHTTPRequestHandler):
    server: FakeDockerEngine
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    def address_string(self) -> str:  # a unix socket has no (host, port)
        return "fake-docker"

    def _send(self, status: int, body=None, content_type: str = "application/json") -> None:
        data = b"" if body is None else (body if isinstance(body, bytes) else
                                         json.dumps(body).encode())
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Api-Version", API_VERSION)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self, method: str) -> None:
        url = urlparse(self.path)
        path = re.sub(r"^/v[0-9.]+", "", url.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        self.server.calls.append(f"{method} {path}")
        engine = self.server
        if path == "/version":
            return self._send(200, {"ApiVersion": API_VERSION, "Version": "24.0.0-fake",
                                    "MinAPIVersion": "1.12", "Os": "linux"})
        if path == "/_ping":
            return self._send(200, b"OK", "text/plain")
        if method == "POST" and path == "/containers/create":
            c = engine.create(json.loads(raw or b"{}"))
            return self._send(201, {"Id": c.id, "Warnings": []})
        m = re.fullmatch(r"/containers/([0-9a-f]+)(/[a-z]+)?", path)
        c = engine.containers.get(m.group(1)) if m else None
        if c is None or c.removed:
            return self._send(404, {"message": "No such container"})
        action = m.group(2) or ""
        if method == "POST" and action == "/start":
            engine.run(c)
            return self._send(204)
        if method == "GET" and action == "/json":
            running = c.proc is not None and not c.done.is_set()
            return self._send(200, {
                "Id": c.id, "Config": {**c.body, "Tty": False},
                "State": {"Status": "running" if running else "exited",
                          "Running": running, "ExitCode": c.exit_code or 0}})
        if method == "GET" and action == "/logs":
            c.done.wait()  # follow=true: the stream ends when the container does
            frame = struct.pack(">BxxxL", 1, len(c.output)) + c.output
            return self._send(200, frame, "application/vnd.docker.raw-stream")
        if method == "POST" and action == "/wait":
            c.done.wait()
            return self._send(200, {"StatusCode": c.exit_code, "Error": None})
        if method == "POST" and action == "/kill":
            if c.proc is None or c.done.is_set():
                return self._send(409, {"message": "container is not running"})
            _kill(c)
            return self._send(204)
        if method == "DELETE" and not action:
            if not query.get("force", ["0"])[0] in ("1", "True", "true") and not c.done.is_set():
                return self._send(409, {"message": "container is running"})
            _kill(c)
            c.removed = True
            return self._send(204)
        return self._send(404, {"message": f"fake engine has no {method} {path}"})

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")

    def do_DELETE(self) -> None:
        self._route("DELETE")


@pytest.fixture()
def fake_docker(tmp_path_factory: pytest.TempPathFactory,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeDockerEngine]:
    """A fake engine, with DOCKER_HOST pointing at it (the SDK's own discovery)."""
    base = tmp_path_factory.mktemp("docker")
    engine = FakeDockerEngine(base / "docker.sock", image_root=base / "image").start()
    (base / "image" / "bin").mkdir(parents=True)
    monkeypatch.setenv("DOCKER_HOST", engine.docker_host)
    yield engine
    engine.stop()
