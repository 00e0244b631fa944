"""Shared pytest fixtures."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest


class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def send_html(self, body: bytes, status: int = 200) -> None:
        """Answer with an HTML page (for handlers that add routes)."""
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class StaticServer:
    """Serves ``directory`` on 127.0.0.1 (ephemeral port) from a background thread.

    ``handler`` may be a subclass of ``QuietHandler`` adding routes (it gets ``directory=``)."""

    def __init__(self, directory: Path | str, handler: type[SimpleHTTPRequestHandler] = QuietHandler
                 ) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0),
                                         partial(handler, directory=str(directory)))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.running = False
            self.httpd.shutdown()
            self.httpd.server_close()


@pytest.fixture
def static_server() -> Iterator[Callable[..., StaticServer]]:
    """Factory: ``static_server(directory, handler=QuietHandler) -> StaticServer`` (``.url``,
    ``.stop()``); every server started is stopped at teardown."""
    servers: list[StaticServer] = []

    def start(directory: Path | str, handler: type[SimpleHTTPRequestHandler] = QuietHandler
              ) -> StaticServer:
        server = StaticServer(directory, handler)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
