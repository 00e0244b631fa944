"""Where the workspace's own commands (npm install, build, start) run.

The workspace is written by an untrusted code agent, and its package.json scripts are its code.
Backends, by name:

- ``local``: a plain subprocess. No isolation beyond a scrubbed environment.
- ``bwrap``: bubblewrap. System dirs read-only, the workspace (and the deploy's scratch dir) the
  only writable host paths, a private /tmp, no capabilities, own pid namespace (so the whole tree
  dies with it), and no network unless the step asks for it (only ``npm install`` does).
- ``docker``: a ``node:20`` (or ``ASUKA_DOCKER_IMAGE``) container with the workspace mounted, on
  the host's network or none (see ``docker_sandbox``).
- ``auto``: bwrap if it works on this machine (probed once per process), else local.

Whatever the backend, the child's environment is built from an allowlist: API keys, tokens and
other secrets of the parent never reach it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from asuka.deploy.forward import (
    TcpToUnixForwarder,
    UnixToTcpForwarder,
    retarget_relay,
    write_reach,
    write_relay,
)
from asuka.deploy.procs import LogBuffer, descendants, kill_tree, listening_ports, start_process
from asuka.redaction import is_secret_name
from asuka.registry import Registry

# passed through from the parent when set
ENV_ALLOW = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM")
# only to steps with network access (npm install), and only without credentials in them
ENV_NETWORK_ALLOW = (
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
    "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
    "npm_config_registry", "NPM_CONFIG_REGISTRY",
)
# set for every step: quiet, non-interactive tools that never phone home or open a browser
ENV_FIXED = {
    "BROWSER": "none",
    "NO_COLOR": "1",
    "FORCE_COLOR": "0",
    "NO_UPDATE_NOTIFIER": "1",
    "npm_config_update_notifier": "false",
    "npm_config_fund": "false",
    "npm_config_audit": "false",
    "NEXT_TELEMETRY_DISABLED": "1",
    "ASTRO_TELEMETRY_DISABLED": "1",
    "GATSBY_TELEMETRY_DISABLED": "1",
}
def build_child_env(extra: Mapping[str, str], *, network: bool,
                    parent: Mapping[str, str] | None = None) -> dict[str, str]:
    """The complete environment of a sandboxed step: allowlisted parent variables, fixed
    settings, then ``extra`` (HOME, PORT, HOST, npm cache, ...). Secret-looking names are dropped
    even from ``extra``, so a caller's mistake cannot leak a key either."""
    parent = os.environ if parent is None else parent
    names = ENV_ALLOW + (ENV_NETWORK_ALLOW if network else ())
    env = {k: parent[k] for k in names if k in parent and "@" not in parent[k]}
    env.setdefault("PATH", os.defpath)
    env.setdefault("LANG", "C.UTF-8")
    env.update(ENV_FIXED)
    env.update({k: str(v) for k, v in extra.items()})
    return {k: v for k, v in env.items() if not is_secret_name(k)}


class SandboxProcess(Protocol):
    pid: int | None

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None) -> int | None:
        """Exit code, or None if still running after ``timeout`` seconds."""
        ...

    def stop(self) -> None:
        """Kill everything the step started; idempotent."""
        ...

    def listening_ports(self) -> set[int]:
        """TCP ports the step's processes listen on (empty where that cannot be seen)."""
        ...

    def reroute(self, port: int) -> int | None:
        """Make the step's server on ``port`` (as the step sees it) reachable from the host;
        return the host port that now reaches it, or None where that is not possible."""
        ...


@runtime_checkable
class Sandbox(Protocol):
    name: str
    # where a server inside must listen so that the host's 127.0.0.1:PORT reaches it
    bind_host: str

    def spawn(self, argv: Sequence[str], *, workspace: Path, env: Mapping[str, str],
              log: LogBuffer, network: bool, writable: Sequence[Path] = (),
              readonly: Sequence[Path] = (), expose_port: int | None = None,
              reach_port: int | None = None, appear_online: bool = False) -> SandboxProcess:
        """Start ``argv`` in ``workspace``; ``writable``/``readonly``: more host paths it may
        see, at the same path. ``expose_port``: the step serves on that port and it must be
        reachable from the host at 127.0.0.1 on the same port number. ``reach_port``: the
        step may connect to the host's 127.0.0.1 on that port, at the same address (without
        a network, the only address it can reach). ``appear_online``: without a network, a
        browser inside still reports ``navigator.onLine`` true (where the backend can)."""
        ...


