"""The docker agent sandbox, at the wire level: the real Docker SDK talks to a fake engine
(``tests/fake_docker.py``) that runs each container's command with only the mounts we asked for.
An agent CLI in a container sees its workspace, its HOME and its prompt, nothing else; a round
that times out leaves no container and no process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.codeagents.agent_cli import CLICodeAgent
from asuka.codeagents.base import RoundContext
from asuka.codeagents.sealed import resolve_sandbox
from asuka.codeagents.tools import run_sandboxed
from asuka.deploy import Deployer, bwrap_usable
from asuka.errors import SetupError
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.loop.cell import live_cell_dir, run_cell
from tests.codeagents.test_agent_sandbox import (  # noqa: F401 (sentinel_bench: a fixture)
    CANARY,
    MINI,
    PROBE,
    SENTINELS,
    plant_other_cell,
    sentinel_bench,
)
from tests.fake_docker import FakeDockerEngine, fake_docker  # noqa: F401 (fixture)

# the fake engine isolates a container's command with bubblewrap
needs_bwrap = pytest.mark.skipif(not bwrap_usable(), reason="bubblewrap is not usable here")


def test_docker_sandbox_is_chosen_only_when_an_engine_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path / 'nothing.sock'}")
    with pytest.raises(SetupError, match="no Docker engine answers"):
        resolve_sandbox("docker", allow_unsandboxed=True)


def test_cli_agent_in_docker_needs_an_image(fake_docker: FakeDockerEngine) -> None:
    assert resolve_sandbox("docker", allow_unsandboxed=False) == "docker"
    agent = CLICodeAgent("custom", command="my-agent {prompt}", sandbox="docker")
    with pytest.raises(SetupError, match="needs an image"):
        agent.preflight()
    # the program is the image's: it need not exist on this host
    assert CLICodeAgent("custom", command="my-agent {prompt}", sandbox="docker",
                        image="agent:1").preflight() == "docker"


@pytest.mark.browser
@needs_bwrap
async def test_cli_agent_in_docker_sees_only_its_workspace(
        tmp_path: Path, sentinel_bench: Path, fake_docker: FakeDockerEngine,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASUKA_LIVE_DIR", str(tmp_path / "live"))
    monkeypatch.setenv("ASUKA_CANARY_API_KEY", CANARY)
    (bt,) = load_tasks(sentinel_bench, ["mini-todo"])
    store = RunStore(tmp_path / "run")
    (store.root / "run.json").write_text(json.dumps({"bench": str(sentinel_bench), "cells": []}))
    spec = CellSpec(task="mini-todo", agent="cli", rounds=2, protocol="full",
                    agent_options={"tool": "custom", "command": "sh /image/probe.sh {prompt}",
                                   "sandbox": "docker", "image": "asuka-test-agent"})
    other = plant_other_cell(store)
    assert fake_docker.image_root is not None
    (fake_docker.image_root / "probe.sh").write_text(PROBE.format(
        verdicts=store.round_dir(spec.cell_id, 1) / "verdicts.json", store=store.root,
        bench=sentinel_bench, other_live=other))

    result = await run_cell(spec, bt, store, Deployer())
    assert result.status == "finished", result
    for r in (1, 2):
        record = store.load_round(spec.cell_id, r).agent
        probes = [ln for ln in record.transcript.splitlines() if ln.startswith("PROBE ")]
        assert len(probes) == 11, record.transcript
        for s in SENTINELS:
            assert s not in "\n".join(probes), (s, record.transcript)
        assert "no-canary" in record.transcript and record.meta["sandbox"] == "docker"
    # what was asked of the engine: the round's workspace, HOME and prompt, nothing else
    assert len(fake_docker.creates) == 2
    live = live_cell_dir(store, spec.cell_id)
    for body in fake_docker.creates:
        binds = body["HostConfig"]["Binds"]
        assert len(binds) == 3, binds
        assert sum(b.startswith(str(live)) for b in binds) == 2, binds  # workspace, home
        assert not any(b.startswith((str(store.root), str(sentinel_bench))) for b in binds)
        assert body["Image"] == "asuka-test-agent" and body["Labels"] == {"asuka": "agent"}
        assert not any(CANARY in e for e in body["Env"])
        assert body["HostConfig"]["CapDrop"] == ["ALL"]
    assert sum(c == "DELETE /containers/" + cid for cid in fake_docker.containers
               for c in fake_docker.calls) == 2  # each round's container is gone


@needs_bwrap
async def test_docker_round_timeout_kills_the_container(tmp_path: Path,
                                                        fake_docker: FakeDockerEngine) -> None:
    bt = load_tasks(MINI, ["mini-todo"])[0]
    agent = CLICodeAgent("custom", command="sh -c 'sleep 300' {prompt}", timeout_s=2,
                         sandbox="docker", image="asuka-test-agent")
    r = await agent.run_round(RoundContext(bench_task=bt, round=1, workspace=tmp_path / "ws",
                                           timeout_s=60))
    assert not r.ok and r.meta["timed_out"] and "process group killed" in r.transcript
    (container,) = fake_docker.containers.values()
    assert container.removed and container.done.wait(5)
    assert container.proc is not None and container.proc.poll() is not None


@needs_bwrap
async def test_llm_shell_tool_in_docker_has_no_network(tmp_path: Path,
                                                       fake_docker: FakeDockerEngine) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    code, out, timed_out = await run_sandboxed("echo from-the-box; pwd", ws, 20,
                                               sandbox="docker")
    assert (code, timed_out) == (0, False) and "from-the-box" in out and str(ws) in out
    (body,) = fake_docker.creates
    assert body["HostConfig"]["NetworkMode"] == "none"
    assert body["Image"] == "node:20"
