"""A tiny npm registry for tests (standard library only): packuments and tarballs of packages
the test declares, on 127.0.0.1. npm talks to it unchanged through ``npm_config_registry``."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def _tarball(manifest: dict) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        data = json.dumps(manifest).encode()
        info = tarfile.TarInfo("package/package.json")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


class NpmRegistry:
    """``NpmRegistry({"peer-a": {"1.0.0": {"peerDependencies": {...}}}})``; ``.url``."""

    def __init__(self, packages: dict[str, dict[str, dict[str, Any]]]) -> None:
        self.tarballs: dict[str, bytes] = {}
        self.packuments: dict[str, dict] = {}
        self.requests: list[str] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/"
        for name, versions in packages.items():
            doc: dict[str, Any] = {"name": name, "versions": {},
                                   "dist-tags": {"latest": max(versions)}}
            for version, extra in versions.items():
                manifest = {"name": name, "version": version, **extra}
                tgz = _tarball(manifest)
                path = f"{name}/-/{name}-{version}.tgz"
                self.tarballs[path] = tgz
                integrity = "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()
                doc["versions"][version] = {**manifest, "dist": {
                    "tarball": self.url + path, "shasum": hashlib.sha1(tgz).hexdigest(),
                    "integrity": integrity}}
            self.packuments[name] = doc
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        registry = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                path = self.path.lstrip("/").split("?")[0]
                registry.requests.append(path)
                if path in registry.tarballs:
                    body, kind = registry.tarballs[path], "application/octet-stream"
                elif path in registry.packuments:
                    body, kind = json.dumps(registry.packuments[path]).encode(), \
                        "application/json"
                else:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
