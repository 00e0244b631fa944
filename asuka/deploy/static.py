"""Serves a built or hand-written site from our own (trusted) process.

The files come from an untrusted workspace, so a symlink inside it must not become a window onto
the host: every path is resolved and must stay under the root. There are no directory listings.
Unknown extension-less paths fall back to index.html so client-side routers work (as
``vite preview`` does).
"""

from __future__ import annotations

import os
import sys
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from asuka.deploy.ports import HOST

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".cjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".wasm": "application/wasm",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".txt": "text/plain; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".xml": "application/xml",
    ".pdf": "application/pdf",
    ".mp4": "video/mp4",
    ".webm": "video/webm",
    ".mp3": "audio/mpeg",
    ".wav": "audio/wav",
}


class _StaticHandler(SimpleHTTPRequestHandler):
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES, "": "application/octet-stream",
    }

    def __init__(self, *args, directory: str, **kwargs) -> None:
        self.root = os.path.realpath(directory)
        super().__init__(*args, directory=self.root, **kwargs)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - stdlib signature
        pass

    def end_headers(self) -> None:
        # every round rebuilds the app; a cached bundle from the last round would lie
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def _inside_root(self, path: str) -> bool:
        real = os.path.realpath(path)
        return real == self.root or real.startswith(self.root + os.sep)

    def send_head(self):
        path = self.translate_path(self.path)
        is_dir = os.path.isdir(path)
        if not os.path.exists(path) or (is_dir and not os.path.isfile(os.path.join(path, "index.html"))):
            return self._fallback_or_404()
        target = os.path.join(path, "index.html") if is_dir else path
        if not (self._inside_root(path) and self._inside_root(target)):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        return super().send_head()

    def _fallback_or_404(self):
        last = self.path.split("?", 1)[0].split("#", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        index = os.path.join(self.root, "index.html")
        if "." not in last and os.path.isfile(index) and self._inside_root(index):
            self.path = "/"
            return super().send_head()
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None

    def list_directory(self, path):
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address) -> None:
        # A browser that closes a connection mid-response (a navigation, a closed context) is
        # routine during evaluation; socketserver would print a traceback for each one.
        exc = sys.exc_info()[1]
        if isinstance(exc, (BrokenPipeError, ConnectionResetError, ConnectionAbortedError)):
            return
        super().handle_error(request, client_address)


class StaticServer:
    """A ThreadingHTTPServer on 127.0.0.1:port in a background thread."""

    def __init__(self, root: Path, port: int) -> None:
        self.root = Path(root)
        self.port = port
        handler = partial(_StaticHandler, directory=str(self.root))
        self._server = _Server((HOST, port), handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name=f"deploy-static-{port}", daemon=True,
        )
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
