"""The LLM probe backend (WatchPoint's browser and terminal agents): one model call writes a
Playwright script that inspects the live app, another a bash script that inspects the
workspace; each runs once, sandboxed, and only its ``{"n": ..., "v": ...}`` lines become
observations: the model decides what to measure, never what the measurements mean.

Where they run: under the deploy sandbox (bubblewrap when usable) without a network, able to
reach the served app's port and nothing else (``reach_port``); the browser script in a scratch
directory with playwright-core (installed once from npm, ``asuka.deploy.node_packages``) and the
system Chromium; the terminal script in a copy of the workspace (its node_modules bound
read-only), thrown away afterwards, so the round's workspace is left as it was. Each has a wall
clock; its process group is killed at the end. The scripts and their raw output are kept in the
round's probe record."""

from __future__ import annotations

import asyncio
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2

from asuka.deploy.node_packages import PLAYWRIGHT_CORE, ensure_package
from asuka.deploy.procs import LogBuffer
from asuka.deploy.sandbox import build_child_env, get_sandbox
from asuka.evaluators import CodeInput
from asuka.llm import LLMClient, ModelSpec
from asuka.probes._base import ProbeContext, ProbeFindings, registry
from asuka.sanitize import parse_checks
from asuka.uiagents.browsing.browser import find_chromium

BACKEND = "llm"
PROMPTS = Path(__file__).parent / "prompts"
CODE_BLOCK = re.compile(r"```[a-zA-Z]*\n(.*?)```", re.S)
SOURCE_CHARS = 12_000


def script_of(reply: str) -> str:
    """The first fenced code block of a reply (the whole reply when it has none)."""
    m = CODE_BLOCK.search(reply)
    return (m.group(1) if m else reply).strip() + "\n"


class LLMProber:
    name = BACKEND

    def __init__(self, model: str | ModelSpec | dict, timeout_s: float = 60,
                 max_tokens: int = 2_000, sandbox: str = "auto", **_: Any) -> None:
        self.spec = ModelSpec.coerce(model)
        self.timeout_s = float(timeout_s)
        self.max_tokens = int(max_tokens)
        self.sandbox = sandbox
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)),
                                 undefined=jinja2.StrictUndefined, autoescape=False)
        self.templates = {k: env.get_template(f"{k}.j2") for k in ("browser", "terminal")}

    def preflight(self) -> None:
        self.spec.api_key()

    async def probe(self, ctx: ProbeContext) -> ProbeFindings:
        found = ProbeFindings()
        client = LLMClient(self.spec, role="ui-agent")  # part of the evaluation's cost
        code = CodeInput(ctx.workspace, ctx.bench_task.task.query,
                         frozenset(ctx.bench_task.task.data))
        sources = "".join(f"=== {f.rel}\n{f.text}\n" for f in code.files())[:SOURCE_CHARS]
        failures = [{"id": t.criterion.id, "text": t.criterion.text.strip(),
                     "observed": t.verdict.reason[:300]} for t in ctx.targets]
        facts = {"query": ctx.bench_task.task.query.strip(), "url": ctx.url or "(not served)",
                 "failures": failures, "sources": sources, "project_class": ctx.project_class}
        try:
            # one after the other: a scripted endpoint answers in order, and a real one is
            # not the bottleneck next to the scripts' own run time
            for kind, name in (("browser", "browser.cjs"), ("terminal", "terminal.sh")):
                if kind == "browser" and ctx.url is None:
                    found.errors.append("browser: the app is not served")
                    continue
                reply = await client.chat([{"role": "user",
                                            "content": self.templates[kind].render(**facts)}],
                                          max_tokens=self.max_tokens)
                script = script_of(reply.text)
                found.scripts[name] = script
                stdout = await asyncio.to_thread(self._run, kind, script, ctx, found)
                found.scripts[f"{name}.out"] = stdout[-4000:]
                found.observations += parse_checks(
                    stdout.replace(str(ctx.workspace), "<workspace>"), kind)
        finally:
            total = client.total_usage
            if total.calls:
                found.usage.append(total)
        return found

    def _run(self, kind: str, script: str, ctx: ProbeContext, found: ProbeFindings) -> str:
        port = urlsplit(ctx.url).port if ctx.url else None
        sandbox = get_sandbox(self.sandbox)
        scratch = Path(tempfile.mkdtemp(prefix=f"asuka-probe-{kind}-"))
        try:
            readonly: list[Path] = []
            extra = {"HOME": str(scratch / "home"), "APP_URL": ctx.url or ""}
            (scratch / "home").mkdir()
            if kind == "browser":
                modules = ensure_package("playwright-core", PLAYWRIGHT_CORE)
                readonly.append(modules)
                extra.update(NODE_PATH=str(modules), CHROMIUM=find_chromium() or "")
                workdir = scratch / "probe"
                workdir.mkdir()
                (workdir / "probe.cjs").write_text(script, encoding="utf-8")
                argv = ["node", str(workdir / "probe.cjs")]
            else:
                workdir = scratch / "workspace"
                shutil.copytree(ctx.workspace, workdir, symlinks=True,
                                ignore=shutil.ignore_patterns("node_modules"))
                if (ctx.workspace / "node_modules").is_dir():
                    (workdir / "node_modules").symlink_to(ctx.workspace / "node_modules")
                    readonly.append(ctx.workspace / "node_modules")
                (scratch / "probe.sh").write_text(script, encoding="utf-8")
                readonly.append(scratch / "probe.sh")
                argv = ["bash", str(scratch / "probe.sh")]
            log = LogBuffer()
            # the page sees the browser online, as the UI agent's own browser does
            proc = sandbox.spawn(argv, workspace=workdir, writable=[scratch / "home"],
                                 readonly=readonly, log=log, network=False, reach_port=port,
                                 env=build_child_env(extra, network=False),
                                 appear_online=kind == "browser")
            try:
                code = proc.wait(self.timeout_s)
            finally:
                proc.stop()  # the script's whole process group, whatever it started
            if code is None:
                found.errors.append(f"{kind}: timed out after {self.timeout_s:g}s")
            elif code != 0:
                found.errors.append(f"{kind}: exited with code {code}")
            return log.text()
        finally:
            shutil.rmtree(scratch, ignore_errors=True)


@registry.register(BACKEND)
def _factory(model: str | ModelSpec | dict | None = None, **options: Any) -> LLMProber:
    if model is None:
        raise ValueError("the llm probe backend needs a model (--probe-opt model=...)")
    return LLMProber(model, **options)