class StopsOnce(ABC):
    """``stop()`` may be called from several threads and more than once (a timeout, the end of
    the round, cleanup): only the first call runs the subclass's ``_stop``."""

    def __init__(self) -> None:
        self._stopped = False
        self._lock = threading.Lock()

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._stop()

    @abstractmethod
    def _stop(self) -> None:
        """Kill everything the step started (runs once)."""


class LocalProcess(StopsOnce):
    """``relay``: (unix socket, exposed port) of the relay into a sandbox without a network, so
    that ``reroute`` retargets it; without one the step shares the host's network."""

    def __init__(self, argv: Sequence[str], cwd: Path, env: Mapping[str, str], log: LogBuffer,
                 on_stop: Sequence = (), relay: tuple[Path, int] | None = None) -> None:
        super().__init__()
        self._proc, self._pump = start_process(list(argv), cwd, dict(env), log)
        self.pid: int | None = self._proc.pid
        self._on_stop = list(on_stop)
        self._relay = relay

    def listening_ports(self) -> set[int]:
        return listening_ports([self._proc.pid, *descendants(self._proc.pid)])

    def reroute(self, port: int) -> int | None:
        if self._relay is None:
            return port  # same network as the host: the port is reachable as it is
        sock, exposed = self._relay
        retarget_relay(sock, port)
        return exposed

    def poll(self) -> int | None:
        return self._proc.poll()

    def wait(self, timeout: float | None) -> int | None:
        try:
            return self._proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def _stop(self) -> None:
        try:
            kill_tree(self._proc)
            self._pump.join(timeout=5)
        finally:
            for cleanup in self._on_stop:
                cleanup()


class LocalSandbox:
    name = "local"
    bind_host = "127.0.0.1"

    def spawn(self, argv, *, workspace, env, log, network, writable=(), readonly=(),
              expose_port=None, reach_port=None, appear_online=False):
        return LocalProcess(argv, Path(workspace), env, log)


# read-only in the sandbox when they exist; a top-level symlink (usrmerge /bin -> usr/bin) is
# recreated as a symlink
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix",
               "/snap")
# only what node, npm and the resolver read: /etc also holds host keys and private TLS keys, and
# the sandboxed uid may own them
ETC_ENTRIES = ("alternatives", "ca-certificates", "ca-certificates.conf", "ssl/certs",
               "ssl/openssl.cnf", "pki/tls/certs", "resolv.conf", "hosts", "host.conf",
               "nsswitch.conf", "gai.conf", "passwd", "group", "localtime", "timezone",
               "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "mime.types", "os-release", "npmrc",
               # Chromium, for probe scripts: its launcher's default flags, and fontconfig
               "chromium.d", "chromium", "fonts")


