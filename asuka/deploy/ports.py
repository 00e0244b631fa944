"""Port leases on 127.0.0.1 that concurrent deploys, in threads or in separate processes, share
without collisions.

A lease is held three ways: an in-process set (threads), an flock on a per-port lock file
(other asuka processes; the kernel drops it if the process dies), and a bind probe (anything else
already listening). The range sits below Linux's ephemeral range (32768-60999) so outgoing
connections, e.g. npm's, never take a leased port behind our back.
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import socket
import tempfile
import threading
from pathlib import Path

DEFAULT_RANGE = (20000, 29999)
HOST = "127.0.0.1"


class NoFreePort(RuntimeError):
    pass


class PortLease:
    def __init__(self, port: int, lock_fd: int, allocator: PortAllocator) -> None:
        self.port = port
        self._lock_fd: int | None = lock_fd
        self._allocator = allocator

    def release(self) -> None:
        if self._lock_fd is None:
            return
        fd, self._lock_fd = self._lock_fd, None
        self._allocator._forget(self.port, fd)

    @property
    def released(self) -> bool:
        return self._lock_fd is None

    def __enter__(self) -> PortLease:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __repr__(self) -> str:
        state = "released" if self.released else "held"
        return f"PortLease({self.port}, {state})"


class PortAllocator:
    def __init__(self, low: int = DEFAULT_RANGE[0], high: int = DEFAULT_RANGE[1],
                 lock_dir: Path | None = None) -> None:
        if not 1024 <= low <= high <= 65535:
            raise ValueError(f"bad port range {low}-{high}")
        self.low, self.high = low, high
        self.lock_dir = Path(lock_dir or Path(tempfile.gettempdir()) / "asuka-ports")
        self._mutex = threading.Lock()
        self._leased: set[int] = set()
        # start somewhere random so parallel processes do not all fight over the first ports
        self._next = random.randint(low, high)

    def lease(self) -> PortLease:
        self.lock_dir.mkdir(parents=True, exist_ok=True)
        span = self.high - self.low + 1
        with self._mutex:
            for _ in range(span):
                port = self._next
                self._next = self.low + (port - self.low + 1) % span
                if port in self._leased:
                    continue
                fd = self._try_lock(port)
                if fd is None:
                    continue
                if not _bindable(port):
                    _unlock(fd)
                    continue
                self._leased.add(port)
                return PortLease(port, fd, self)
        raise NoFreePort(f"no free port in {self.low}-{self.high} on {HOST}")

    def leased(self) -> set[int]:
        with self._mutex:
            return set(self._leased)

    def _try_lock(self, port: int) -> int | None:
        fd = os.open(self.lock_dir / f"{port}.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                return None
            raise
        return fd

    def _forget(self, port: int, fd: int) -> None:
        with self._mutex:
            self._leased.discard(port)
        _unlock(fd)


def _unlock(fd: int) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        # SO_REUSEADDR mirrors how servers bind, so a port in TIME_WAIT still counts as free
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


_default: PortAllocator | None = None
_default_mutex = threading.Lock()


def default_allocator() -> PortAllocator:
    global _default
    with _default_mutex:
        if _default is None:
            _default = PortAllocator()
        return _default


def lease_port() -> PortLease:
    return default_allocator().lease()
