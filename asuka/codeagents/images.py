"""Container images for the agent CLIs, built here from nothing pulled: this machine's Node
image (``asuka.deploy.docker_image``) plus bash and the basic commands an agent's shell tool
runs, and the tool as ``python -m asuka.codeagents.install`` installed it (npm tools only: a
PyPI tool's venv points at this machine's Python).

    python -m asuka.codeagents.images codex     # builds asuka/agent-codex:<version>

Then ``--agent-opt sandbox=docker --agent-opt image=asuka/agent-codex:<version>``.
"""

from __future__ import annotations

import sys

from asuka.codeagents.adapters import load_adapters
from asuka.codeagents.install import install, tools_dir
from asuka.deploy.docker_image import build_host_node_image, build_image, programs

__all__ = ["SHELL_PROGRAMS", "build_agent_image"]

# what an agent's shell commands reach for first
SHELL_PROGRAMS = ("bash", "cat", "sed", "ls", "grep", "mkdir", "rm", "cp", "mv", "head",
                  "tail", "wc", "sort", "touch", "find", "diff")
TOOLS_IN_IMAGE = "/opt/asuka-tools"


def build_agent_image(tool: str, client=None) -> str:
    """Build (or find) the image of ``tool`` at its pinned release; returns its tag."""
    import docker

    client = client or docker.from_env()
    adapter = load_adapters()[tool]
    if not adapter.package or not adapter.package.startswith("npm:"):
        raise RuntimeError(f"{tool}: only npm tools get an image built here "
                           f"(package {adapter.package!r})")
    install(tool, adapter)
    binary = adapter.binary[0] if isinstance(adapter.binary, list) else adapter.binary
    version = adapter.package.rpartition("@")[2]
    base = build_host_node_image(client)
    link = f"{TOOLS_IN_IMAGE}/{tool}/node_modules/.bin/{binary}"
    dockerfile = "\n".join([
        f"FROM {base}",
        "COPY rootfs/ /",
        f'RUN ["/usr/bin/node", "-e", "require(\'fs\').symlinkSync(\'{link}\', '
        f"'/usr/bin/{binary}')\"]", ""])
    return build_image(client, f"asuka/agent-{tool}:{version}", programs(*SHELL_PROGRAMS),
                       {str(tools_dir() / tool): f"rootfs{TOOLS_IN_IMAGE}/{tool}"}, dockerfile)


def main(argv: list[str] | None = None) -> int:
    failed = 0
    for tool in (argv if argv is not None else sys.argv[1:]):
        try:
            print(f"{tool}: {build_agent_image(tool)}")
        except Exception as exc:  # noqa: BLE001 - no engine, no install: say which and go on
            print(f"{tool}: no image: {exc}", file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
