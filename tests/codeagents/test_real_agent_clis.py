"""The real agent CLIs, at the versions cli_agents.yaml pins, through Asuka's adapters: each runs
two rounds of the real loop sealed (bubblewrap), its model a scripted server on 127.0.0.1 that
speaks the tool's own wire format. Round 1 probes what it must never see, then writes the app;
round 2 reads the app and edits it. ``make test`` installs the tools first
(``python -m asuka.codeagents.install``); a tool that could not be installed is skipped with
the installer's reason."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from asuka.benchmark.loading import load_tasks
from asuka.codeagents.adapters import load_adapters
from asuka.codeagents.images import build_agent_image
from asuka.codeagents.install import install_error, installed_binary
from asuka.deploy import Deployer, bwrap_usable
from asuka.deploy.docker_sandbox import docker_available
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore
from asuka.loop.cell import run_cell
from tests.codeagents.test_agent_sandbox import CANARY, SENTINELS, plant_other_cell, sentinel_bench  # noqa: F401
from tests.llm_server import Recorded, Reply, ScriptedLLMServer, text, tool_calls

APP_V1 = "<!doctype html><html lang=en><title>Todos</title><h1>Todos</h1><p>version one</p>"


def pinned(tool: str) -> Path:
    """The tool's installed program, or a skip that says why there is none."""
    adapter = load_adapters()[tool]
    found = installed_binary(tool, adapter)
    if found is None:
        why = install_error(tool) or "not installed"
        pytest.skip(f"{tool} ({adapter.package}) is not available: {why} — run "
                    f"`python -m asuka.codeagents.install {tool}`")
    return found


def version(binary: Path) -> str:
    done = subprocess.run([str(binary), "--version"], capture_output=True, text=True,
                          timeout=60)
    return (done.stdout or done.stderr).strip().splitlines()[0]


def _texts(node: object) -> str:
    """Every text a request carries (system prompt, messages), joined."""
    if isinstance(node, dict):
        return "\n".join(_texts(v) for k, v in node.items() if k in ("system", "messages",
                                                                      "content", "text"))
    if isinstance(node, list):
        return "\n".join(_texts(v) for v in node)
    return node if isinstance(node, str) else ""


class ClaudeModel:
    """Plays Claude for Claude Code: a scripted list of tool uses per round, each sent when the
    previous tool's result came back (Messages API, streamed)."""

    env = {"ANTHROPIC_API_KEY": "sk-ant-test-dummy-0000"}
    base_url_var, dialect, other_key = "ANTHROPIC_BASE_URL", "anthropic", "OPENAI_API_KEY"

    def __init__(self, probe: str) -> None:
        self.workspace: str | None = None
        self.rounds: list[list[Callable[[], Reply]]] = [
            [lambda: tool_calls(("Bash", {"command": probe, "description": "look around"})),
             lambda: tool_calls(("Write", {"file_path": self._ws("index.html"),
                                           "content": APP_V1})),
             lambda: text("Wrote index.html.")],
            [lambda: tool_calls(("Read", {"file_path": self._ws("index.html")})),
             lambda: tool_calls(("Edit", {"file_path": self._ws("index.html"),
                                          "old_string": "version one",
                                          "new_string": "version two"})),
             lambda: text("Edited index.html.")],
        ]
        self.round = -1
        self.step = 0

    def _ws(self, name: str) -> str:
        assert self.workspace is not None
        return f"{self.workspace}/{name}"

    def __call__(self, rec: Recorded) -> Reply:
        body = rec.body if isinstance(rec.body, dict) else {}
        if not body.get("tools"):  # an auxiliary call (none expected when quiet): answer it
            return text("ok")
        last = (body.get("messages") or [{}])[-1].get("content")
        continuing = isinstance(last, list) and any(
            isinstance(c, dict) and c.get("type") == "tool_result" for c in last)
        if not continuing:  # a new prompt: the next round
            self.round, self.step = self.round + 1, 0
            m = re.search(r"Primary working directory: (\S+)", _texts(body))
            self.workspace = m.group(1) if m else self.workspace
        reply = self.rounds[self.round][self.step]()
        self.step += 1
        return reply


