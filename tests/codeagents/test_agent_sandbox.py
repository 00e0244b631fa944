"""Agents are sealed from the answers: an agent CLI (and the llm agent's shell tool) that tries to
read the run store, the benchmark, another cell or a secret of the parent environment gets
nothing, and its attempts are in its transcript. Real bubblewrap, real loop, real Chromium."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.codeagents.agent_cli import CLICodeAgent
from asuka.codeagents.base import RoundContext
from asuka.codeagents.llm import LLMCodeAgent
from asuka.codeagents.sealed import resolve_sandbox
from asuka.deploy import Deployer, bwrap_usable
from asuka.errors import SetupError
from asuka.llm import ModelSpec
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.loop.cell import live_cell_dir, run_cell
from tests.llm_server import ScriptedLLMServer, llm_server, tool_calls  # noqa: F401 (fixture)

ROOT = Path(__file__).resolve().parents[2]
MINI = ROOT / "tests" / "fixtures" / "bench"
FAKE = ROOT / "tests" / "fixtures" / "fake_cli" / "fake-agent"
CANARY = "canary-7f3a91-never-visible"
needs_bwrap = pytest.mark.skipif(not bwrap_usable(), reason="bubblewrap is not usable here")

PROBE = """#!/bin/sh
# writes a page, then tries to read what an agent must never see
printf '<!doctype html><h1>Todos</h1>' > index.html
probe() {{ printf 'PROBE %s: ' "$1"; shift; "$@" 2>&1 | head -c 300; echo; }}
probe parent ls -a ..
probe verdicts-rel cat ../round-1/verdicts.json
probe verdicts-abs cat "{verdicts}"
probe run-json cat "{store}/run.json"
probe task-yaml cat "{bench}/tasks/mini-todo/task.yaml"
probe reference ls "{bench}/tasks/mini-todo/reference"
probe prd cat "{bench}/prds/mini-todo.md"
probe other-live cat "{other_live}/secret.txt"
probe other-snapshot cat "{store}/other-cell/round-1/workspace/secret.txt"
probe canary sh -c 'env | grep -i canary || echo no-canary'
probe home sh -c 'echo "$HOME"; ls -a "$HOME"'
"""


@pytest.fixture()
def sentinel_bench(tmp_path: Path) -> Path:
    """A copy of the mini bench with a sentinel in every answer file."""
    bench = tmp_path / "bench"
    shutil.copytree(MINI, bench)
    task = bench / "tasks" / "mini-todo"
    (task / "task.yaml").write_text((task / "task.yaml").read_text()
                                    + "# SENTINEL-TASK-YAML\n")
    (task / "reference" / "SENTINEL-REFERENCE.txt").write_text("x")
    prd = bench / "prds" / "mini-todo.md"
    prd.write_text(prd.read_text() + "\nSENTINEL-PRD\n")
    return bench


def plant_other_cell(store: RunStore) -> Path:
    """Another cell's live workspace and snapshot, each with a secret; returns the live one."""
    other = live_cell_dir(store, "other-cell") / "workspace"
    other.mkdir(parents=True)
    (other / "secret.txt").write_text("SENTINEL-OTHER live")
    snap = store.round_dir("other-cell", 1) / "workspace"
    snap.mkdir(parents=True)
    (snap / "secret.txt").write_text("SENTINEL-OTHER snapshot")
    return other


SENTINELS = ("SENTINEL-TASK-YAML", "SENTINEL-REFERENCE", "SENTINEL-PRD", "SENTINEL-OTHER",
             CANARY, '"protocol"', '"cells"')


@pytest.mark.browser
@needs_bwrap
async def test_cli_agent_sees_only_its_workspace(tmp_path: Path, sentinel_bench: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASUKA_LIVE_DIR", str(tmp_path / "live"))
    monkeypatch.setenv("ASUKA_CANARY_API_KEY", CANARY)
    monkeypatch.setenv("CANARY_NOT_A_KEY", CANARY)
    (bt,) = load_tasks(sentinel_bench, ["mini-todo"])
    store = RunStore(tmp_path / "run")
    (store.root / "run.json").write_text(json.dumps({"bench": str(sentinel_bench), "cells": []}))
    script = tmp_path / "probe-agent.sh"
    spec = CellSpec(task="mini-todo", agent="cli", rounds=2, protocol="full",
                    agent_options={"tool": "custom", "command": f"sh {script} {{prompt}}"})
    other = plant_other_cell(store)
    script.write_text(PROBE.format(
        verdicts=store.round_dir(spec.cell_id, 1) / "verdicts.json", store=store.root,
        bench=sentinel_bench, other_live=other))

    result = await run_cell(spec, bt, store, Deployer())
    assert result.status == "finished", result
    for r in (1, 2):
        transcript = store.load_round(spec.cell_id, r).agent.transcript
        probes = [ln for ln in transcript.splitlines() if ln.startswith("PROBE ")]
        assert len(probes) == 11, transcript  # every attempt is in the transcript
        for s in SENTINELS:
            assert s not in "\n".join(probes), (s, transcript)
        assert "no-canary" in transcript
        assert store.load_round(spec.cell_id, r).agent.meta["sandbox"] == "bwrap"
    # round 2 ran after round 1's verdicts were in the store, and still could not read them
    assert (store.round_dir(spec.cell_id, 1) / "verdicts.json").is_file()
    # the live workspace was outside the store, and is gone once the cell finished
    assert not (store.cell_dir(spec.cell_id) / "workspace").exists()
    assert not live_cell_dir(store, spec.cell_id).exists()


@needs_bwrap
async def test_sealed_timeout_leaves_no_process(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    bt = load_tasks(MINI, ["mini-todo"])[0]
    agent = CLICodeAgent("custom", command=f"{sys.executable} {FAKE} -p {{prompt}}",
                         timeout_s=3)
    ctx = RoundContext(bench_task=bt.model_copy(update={"task": bt.task.model_copy(
        update={"query": "Please sleep forever"})}), round=1, workspace=ws, timeout_s=60)
    r = await agent.run_round(ctx)
    assert not r.ok and r.meta["timed_out"] and r.meta["sandbox"] == "bwrap"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        alive = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _cmd(p).count(
            str(FAKE)) and _state(p) != "Z"]
        if not alive:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"sealed agent processes survived the timeout: {alive}")


