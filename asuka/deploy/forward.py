"""Bridges across a sandbox without a network.

A server started under ``--unshare-net`` listens on the loopback of its own network namespace,
which the host cannot reach. A unix socket on a bind-mounted path crosses that boundary, so:

    browser -> 127.0.0.1:P (TcpToUnixForwarder, here) -> relay.sock -> RELAY_JS (in the sandbox)
            -> 127.0.0.1:P inside the sandbox -> the app

Connections only ever go inwards: the sandbox gets nothing it could dial out through.

The other way, for a sandboxed client that must reach one served app and nothing else (a
diagnostic probe script): REACH_JS listens on 127.0.0.1:P inside the sandbox and passes each
connection through reach.sock to UnixToTcpForwarder, here, which connects to 127.0.0.1:P on the
host. The sandbox can dial that one port only.
"""

from __future__ import annotations

import socket
import socketserver
import threading
from pathlib import Path

from asuka.deploy.ports import HOST

RELAY_JS = r"""
// Runs inside the sandbox: accept on a unix socket, connect to the app on sandbox loopback, on
// $PORT, or on the port the deployer wrote into the target file (an app that hard-codes its port).
const net = require("net");
const fs = require("fs");
const [sock, port] = process.argv.slice(2);
const targetFile = sock + ".port";
const target = () => {
  try { return Number(fs.readFileSync(targetFile, "utf8")) || Number(port); }
  catch (e) { return Number(port); }
};
try { fs.unlinkSync(sock); } catch (e) {}
net.createServer((outer) => {
  const inner = net.connect(target(), "127.0.0.1");
  outer.pipe(inner);
  inner.pipe(outer);
  inner.on("error", () => outer.destroy());
  outer.on("error", () => inner.destroy());
}).listen(sock);
"""


REACH_JS = r"""
// Runs inside the sandbox: accept on 127.0.0.1:port, pass each connection to the unix socket
// whose other end reaches the same port on the host.
const net = require("net");
const [sock, port] = process.argv.slice(2);
net.createServer((inner) => {
  const outer = net.connect(sock);
  inner.pipe(outer);
  outer.pipe(inner);
  outer.on("error", () => inner.destroy());
  inner.on("error", () => outer.destroy());
}).listen(Number(port), "127.0.0.1");
"""


def write_reach(directory: Path) -> tuple[Path, Path]:
    """Write the reaching relay into ``directory``; return (script, socket path)."""
    script = directory / "reach.cjs"
    script.write_text(REACH_JS, encoding="utf-8")
    return script, directory / "reach.sock"


def write_relay(directory: Path) -> tuple[Path, Path]:
    """Write the relay script into ``directory``; return (script, socket path)."""
    script = directory / "relay.cjs"
    script.write_text(RELAY_JS, encoding="utf-8")
    return script, directory / "relay.sock"


def retarget_relay(sock: Path, port: int) -> None:
    """Point the relay behind ``sock`` at another port inside the sandbox (next connection on)."""
    tmp = sock.with_name(sock.name + ".port.tmp")
    tmp.write_text(str(port), encoding="utf-8")
    tmp.replace(sock.with_name(sock.name + ".port"))  # atomic: the relay never reads half a file


def _pipe(src: socket.socket, dst: socket.socket) -> None:
    try:
        while data := src.recv(65536):
            dst.sendall(data)
    except OSError:
        pass
    finally:
        # half-close so the other direction can finish its response
        try:
            dst.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def _splice(client: socket.socket, upstream: socket.socket) -> None:
    """Copy both ways until both sides are done, then close the upstream socket."""
    back = threading.Thread(target=_pipe, args=(upstream, client), daemon=True)
    back.start()
    _pipe(client, upstream)
    back.join()
    upstream.close()


class _Handler(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(str(self.server.unix_path))
        except OSError:
            # relay not up yet: closing without a byte reads as "not ready" to the health probe
            upstream.close()
            return
        _splice(self.request, upstream)


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    unix_path: Path


class _UnixHandler(socketserver.BaseRequestHandler):
    server: _UnixServer

    def handle(self) -> None:
        try:
            upstream = socket.create_connection((HOST, self.server.port), timeout=10)
        except OSError:
            return
        upstream.settimeout(None)
        _splice(self.request, upstream)


class _UnixServer(socketserver.ThreadingUnixStreamServer):
    daemon_threads = True
    port: int


class _Forwarder:
    """A socket server on a thread of its own, until ``stop``."""

    def __init__(self, server: socketserver.BaseServer, name: str) -> None:
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, name=name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class TcpToUnixForwarder(_Forwarder):
    """Connections on the host's 127.0.0.1:``port`` go to ``unix_path`` (into a sandbox)."""

    def __init__(self, port: int, unix_path: Path) -> None:
        server = _Server((HOST, port), _Handler)
        server.unix_path = unix_path
        super().__init__(server, f"deploy-forward-{port}")


class UnixToTcpForwarder(_Forwarder):
    """Connections on ``unix_path`` go to 127.0.0.1:``port`` on the host (and only there)."""

    def __init__(self, unix_path: Path, port: int) -> None:
        server = _UnixServer(str(unix_path), _UnixHandler)
        server.port = port
        super().__init__(server, f"deploy-reach-{port}")
