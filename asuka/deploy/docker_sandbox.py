"""The ``docker`` sandbox: each step in a throwaway container (Docker SDK) of ``node:20``, or of
the image ``ASUKA_DOCKER_IMAGE`` names (``python -m asuka.deploy.docker_image`` builds one from
this machine's Node when no registry can be reached).

The workspace and the deploy's scratch dir are mounted at their host paths, so paths in the env
(HOME, npm cache) mean the same inside. Steps without network run with ``network_mode="none"``;
steps with network (an install) and the server use the host's network, where the server binds
127.0.0.1:PORT like any local one. No container is ever put on a bridge network: the engines
these runs are made on have none (``dockerd --bridge=none``), and a bridge would put a private
address range on the machine.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

from asuka.deploy.ports import HOST
from asuka.deploy.procs import LogBuffer
from asuka.deploy.sandbox import StopsOnce, registry

DEFAULT_IMAGE = "node:20"


def default_image() -> str:
    return os.environ.get("ASUKA_DOCKER_IMAGE") or DEFAULT_IMAGE


class DockerProcess(StopsOnce):
    pid: int | None = None

    def __init__(self, container, log: LogBuffer) -> None:
        super().__init__()
        self._container = container
        self._pump = threading.Thread(target=self._stream, args=(log,), daemon=True)
        self._pump.start()

    def _stream(self, log: LogBuffer) -> None:
        try:
            for chunk in self._container.logs(stream=True, follow=True):
                log.write(chunk.decode("utf-8", errors="replace"))
        except Exception:  # noqa: BLE001 - the container went away; the log ends here
            pass

    def poll(self) -> int | None:
        try:
            self._container.reload()
        except Exception:  # noqa: BLE001 - removed container: treat as killed
            return -9
        if self._container.status in ("exited", "dead"):
            return int(self._container.attrs["State"]["ExitCode"])
        return None

    def wait(self, timeout: float | None) -> int | None:
        try:
            status = self._container.wait(timeout=timeout)
        except Exception:  # noqa: BLE001 - the SDK raises a requests timeout type
            return self.poll()
        return int(status.get("StatusCode", -1))

    # the container's sockets are not ours to read and its published port is fixed at start:
    # an app on another port than $PORT fails to deploy here, as it would on a host
    def listening_ports(self) -> set[int]:
        return set()

    def reroute(self, port: int) -> int | None:
        return None

    def _stop(self) -> None:
        try:
            self._container.kill()
        except Exception:  # noqa: BLE001 - already exited
            pass
        # the log stream ends with the container; removing it first would lose what the step
        # printed last (or all of it, when the stream had not started yet)
        self._pump.join(timeout=5)
        try:
            self._container.remove(force=True)
        except Exception:  # noqa: BLE001 - already removed
            pass


class DockerSandbox:
    name = "docker"
    # the server runs on the host's network: its loopback is the host's
    bind_host = HOST

    def __init__(self, image: str | None = None, client=None, role: str = "deploy") -> None:
        self.image, self.role = image or default_image(), role  # role: a label
        self._client = client

    @property
    def client(self):
        if self._client is None:
            import docker

            self._client = docker.from_env()
        return self._client

    def spawn(self, argv: Sequence[str], *, workspace: Path, env, log: LogBuffer, network: bool,
              writable: Sequence[Path] = (), readonly: Sequence[Path] = (),
              expose_port: int | None = None, reach_port: int | None = None,
              appear_online: bool = False) -> DockerProcess:
        if reach_port is not None:
            raise ValueError("the docker sandbox cannot limit a step to one host port; "
                             "probe scripts run under bwrap or locally")
        mounts = {os.path.realpath(p): {"bind": os.path.realpath(p), "mode": "ro"}
                  for p in readonly}
        mounts.update({os.path.realpath(p): {"bind": os.path.realpath(p), "mode": "rw"}
                       for p in [Path(workspace), *writable]})
        # the host's PATH means nothing in the image
        environment = {k: v for k, v in env.items() if k != "PATH"}
        options = dict(
            image=self.image, command=list(argv), working_dir=os.path.realpath(workspace),
            environment=environment, volumes=mounts, detach=True, init=True,
            user=f"{os.getuid()}:{os.getgid()}", cap_drop=["ALL"],
            security_opt=["no-new-privileges"], pids_limit=1024, labels={"asuka": self.role},
        )
        # the host's network for a server or a step that needs the network, else none; never
        # the engine's default bridge
        options["network_mode"] = "host" if network or expose_port is not None else "none"
        container = self.client.containers.run(**options)
        return DockerProcess(container, log)


def docker_available() -> bool:
    try:
        import docker

        docker.from_env().ping()
    except Exception:  # noqa: BLE001 - no SDK, no socket, no engine: all mean "not here"
        return False
    return True


registry.register("docker")(DockerSandbox)