class CodexModel:
    """Plays the model for Codex (Responses API, streamed): it acts through ``exec_command``
    in the workspace, its working directory."""

    env = {"OPENAI_API_KEY": "sk-test-dummy-openai-0000"}
    base_url_var, dialect, other_key = "OPENAI_BASE_URL", "openai", "ANTHROPIC_API_KEY"

    def __init__(self, probe: str) -> None:
        def sh(cmd: str) -> Callable[[], Reply]:
            return lambda: tool_calls(("exec_command", {"cmd": cmd}))
        self.rounds: list[list[Callable[[], Reply]]] = [
            [sh(probe), sh(f"cat > index.html <<'EOF'\n{APP_V1}\nEOF"),
             lambda: text("Wrote index.html.")],
            [sh("cat index.html"), sh("sed -i 's/version one/version two/' index.html"),
             lambda: text("Edited index.html.")],
        ]
        self.round, self.step = -1, 0

    def __call__(self, rec: Recorded) -> Reply:
        body = rec.body if isinstance(rec.body, dict) else {}
        last = (body.get("input") or [{}])[-1]
        if last.get("type") != "function_call_output":
            self.round, self.step = self.round + 1, 0
        reply = self.rounds[self.round][self.step]()
        self.step += 1
        return reply


def search_replace(name: str, search: str, replace: str) -> str:
    return f"{name}\n```html\n<<<<<<< SEARCH\n{search}=======\n{replace}\n>>>>>>> REPLACE\n```\n"


class AiderModel:
    """Plays the model for aider (chat completions, streamed): one answer per round in the
    SEARCH/REPLACE format of aider's default edit format. aider runs no command a model
    suggests (not even with --yes-always), so there is nothing to probe with: its sealing is
    the one the other tools prove."""

    env = {"OPENAI_API_KEY": "sk-test-dummy-openai-0000"}
    base_url_var, dialect = "OPENAI_BASE_URL", "openai"  # aider reads OPENAI_API_BASE: aliased
    other_key = None  # aider is given every provider's key it knows; ASUKA_CANARY_API_KEY is not
    probes = False

    def __init__(self, probe: str) -> None:
        self.rounds: list[list[Callable[[], Reply]]] = [
            [lambda: text(search_replace("index.html", "", APP_V1))],
            [lambda: text(search_replace("index.html", APP_V1 + "\n",
                                         APP_V1.replace("version one", "version two")))],
        ]
        self.round, self.step = -1, 0

    def __call__(self, rec: Recorded) -> Reply:
        self.round, self.step = self.round + 1, 0
        reply = self.rounds[self.round][self.step]()
        self.step += 1
        return reply


class OpenCodeModel:
    """Plays the model for OpenCode (chat completions, streamed, through its OpenAI-compatible
    provider): its bash, write, read and edit tools; a call without tools (a session title) is
    answered in a word."""

    env = {"OPENAI_API_KEY": "sk-test-dummy-openai-0000"}
    # OpenCode is given every provider's key it knows; ASUKA_CANARY_API_KEY is not one
    base_url_var, dialect, other_key = "OPENAI_BASE_URL", "openai", None

    def __init__(self, probe: str) -> None:
        self.workspace: str | None = None
        path = lambda: f"{self.workspace}/index.html"  # noqa: E731
        self.rounds: list[list[Callable[[], Reply]]] = [
            [lambda: tool_calls(("bash", {"command": probe, "description": "look around"})),
             lambda: tool_calls(("write", {"filePath": path(), "content": APP_V1})),
             lambda: text("Wrote index.html.")],
            [lambda: tool_calls(("read", {"filePath": path()})),
             lambda: tool_calls(("edit", {"filePath": path(), "oldString": "version one",
                                          "newString": "version two"})),
             lambda: text("Edited index.html.")],
        ]
        self.round, self.step = -1, 0

    def __call__(self, rec: Recorded) -> Reply:
        body = rec.body if isinstance(rec.body, dict) else {}
        if not body.get("tools"):
            return text("Todo page")
        if (body.get("messages") or [{}])[-1].get("role") != "tool":
            self.round, self.step = self.round + 1, 0
            m = re.search(r"[Ww]orking directory: (\S+)", _texts(body))
            self.workspace = m.group(1) if m else self.workspace
        reply = self.rounds[self.round][self.step]()
        self.step += 1
        return reply


def tool_outputs(server: ScriptedLLMServer) -> list[str]:
    """What the tool's commands printed, as sent back to the model, in order."""
    out: list[str] = []
    for r in server.requests:
        body = r.body if isinstance(r.body, dict) else {}
        for m in body.get("messages", []):
            for c in m.get("content") if isinstance(m.get("content"), list) else []:
                if isinstance(c, dict) and c.get("type") == "tool_result":
                    out.append(json.dumps(c.get("content")))
        for m in body.get("messages", []):
            if m.get("role") == "tool":
                out.append(json.dumps(m.get("content")))
        for item in body.get("input", []):
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                out.append(json.dumps(item.get("output")))
    return out