def _cmd(p: Path) -> str:
    try:
        return (p / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _state(p: Path) -> str:
    try:
        return (p / "stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return "Z"


@needs_bwrap
async def test_llm_agent_shell_tool_is_sealed(llm_server: ScriptedLLMServer, tmp_path: Path,
                                              sentinel_bench: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASUKA_CANARY_API_KEY", CANARY)
    store = RunStore(tmp_path / "run")
    (store.root / "run.json").write_text(json.dumps({"bench": str(sentinel_bench)}))
    bt = load_tasks(sentinel_bench, ["mini-todo"])[0]
    reads = [f"cat {sentinel_bench}/tasks/mini-todo/task.yaml",
             f"ls {sentinel_bench}/tasks/mini-todo/reference",
             f"cat {sentinel_bench}/prds/mini-todo.md", f"cat {store.root}/run.json",
             "env | grep -i canary || echo no-canary", "ls -a .."]
    llm_server.script(
        *[tool_calls(("run_shell", {"command": c})) for c in reads],
        tool_calls(("finish", {"summary": "probed"})))
    spec = ModelSpec(provider="openai", model="fake", base_url=llm_server.base_url("openai"),
                     backoff_s=0.01)
    agent = LLMCodeAgent(spec, allow_shell=True, shell_timeout_s=20)
    ws = tmp_path / "live" / "ws"
    ws.mkdir(parents=True)
    r = await agent.run_round(RoundContext(bench_task=bt, round=1, workspace=ws, timeout_s=60))
    assert r.meta["shell_sandbox"] == "bwrap"
    outs = [m["content"] for m in llm_server.requests[-1].body["messages"]
            if m["role"] == "tool"]
    assert len(outs) == len(reads)
    for s in SENTINELS:
        assert s not in "\n".join(outs), (s, outs)
    assert "no-canary" in outs[4]
    assert r.transcript.count("run_shell(") == len(reads)  # each attempt is in the transcript


def test_unsandboxed_only_when_allowed() -> None:
    with pytest.raises(SetupError, match="--unsandboxed-agents"):
        resolve_sandbox("none", allow_unsandboxed=False)
    assert resolve_sandbox("none", allow_unsandboxed=True) == "none"
    with pytest.raises(SetupError, match="unknown agent sandbox"):
        resolve_sandbox("chroot", allow_unsandboxed=True)
    if bwrap_usable():
        assert resolve_sandbox("auto", allow_unsandboxed=False) == "bwrap"


def test_missing_binary_and_key_fail_before_round_one(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A setup error of an external agent stops `asuka run` before any cell is written."""
    import subprocess

    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN",
                 "CLAUDE_CODE_USE_BEDROCK", "CLAUDE_CODE_USE_VERTEX"):
        monkeypatch.delenv(name, raising=False)
    env = {**os.environ, "NO_COLOR": "1"}
    base = [sys.executable, "-m", "asuka.cli", "run", "--bench", str(MINI), "--task",
            "mini-todo", "--agent", "cli", "--out", str(tmp_path / "runs")]
    missing = subprocess.run([*base, "--tool", "codex", "--agent-opt",
                              f"binary={tmp_path / 'no-such-codex'}"],
                             capture_output=True, text=True, env=env, timeout=120)
    assert missing.returncode == 2, missing.stderr
    assert "cannot find the program" in missing.stderr
    no_key = subprocess.run([*base, "--tool", "claude-code", "--agent-opt", f"binary={FAKE}"],
                            capture_output=True, text=True, env=env, timeout=120)
    assert no_key.returncode == 2, no_key.stderr
    assert "ANTHROPIC_API_KEY" in no_key.stderr
    env.pop("OPENAI_API_KEY", None)
    t0 = time.monotonic()
    llm = subprocess.run([*base[:-4], "--agent", "llm", "--model", "openai:gpt-4o-mini",
                          "--out", str(tmp_path / "runs")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert llm.returncode == 2 and "OPENAI_API_KEY" in llm.stderr, llm.stderr
    assert time.monotonic() - t0 < 60
    assert not (tmp_path / "runs").exists()  # no cell written, nothing to score
