"""The "llm" code agent: a tool-using loop over asuka.llm that edits the workspace.

One agent object serves one cell. With ``warm_start`` it keeps the conversation across rounds
(keyed by workspace), so round r+1's feedback is appended to round r's full history; with a cold
start every round begins a new conversation from the round's prompt, the original request and
the current file list. The conversation is also returned in ``meta["history"]``, so a resumed
run (a new agent object, ``ctx.previous_meta`` from the store) continues the same conversation.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from asuka.codeagents import registry
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.codeagents.sealed import resolve_sandbox
from asuka.codeagents.tools import WorkspaceTools
from asuka.llm import LLMClient, LLMConfigError, LLMError, ModelSpec

SYSTEM_PROMPT = """You are a senior front-end engineer working in a project folder through tools.
Build what the user asks as a self-contained web project in that folder: an index.html (with
its CSS/JS), or a package.json with a build or start script. No backend, no network access at
run time. Read files before editing them; prefer edit_file for small changes and write_file for
new or rewritten files. All paths are relative to the project folder.
When the work for this request is done, call finish with a short summary."""

MAX_LOG_CHARS = 400
# HTTP statuses that reject the request itself (bad request, too large, unprocessable)
AGENT_REQUEST_ERRORS = (400, 413, 422)


def _short(value: Any, n: int = MAX_LOG_CHARS) -> str:
    s = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return s if len(s) <= n else s[:n] + f"... [{len(s)} chars]"


def _args_summary(args: dict[str, Any]) -> str:
    parts = []
    for k, v in args.items():
        if isinstance(v, str) and len(v) > 80:
            parts.append(f"{k}=<{len(v)} chars>")
        else:
            parts.append(f"{k}={json.dumps(v, ensure_ascii=False)}")
    return ", ".join(parts)


class LLMCodeAgent:
    name = "llm"

    def __init__(self, model: str | ModelSpec | dict, *, max_steps: int = 30,
                 warm_start: bool = True, allow_shell: bool = False,
                 shell_timeout_s: float = 120.0, sandbox: str | None = None,
                 shell_network: bool = False, system_prompt: str | None = None,
                 max_tokens: int | None = None, temperature: float | None = None,
                 allow_unsandboxed: bool = False) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be >= 1")
        self.client = LLMClient(ModelSpec.coerce(model), role="code-agent")
        self.max_steps = max_steps
        self.warm_start = warm_start
        self.allow_shell = allow_shell
        self.shell_timeout_s = shell_timeout_s
        self.sandbox, self.shell_network = sandbox, shell_network  # None: the round's sandbox
        self.allow_unsandboxed = bool(allow_unsandboxed)
        self.system_prompt = system_prompt or SYSTEM_PROMPT
        self.max_tokens, self.temperature = max_tokens, temperature
        # conversation per workspace (one cell = one workspace)
        self.histories: dict[str, list[dict[str, Any]]] = {}

    def preflight(self, sandbox: str | None = None) -> str | None:
        """The key is there, and the shell tool (when allowed) can be sealed; returns the
        sandbox of the shell tool (None without one)."""
        self.client.preflight()
        if not self.allow_shell:
            return None
        return resolve_sandbox(self.sandbox or sandbox, self.allow_unsandboxed)

    # ------------------------------------------------------------ prompt
    def _opening(self, ctx: RoundContext, tools: WorkspaceTools) -> list[dict[str, Any]]:
        prompt = ctx.prompt
        if ctx.round > 1:  # a fresh conversation needs the request and the current state
            files = tools.files()
            listing = "\n".join(f"- {f}" for f in files[:300]) or "(empty)"
            prompt = (f"The original request was:\n\n{ctx.bench_task.task.query}\n\n"
                      f"You already built a first version; the project folder now contains:\n"
                      f"{listing}\n\n{prompt}")
        return [{"role": "system", "content": self.system_prompt},
                {"role": "user", "content": prompt}]

    def _messages(self, ctx: RoundContext, key: str, tools: WorkspaceTools) -> list[dict]:
        history = None
        if self.warm_start and ctx.round > 1:
            history = self.histories.get(key) or (ctx.previous_meta or {}).get("history")
        if history:
            return [*history, {"role": "user", "content": ctx.prompt}]
        return self._opening(ctx, tools)

    # ------------------------------------------------------------ the round
    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        t0 = time.monotonic()
        workspace = Path(ctx.workspace)
        workspace.mkdir(parents=True, exist_ok=True)
        key = str(workspace.resolve())
        box = self.preflight(ctx.sandbox)
        tools = WorkspaceTools(workspace, allow_shell=self.allow_shell,
                               shell_timeout_s=self.shell_timeout_s,
                               sandbox="local" if box == "none" else (box or "bwrap"),
                               shell_network=self.shell_network)
        self.client.round = ctx.round
        messages = [dict(m) for m in self._messages(ctx, key, tools)]
        log: list[str] = [f"## round {ctx.round} ({'warm' if len(messages) > 2 else 'cold'}"
                          f" start, model {self.client.spec.label})",
                          f"[user] {_short(messages[-1]['content'], 2000)}"]
        stopped, summary, error = "max_steps", None, None
        steps = 0
        try:
            while steps < self.max_steps:
                steps += 1
                res = await self.client.chat(messages, tools=tools.specs(),
                                             max_tokens=self.max_tokens,
                                             temperature=self.temperature)
                messages.append(res.message())
                if res.text:
                    log.append(f"[assistant] {_short(res.text, 2000)}")
                if not res.tool_calls:
                    stopped = "no_tool_call" if res.stop_reason != "length" else "length"
                    break
                finished = False
                for call in res.tool_calls:
                    name, args = call["name"], call.get("arguments") or {}
                    if name == "finish":
                        summary = str(args.get("summary", ""))
                        out, finished = "ok", True
                    else:
                        out = await tools.call(name, args)
                    log.append(f"[tool {steps}] {name}({_args_summary(args)}) -> {_short(out)}")
                    messages.append({"role": "tool", "tool_call_id": call["id"], "name": name,
                                     "content": out})
                if finished:
                    stopped = "finish"
                    break
        except LLMConfigError:
            raise  # wrong key/model/base_url: a setup problem, not the agent's behaviour
        except LLMError as exc:
            if exc.status not in AGENT_REQUEST_ERRORS:
                raise  # the provider failed (after retries): the harness's side, not scored
            # the server rejected the request the agent's conversation made (e.g. too long):
            # that is the agent's behaviour, and its round is scored as it stands
            error, stopped = str(exc), "llm_error"
            log.append(f"[error] {exc}")
        if stopped == "max_steps":
            log.append(f"[stopped] step budget of {self.max_steps} model calls used up")
        if summary is not None:
            log.append(f"[finish] {summary}")
        # Warm start keeps a well-formed history (every tool call has its result).
        self.histories[key] = messages if self.warm_start else []
        meta_history = {"history": messages} if self.warm_start else {}
        return AgentRoundResult(
            ok=error is None, error=error, transcript="\n".join(log),
            usage=[self.client.usage_for(ctx.round)], duration_s=time.monotonic() - t0,
            meta={"steps": steps, "stopped": stopped, "summary": summary, "shell_sandbox": box,
                  "warm_start": self.warm_start, "model": self.client.spec.label,
                  **meta_history})


@registry.register("llm")
def make_llm_agent(model: str | ModelSpec | dict, max_steps: int = 30, warm_start: bool = True,
                   allow_shell: bool = False, **options: Any) -> LLMCodeAgent:
    return LLMCodeAgent(model, max_steps=max_steps, warm_start=warm_start,
                        allow_shell=allow_shell, **options)