class BwrapSandbox:
    name = "bwrap"
    bind_host = "127.0.0.1"

    def __init__(self, executable: str = "bwrap") -> None:
        self.executable = shutil.which(executable) or executable

    def command(self, argv: Sequence[str], *, workspace: Path, network: bool,
                writable: Sequence[Path] = (), readonly: Sequence[Path] = (),
                caps: Sequence[str] = ()) -> list[str]:
        cmd = [self.executable]
        for path in SYSTEM_DIRS:
            if os.path.islink(path):
                cmd += ["--symlink", os.readlink(path), path]
            elif os.path.isdir(path):
                cmd += ["--ro-bind", path, path]
        # a symlinked source (resolv.conf -> /run/...) is followed, so its target shows up too
        for extra in [f"/etc/{entry}" for entry in ETC_ENTRIES] + _tool_prefixes():
            cmd += ["--ro-bind-try", extra, extra]
        cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        # after the tmpfs, so a workspace under /tmp shows through it
        for path in readonly:
            real = os.path.realpath(path)
            cmd += ["--ro-bind", real, real]
        for path in [Path(workspace), *writable]:
            real = os.path.realpath(path)
            cmd += ["--bind", real, real]
        cmd += ["--remount-ro", "/", "--chdir", os.path.realpath(workspace),
                "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        for cap in caps:
            cmd += ["--cap-add", cap]
        if not network:
            cmd.append("--unshare-net")
        return cmd + ["--", *argv]

    def spawn(self, argv, *, workspace, env, log, network, writable=(), readonly=(),
              expose_port=None, reach_port=None, appear_online=False):
        writable = list(writable)
        on_stop, relay = [], None
        if reach_port is not None and not network:
            reach_dir = Path(tempfile.mkdtemp(prefix="asuka-reach-"))
            script, sock = write_reach(reach_dir)
            writable.append(reach_dir)
            forwarder = UnixToTcpForwarder(sock, reach_port)
            on_stop += [forwarder.stop, lambda: shutil.rmtree(reach_dir, ignore_errors=True)]
            # the relay up before the step: a client may connect at once
            argv = ["/bin/sh", "-c", 'node "$1" "$2" "$3" & sleep 0.3; shift 3; exec "$@"', "sh",
                    str(script), str(sock), str(reach_port), *argv]
        if expose_port is not None and not network:
            relay_dir = Path(tempfile.mkdtemp(prefix="asuka-relay-"))
            script, sock = write_relay(relay_dir)
            writable.append(relay_dir)
            # the relay runs beside the app; `exec` keeps the app as the sandbox's main process
            argv = ["/bin/sh", "-c", 'node "$1" "$2" "$3" & shift 3; exec "$@"', "sh",
                    str(script), str(sock), str(expose_port), *argv]
            forwarder = TcpToUnixForwarder(expose_port, sock)
            on_stop += [forwarder.stop, lambda: shutil.rmtree(relay_dir, ignore_errors=True)]
            relay = (sock, expose_port)
        caps: list[str] = []
        tools = _online_tools() if appear_online and not network else None
        if tools:
            # Chromium reports navigator.onLine from the links it sees: loopback alone is
            # offline. A veth pair inside the sandbox's own network namespace (no address, no
            # route, gone with the namespace) is a link that is up; the capability it takes is
            # dropped before the step runs
            caps.append("CAP_NET_ADMIN")
            argv = ["/bin/bash", "-c", ONLINE_SH, *tools, *argv]
        cmd = self.command(argv, workspace=workspace, network=network, writable=writable,
                           readonly=readonly, caps=caps)
        try:
            return LocalProcess(cmd, Path(workspace), env, log, on_stop=on_stop, relay=relay)
        except BaseException:
            for cleanup in on_stop:
                cleanup()
            raise


ONLINE_SH = ('"$0" link add asuka0 type veth peer name asuka1 2>/dev/null'
             ' && "$0" link set asuka0 up && "$0" link set asuka1 up;'
             ' exec "$1" --caps= -- -c \'exec "$0" "$@"\' "${@:2}"')


def _online_tools() -> list[str] | None:
    """The host's ``ip`` and ``capsh`` (both under the read-only system dirs), or None."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/sbin"])
    found = [shutil.which(tool, path=path) for tool in ("ip", "capsh")]
    return [f for f in found if f] if all(found) else None


def _tool_prefixes() -> list[str]:
    """Install prefixes of node/npm outside the system dirs (nvm, volta, a home-made build)."""
    prefixes = []
    for tool in ("node", "npm"):
        found = shutil.which(tool)
        if not found:
            continue
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(found)))
        if not any(prefix == d or prefix.startswith(d + "/") for d in SYSTEM_DIRS):
            prefixes.append(prefix)
    return sorted(set(prefixes))


_bwrap_probe: bool | None = None
_bwrap_probe_lock = threading.Lock()


def bwrap_usable() -> bool:
    """Run a trivial command under the exact flags we use, once per process: bwrap may be
    missing, or present but denied user namespaces (containers, hardened kernels)."""
    global _bwrap_probe
    with _bwrap_probe_lock:
        if _bwrap_probe is None:
            _bwrap_probe = _probe_bwrap()
        return _bwrap_probe


def _probe_bwrap() -> bool:
    if not shutil.which("bwrap"):
        return False
    with tempfile.TemporaryDirectory(prefix="asuka-bwrap-probe-") as tmp:
        cmd = BwrapSandbox().command(["/bin/sh", "-c", "touch probe"],
                                     workspace=Path(tmp), network=False)
        try:
            done = subprocess.run(cmd, cwd=tmp, env=build_child_env({}, network=False),
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0 and (Path(tmp) / "probe").exists()


registry: Registry[Sandbox] = Registry("sandbox", lazy={"docker": "asuka.deploy.docker_sandbox"})
registry.register("local")(LocalSandbox)
registry.register("bwrap")(BwrapSandbox)


@registry.register("auto")
def _auto(**options) -> Sandbox:
    return BwrapSandbox(**options) if bwrap_usable() else LocalSandbox()


def get_sandbox(sandbox: str | Sandbox = "auto", **options) -> Sandbox:
    return registry.get(sandbox, **options) if isinstance(sandbox, str) else sandbox