async def two_rounds_sealed(tool: str, program: str, model_cls: type, tmp_path: Path,
                            bench: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str],
                            image: str | None = None) -> None:
    """Run ``tool`` through two rounds of a sealed cell against its scripted model and check
    what every real tool must do (see the module doc)."""
    binary = pinned(tool)
    with capsys.disabled():
        print(f"\n[real agent CLI] {tool}: {version(binary)} ({load_adapters()[tool].package})")
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # only the pinned release can be found
    assert shutil.which(program) is None
    monkeypatch.setenv("ASUKA_LIVE_DIR", str(tmp_path / "live"))
    store = RunStore(tmp_path / "run")
    (store.root / "run.json").write_text(json.dumps({"bench": str(bench), "cells": []}))
    other = plant_other_cell(store)
    probe = (f"cat {store.root}/run.json; cat {bench}/tasks/mini-todo/task.yaml; "
             f"cat {bench}/prds/mini-todo.md; cat {other}/secret.txt; "
             "env | grep -i canary || echo no-canary; ls -a ..")
    model = model_cls(probe)
    server = ScriptedLLMServer().start()
    server.script(*[model] * 12)
    try:
        monkeypatch.setenv(model.base_url_var, server.base_url(model.dialect))
        for k, v in model.env.items():
            monkeypatch.setenv(k, v)
        monkeypatch.setenv("ASUKA_CANARY_API_KEY", CANARY)
        if model.other_key:  # a key its adapter does not declare: never passed
            monkeypatch.setenv(model.other_key, CANARY)
        (bt,) = load_tasks(bench, ["mini-todo"])
        options: dict[str, object] = {"tool": tool, "timeout_s": 120}
        if image:  # in a container of that image instead of bubblewrap
            options.update(sandbox="docker", image=image)
        # dag: the written page fails the layout task and the rest is skipped (the tools, not
        # the app, are under test here)
        spec = CellSpec(task="mini-todo", agent="cli", rounds=2, protocol="dag",
                        agent_options=options)
        result = await run_cell(spec, bt, store, Deployer())
    finally:
        server.stop()
    assert result.status == "finished", result
    if getattr(model, "probes", True):
        # the probe's output went back to the model: nothing of the answers, the store, a key
        outputs = tool_outputs(server)
        assert outputs, (server.requests, one_transcript(store, spec.cell_id))
        probed = outputs[0]
        assert "no-canary" in probed, probed
        for s in SENTINELS:
            assert s not in probed, (s, probed)
    one, two = store.load_round(spec.cell_id, 1), store.load_round(spec.cell_id, 2)
    for rec in (one, two):
        assert rec.agent.meta["sandbox"] == ("docker" if image else "bwrap"), rec.agent.meta
        assert rec.agent.ok, rec.agent.transcript[-3000:]
        assert rec.agent.usage and rec.agent.usage[0].output_tokens > 0, rec.agent.transcript[-3000:]
    assert two.agent.meta["continued"]
    snap1 = store.round_dir(spec.cell_id, 1) / "workspace" / "index.html"
    snap2 = store.round_dir(spec.cell_id, 2) / "workspace" / "index.html"
    assert "version one" in snap1.read_text()
    assert "version two" in snap2.read_text() and "version one" not in snap2.read_text()
    # the session went on in round 2 to its end (read, edit, answer)
    assert model.round == 1 and model.step == len(model.rounds[1])


sealed = [pytest.mark.browser,
          pytest.mark.skipif(not bwrap_usable(), reason="bubblewrap is not usable here")]


@pytest.mark.parametrize("tool, program, model_cls", [
    pytest.param("claude-code", "claude", ClaudeModel, marks=sealed, id="claude-code"),
    pytest.param("codex", "codex", CodexModel, marks=sealed, id="codex"),
    pytest.param("aider", "aider", AiderModel, marks=sealed, id="aider"),
    pytest.param("opencode", "opencode", OpenCodeModel, marks=sealed, id="opencode"),
])
async def test_real_tool_two_rounds_sealed(tool: str, program: str, model_cls: type,
                                           tmp_path: Path, sentinel_bench: Path,  # noqa: F811
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    await two_rounds_sealed(tool, program, model_cls, tmp_path, sentinel_bench, monkeypatch,
                            capsys)


def one_transcript(store: RunStore, cell: str) -> str:
    return store.load_round(cell, 1).agent.transcript[-3000:]


@pytest.mark.browser
@pytest.mark.skipif(not docker_available(), reason="no Docker engine")
async def test_codex_two_rounds_in_a_container(tmp_path: Path, sentinel_bench: Path,  # noqa: F811
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The same cell with Codex in a throwaway container of an image built here (this
    machine's Node, bash, the pinned Codex), on the host's network, never a bridge."""
    pinned("codex")
    try:
        image = build_agent_image("codex")
    except Exception as exc:  # noqa: BLE001 - the engine could not build it: say why
        pytest.skip(f"no codex image: {exc}")
    await two_rounds_sealed("codex", "codex", CodexModel, tmp_path, sentinel_bench,
                            monkeypatch, capsys, image=image)
