"""Deployer: turns a workspace written by a code agent into a live URL on 127.0.0.1.

    with Deployer(sandbox="auto").deploy(workspace) as deployment:
        if deployment.result.ok:
            browse(deployment.url)

Kinds, decided from the files (``detect_kind``): ``npm-build`` (package.json with a build script:
install, build, serve the output statically), ``npm-start`` (a start/dev/preview script, run with
$PORT and $HOST), ``static`` (an index.html at the root, or in dist/, build/ or public/), ``none``.
Install, build and start run in a sandbox (``local``, ``bwrap``, ``docker``, ``auto``); static
files are served by this process.
"""

from asuka.deploy.deployer import Deployer, Deployment, ExternalDeployer
from asuka.deploy.detect import detect_kind
from asuka.deploy.models import DeployKind, DeployResult, DeployTimeouts
from asuka.deploy.ports import PortAllocator, PortLease, lease_port
from asuka.deploy.sandbox import Sandbox, build_child_env, bwrap_usable, get_sandbox, registry

__all__ = [
    "DeployKind",
    "DeployResult",
    "DeployTimeouts",
    "Deployer",
    "Deployment",
    "ExternalDeployer",
    "PortAllocator",
    "PortLease",
    "Sandbox",
    "build_child_env",
    "bwrap_usable",
    "detect_kind",
    "get_sandbox",
    "lease_port",
    "registry",
]
