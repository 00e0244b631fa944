"""Sealing an agent's own processes to its workspace (external agent CLIs, the shell tool).

An agent under test is untrusted code that runs processes. In a bubblewrap sandbox it sees the
system directories read-only, its workspace and its private HOME read-write, a private /tmp, the
files of its own program read-only, and nothing else of the host: not the run store (verdicts,
other rounds, other cells), not the benchmark (tasks, reference apps, checks, PRDs, DAGs), not
the user's home. It has its own pid namespace (killing the sandbox kills every process in it)
and the network only when it asks for it (an agent CLI calls its model; a shell tool does not).
Its environment comes from an allowlist (see ``asuka.codeagents.agent_cli``): no key but its own.

Sandbox names: ``auto`` (bwrap when it works here, else docker when an engine answers),
``bwrap``, ``docker`` (a throwaway container per round through the Docker SDK, the same backend
as the deploy sandbox: only the workspace, the private HOME and the prompt are mounted, at their
host paths; the agent's program comes from the image, which the agent option ``image`` or the
adapter's ``image`` names), ``none`` (a plain process, only with ``allow_unsandboxed``: the
user's explicit ``--unsandboxed-agents``, recorded in the run).
What cannot be had raises ``SetupError``: the cell fails before round 1 instead of running an
agent unsealed.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from asuka.deploy.procs import LogBuffer
from asuka.deploy.sandbox import SYSTEM_DIRS, BwrapSandbox, bwrap_usable
from asuka.errors import SetupError

AGENT_SANDBOXES = ("auto", "bwrap", "docker", "none")
UNSANDBOXED_HINT = ("pass --unsandboxed-agents (agent option allow_unsandboxed=true) to run "
                    "agents as plain processes that can read everything you can")


def docker_usable() -> bool:
    from asuka.deploy.docker_sandbox import docker_available

    return docker_available()


def resolve_sandbox(requested: str | None, allow_unsandboxed: bool) -> str:
    """``bwrap``, ``docker`` or ``none``; SetupError when the request cannot be met safely."""
    name = (requested or "auto").lower()
    if name == "local":
        name = "none"
    if name not in AGENT_SANDBOXES:
        raise SetupError(f"unknown agent sandbox {requested!r}; known: "
                         f"{', '.join(AGENT_SANDBOXES)}")
    if name == "none":
        if not allow_unsandboxed:
            raise SetupError(f"agent sandbox 'none' runs the agent unsealed; {UNSANDBOXED_HINT}")
        return "none"
    if name == "docker":
        if docker_usable():
            return "docker"
        raise SetupError("agent sandbox 'docker': no Docker engine answers (DOCKER_HOST, or "
                         "the default socket), or the `docker` package is missing")
    if bwrap_usable():
        return "bwrap"
    if name == "bwrap":
        raise SetupError("bubblewrap is not usable on this machine (missing, or user "
                         "namespaces are denied)")
    if docker_usable():
        return "docker"
    if allow_unsandboxed:
        return "none"
    raise SetupError("no sandbox for agent processes here (bubblewrap is missing or denied "
                     "user namespaces, and no Docker engine answers): install bubblewrap, or "
                     f"{UNSANDBOXED_HINT}")


def _inside(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == r or path.is_relative_to(r) or r.is_relative_to(path) for r in roots)


def _system(path: Path) -> bool:
    return any(str(path) == d or str(path).startswith(d + "/") for d in SYSTEM_DIRS)


def program_paths(argv: Sequence[str], sealed: Sequence[Path]) -> list[Path]:
    """What the agent's program needs to be visible read-only: the executable and the files
    named on its command line (a script), the install prefix of an executable outside the system
    dirs (a venv, a global node_modules, pyenv), the node_modules folder an npm program is in,
    and a venv's base interpreter. Nothing inside,
    or containing, a sealed path is ever exposed: such a file is left out (and the agent fails to
    start, which its transcript shows)."""
    sealed = [Path(os.path.realpath(p)) for p in sealed]
    found: list[Path] = []

    def add(p: Path) -> None:
        p = Path(os.path.realpath(p))
        if p.exists() and not _system(p) and not _inside(p, sealed) and p not in found:
            found.append(p)

    exe = shutil.which(argv[0]) if argv else None
    candidates = [Path(exe)] if exe else []
    candidates += [Path(a) for a in argv[1:] if a.startswith("/") and Path(a).is_file()]
    for c in candidates:
        for p in (c, Path(os.path.realpath(c))):
            add(p)
            if "node_modules" in p.parts:  # an npm package finds its siblings there (Codex's
                # launcher runs the platform package beside it)
                add(Path(*p.parts[:p.parts.index("node_modules") + 1]))
            prefix = p.parent.parent  # .../bin/tool -> the install prefix
            if (prefix / "pyvenv.cfg").is_file() or (prefix / "lib" / "node_modules").is_dir() \
                    or (prefix / "node_modules").is_dir() or p.parent.name == "bin":
                add(prefix)
                base = _venv_home(prefix)
                if base is not None:
                    add(base)
    return found


def _venv_home(prefix: Path) -> Path | None:
    cfg = prefix / "pyvenv.cfg"
    if not cfg.is_file():
        return None
    for line in cfg.read_text(errors="replace").splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            return Path(value.strip()).parent
    return None


def sealed_argv(argv: Sequence[str], *, workspace: Path, home: Path, network: bool,
                readonly: Sequence[Path] = (), sealed: Sequence[Path] = ()) -> list[str]:
    """The bwrap command line that runs ``argv`` sealed to ``workspace`` (see the module doc)."""
    visible = [*program_paths(argv, sealed), *(Path(p) for p in readonly)]
    return BwrapSandbox().command(list(argv), workspace=workspace, network=network,
                                  writable=[home], readonly=visible)


async def run_in_container(argv: Sequence[str], *, image: str, workspace: Path, home: Path,
                           env: Mapping[str, str], network: bool, stdin: str | None,
                           timeout_s: float, readonly: Sequence[Path] = ()
                           ) -> tuple[int | None, str, str, bool]:
    """Run ``argv`` (a program of ``image``) in a throwaway container that mounts only the
    workspace, ``home`` and ``readonly``; returns (exit code, output, "", timed_out) like
    ``cli.run_process``. The container is killed and removed when the round ends, whatever
    happened (the container is the process group). stdout and stderr come interleaved."""
    from asuka.deploy.docker_sandbox import DockerSandbox

    log = LogBuffer(head_chars=1_000_000, tail_chars=3_000_000)
    with tempfile.TemporaryDirectory(prefix="asuka-stdin-") as tmp:
        visible = [*readonly]
        if stdin is not None:  # the SDK's detached run has no stdin: feed it from a file
            feed = Path(tmp) / "stdin.txt"
            feed.write_text(stdin, "utf-8")
            visible.append(Path(tmp))
            argv = ["/bin/sh", "-c", 'exec "$@" < "$0"', str(feed), *argv]
        box = DockerSandbox(image=image, role="agent")
        try:
            proc = await asyncio.to_thread(box.spawn, list(argv), workspace=workspace, env=env,
                                           log=log, network=network, writable=[home],
                                           readonly=visible)
        except Exception as exc:  # noqa: BLE001 - the SDK's errors: no image, engine refused
            raise SetupError(f"cannot start the agent container ({image}): {exc}") from exc
        try:
            code = await asyncio.to_thread(proc.wait, timeout_s)
        finally:
            await asyncio.to_thread(proc.stop)
    return code, log.text(), "", code is None
