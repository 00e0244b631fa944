"""A Docker image built here, from nothing pulled: this machine's Node.js and npm on an empty
base (``FROM scratch``), for engines that cannot reach an image registry.

It holds ``node``, ``npm``/``npx`` (the host's npm package), ``/bin/sh`` (the host's dash, for npm
scripts), ``/usr/bin/env`` (npm's scripts start with it) and the shared libraries they link, found with ``ldd``; nothing of the host's home or
projects. A project whose build needs more (git, python, a compiler) fails to build in it, as it
would in a slim image.

    python -m asuka.deploy.docker_image          # builds asuka/host-node:<node version>
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

__all__ = ["HOST_NODE_REPO", "build_host_node_image", "build_image", "host_node_tag", "programs"]

HOST_NODE_REPO = "asuka/host-node"
_LIB = re.compile(r"(/\S+\.so[.\d]*)")


def host_node_tag() -> str:
    """The image name for this host's Node, e.g. ``asuka/host-node:20.20.2``."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("no node on PATH to build the image from")
    version = subprocess.run([node, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip().lstrip("v")
    return f"{HOST_NODE_REPO}:{version}"


def _libraries(binary: str) -> list[str]:
    out = subprocess.run(["ldd", binary], capture_output=True, text=True).stdout
    return sorted({m.group(1) for m in _LIB.finditer(out) if os.path.exists(m.group(1))})


def _tar(files: dict[str, str], trees: dict[str, str], dockerfile: str) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for src, dest in files.items():
            tar.add(src, arcname=dest)
        for src, dest in trees.items():
            tar.add(src, arcname=dest)
        data = dockerfile.encode()
        info = tarfile.TarInfo("Dockerfile")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def programs(*names: str) -> dict[str, str]:
    """The host's programs and the shared libraries they link, as build-context entries under
    ``rootfs/`` at the paths the image's loader will look for them."""
    files: dict[str, str] = {}
    for name in names:
        path = shutil.which(name) or name
        if not os.path.exists(path):
            raise RuntimeError(f"no program {name!r} on this machine")
        files[os.path.realpath(path)] = "rootfs" + (
            path if path.startswith("/usr/") or path.startswith("/bin/") else f"/usr/bin/{name}")
        for lib in _libraries(os.path.realpath(path)):
            files[os.path.realpath(lib)] = "rootfs" + lib
    return files


def build_image(client, tag: str, files: dict[str, str], trees: dict[str, str],
                dockerfile: str) -> str:
    """Build ``tag`` from a context of host files (nothing pulled), unless it exists."""
    import docker

    try:
        client.images.get(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    client.images.build(fileobj=io.BytesIO(_tar(files, trees, dockerfile)),
                        custom_context=True, tag=tag, rm=True, forcerm=True,
                        network_mode="none")
    return tag


def _host_node_context() -> tuple[dict[str, str], dict[str, str], str]:
    npm_cli = os.path.realpath(shutil.which("npm") or "")
    npm_root = Path(npm_cli).parents[1]  # .../node_modules/npm
    files = programs("node", "/bin/sh", "env")  # npm's scripts start "#!/usr/bin/env node"
    files[os.path.realpath("/bin/sh")] = "rootfs/bin/sh"
    dockerfile = "\n".join([
        "FROM scratch",
        "COPY rootfs/ /",
        "ENV PATH=/usr/local/bin:/usr/bin:/bin",
        # npm and npx as the host has them: links to the package's scripts
        'RUN ["/usr/bin/node", "-e", "const fs=require(\'fs\');'
        "fs.mkdirSync('/tmp',{recursive:true});fs.chmodSync('/tmp',0o1777);"
        "for (const b of ['npm','npx']) fs.symlinkSync("
        "'../lib/node_modules/npm/bin/'+b+'-cli.js','/usr/bin/'+b);"
        "fs.mkdirSync('/etc',{recursive:true});"
        "fs.writeFileSync('/etc/passwd','root:x:0:0:root:/root:/bin/sh\\\\n');\"]",
        'CMD ["/usr/bin/node"]', ""])
    return files, {str(npm_root): "rootfs/usr/lib/node_modules/npm"}, dockerfile


def build_host_node_image(client=None, tag: str | None = None) -> str:
    """Build (or find already built) the image; returns its tag."""
    import docker

    client = client or docker.from_env()
    return build_image(client, tag or host_node_tag(), *_host_node_context())


def main() -> int:
    try:
        tag = build_host_node_image()
    except Exception as exc:  # noqa: BLE001 - no engine, no node: say so and fail
        print(f"docker image: not built: {exc}", file=sys.stderr)
        return 1
    print(f"docker image: {tag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
