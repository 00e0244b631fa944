"""The "cli" code agent: runs an external agent CLI (Claude Code, aider, codex, opencode,
OpenHands, or a custom command) in the workspace, one process per round.

The adapters are data (cli_agents.yaml): how the command line is built for round 1 and for a
continued session, how the prompt is passed, where the transcript goes, which environment
variables the tool needs. The process runs with cwd = workspace in its own process group; on
timeout the whole group is killed.

Sealing (``asuka.codeagents.sealed``): by default the process runs in a bubblewrap sandbox (or,
with ``sandbox=docker``, a container of the adapter's image) that sees only its workspace, a private HOME (kept across the cell's rounds, seeded with the config
files the adapter declares), its own program and the system directories; never the run store,
the benchmark or other cells. Without a usable sandbox the cell fails at its preflight unless
the user allowed unsandboxed agents. Its environment: locale and PATH, the provider variables
its adapter declares (the agent under test is trusted with its own key, no other), and
``env_set``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from asuka.codeagents import registry
from asuka.codeagents.adapters import CLIAdapter, HomeConfig, load_adapters
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.codeagents.install import installed_binary
from asuka.codeagents.sealed import resolve_sandbox, run_in_container, sealed_argv
from asuka.codeagents.tools import kill_group
from asuka.errors import SetupError
from asuka.usage import Usage

# HOME, TMPDIR and XDG_* are the agent's own (its private home), never the host's
BASE_ENV = ("PATH", "LANG", "LC_ALL", "TERM", "USER", "SHELL", "TZ")
PLACEHOLDER = re.compile(r"\{(prompt|prompt_file|model|workspace|round)\}")
MAX_STREAM_BYTES = 4_000_000


class Invocation(BaseModel):
    argv: list[str]
    stdin: str | None = None
    env: dict[str, str]
    continued: bool
    prompt: str


def _fill(token: str, values: dict[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), ""), token)


def json_events(stdout: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a tool's JSON-lines output, in order; other lines are skipped."""
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            ev = json.loads(line)
        except ValueError:
            continue
        if isinstance(ev, dict):
            yield ev


def codex_usage(stdout: str, model: str, before: Usage | None = None) -> list[Usage]:
    """Usage from ``codex exec --json``: its last ``turn.completed`` event counts the whole
    session, so a resumed session's round is the difference from ``before``."""
    total: Usage | None = None
    for ev in json_events(stdout):
        if ev.get("type") == "turn.completed":
            u = ev.get("usage") or {}
            total = Usage(role="code-agent", model=model, calls=1,
                          input_tokens=int(u.get("input_tokens") or 0),
                          output_tokens=int(u.get("output_tokens") or 0)
                          + int(u.get("reasoning_output_tokens") or 0),
                          cached_tokens=int(u.get("cached_input_tokens") or 0))
    if total is None:
        return []
    if before is not None:
        total = total.model_copy(update={
            "input_tokens": max(0, total.input_tokens - before.input_tokens),
            "output_tokens": max(0, total.output_tokens - before.output_tokens),
            "cached_tokens": max(0, total.cached_tokens - before.cached_tokens)})
    return [total]


_AIDER_TOKENS = re.compile(r"Tokens: ([\d.]+)(k?) sent(?:, ([\d.]+)(k?) cache write)?"
                           r"(?:, ([\d.]+)(k?) cache hit)?, ([\d.]+)(k?) received")


def aider_usage(stdout: str, model: str) -> list[Usage]:
    """Usage from aider's "Tokens: 2.4k sent, 50 received." lines, one per model call (aider
    rounds to hundreds above a thousand)."""
    def n(value: str | None, k: str | None) -> int:
        return int(float(value or 0) * (1000 if k else 1))

    calls = [m for m in _AIDER_TOKENS.finditer(stdout)]
    if not calls:
        return []
    return [Usage(role="code-agent", model=model, calls=len(calls),
                  input_tokens=sum(n(m[1], m[2]) + n(m[3], m[4]) + n(m[5], m[6]) for m in calls),
                  output_tokens=sum(n(m[7], m[8]) for m in calls),
                  cached_tokens=sum(n(m[5], m[6]) for m in calls))]


def opencode_usage(stdout: str, model: str) -> list[Usage]:
    """Usage from ``opencode run --format json``: the tokens of each ``step_finish``."""
    steps = [ev.get("part", {}).get("tokens") or {} for ev in json_events(stdout)
             if ev.get("type") == "step_finish"]
    if not steps:
        return []
    read = sum(int((t.get("cache") or {}).get("read") or 0) for t in steps)
    return [Usage(role="code-agent", model=model, calls=len(steps),
                  input_tokens=sum(int(t.get("input") or 0) for t in steps) + read,
                  output_tokens=sum(int(t.get("output") or 0) + int(t.get("reasoning") or 0)
                                    for t in steps),
                  cached_tokens=read)]


def claude_usage(stdout: str, model: str) -> list[Usage]:
    """Usage from Claude Code's final ``result`` event (stream-json / json output)."""
    for ev in reversed(list(json_events(stdout))):
        if ev.get("type") == "result":
            u = ev.get("usage") or {}
            read = int(u.get("cache_read_input_tokens") or 0)
            write = int(u.get("cache_creation_input_tokens") or 0)
            return [Usage(role="code-agent", model=model, calls=int(ev.get("num_turns") or 1),
                          input_tokens=int(u.get("input_tokens") or 0) + read + write,
                          output_tokens=int(u.get("output_tokens") or 0), cached_tokens=read,
                          latency_s=float(ev.get("duration_ms") or 0) / 1000,
                          cost_usd=ev.get("total_cost_usd"))]
    return []


async def run_process(argv: list[str], cwd: Path, env: dict[str, str], stdin: str | None,
                      timeout_s: float) -> tuple[int | None, str, str, bool]:
    """Run argv in its own process group; returns (exit code, stdout, stderr, timed_out).
    Output read before a timeout is kept."""
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=str(cwd), env=env, start_new_session=True,
        stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    bufs = (bytearray(), bytearray())

    async def pump(stream: asyncio.StreamReader, buf: bytearray) -> None:
        while chunk := await stream.read(65536):
            buf.extend(chunk)
            if len(buf) > MAX_STREAM_BYTES:  # keep the tail, where the outcome is
                del buf[: len(buf) - MAX_STREAM_BYTES]

    pumps = [asyncio.create_task(pump(s, b)) for s, b in zip((proc.stdout, proc.stderr), bufs)]
    if stdin is not None and proc.stdin is not None:
        try:
            proc.stdin.write(stdin.encode())
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass
    timed_out = False
    try:
        await asyncio.wait_for(proc.wait(), timeout_s)
    except asyncio.TimeoutError:
        timed_out = True
        kill_group(proc.pid)
        await proc.wait()
    done, pending = await asyncio.wait(pumps, timeout=5)  # a setsid'd grandchild may hold a pipe
    for t in pending:
        t.cancel()
    out, err = (b.decode("utf-8", "replace") for b in bufs)
    return (None if timed_out else proc.returncode), out, err, timed_out


class CLICodeAgent:
    name = "cli"

    def __init__(self, tool: str = "claude-code", *, model: str | None = None,
                 command: str | None = None, continue_command: str | None = None,
                 binary: str | list[str] | None = None,
                 prompt_via: Literal["arg", "stdin", "file"] | None = None,
                 timeout_s: float | None = None, continue_session: bool = True,
                 pass_env: list[str] | None = None, env_set: dict[str, str] | None = None,
                 transcript: str | dict[str, str] | None = None,
                 adapters_file: str | Path | None = None, sandbox: str | None = None,
                 allow_unsandboxed: bool = False, image: str | None = None) -> None:
        if tool == "custom":
            if not command:
                raise ValueError("tool='custom' needs command='my-agent ... {prompt}'")
            first = shlex.split(command)
            adapter = CLIAdapter(binary=first[0], first=first[1:],
                                 continue_=shlex.split(continue_command)[1:]
                                 if continue_command else None)
        else:
            adapters = load_adapters(Path(adapters_file) if adapters_file else None)
            if tool not in adapters:
                raise ValueError(f"unknown CLI agent {tool!r}; known: "
                                 f"{', '.join(sorted(adapters))}, custom")
            adapter = adapters[tool]
        update: dict[str, Any] = {}
        if binary is not None:
            update["binary"] = binary
        if prompt_via is not None:
            update["prompt_via"] = prompt_via
        if transcript is not None:
            update["transcript"] = transcript
        if pass_env:
            update["env"] = [*adapter.env, *pass_env]
        if env_set:
            update["env_set"] = {**adapter.env_set, **env_set}
        if image is not None:
            update["image"] = image
        self.adapter = adapter.model_copy(update=update)
        if self.adapter.prompt_via == "arg" and not any("{prompt}" in t for t in
                                                        self.adapter.first):
            raise ValueError(f"{tool}: the command has no {{prompt}} placeholder")
        self.tool, self.model = tool, model
        self.timeout_s = timeout_s
        self.continue_session = continue_session
        self.sandbox, self.allow_unsandboxed = sandbox, bool(allow_unsandboxed)
        self._session_usage: dict[str, Usage] = {}  # per workspace: a session's running total

    # ------------------------------------------------------------ preflight
    def _executable(self) -> str | None:
        a = self.adapter
        first = a.binary[0] if isinstance(a.binary, list) else a.binary
        found = shutil.which(first)
        if found is None and self.tool != "custom":  # the pinned release, when installed
            pinned = installed_binary(self.tool, a)
            found = str(pinned) if pinned is not None else None
        return found

    def preflight(self, sandbox: str | None = None) -> str:
        """Sandbox, binary and provider key, checked before round 1; returns the sandbox."""
        a = self.adapter
        first = a.binary[0] if isinstance(a.binary, list) else a.binary
        box = resolve_sandbox(self.sandbox or sandbox, self.allow_unsandboxed)
        if box == "docker":  # the program comes from the image, not from this host
            if not a.image:
                raise SetupError(f"{self.tool}: the docker agent sandbox needs an image with "
                                 f"{first!r} installed (agent option image=...)")
        elif self._executable() is None:
            raise SetupError(f"{self.tool}: cannot find the program {first!r} (install it, or "
                             "set the `binary` agent option)")
        if a.requires_env and not any(os.environ.get(k) for k in a.requires_env):
            raise SetupError(f"{self.tool}: none of {', '.join(a.requires_env)} is set (the "
                             "agent needs its provider key in the environment)")
        return box

    # ------------------------------------------------------------ command line
    def build(self, ctx: RoundContext, prompt_file: Path | None = None,
              sealed: bool = False) -> Invocation:
        """The command line, stdin and environment for this round (no side effects)."""
        a = self.adapter
        continued = bool(ctx.round > 1 and self.continue_session and a.continue_ is not None)
        prompt = ctx.prompt
        if ctx.round > 1 and not continued:  # a new session must be told the original request
            prompt = f"The original request was:\n\n{ctx.bench_task.task.query}\n\n{prompt}"
        workspace = str(Path(ctx.workspace).resolve())
        values = {"prompt": prompt, "prompt_file": str(prompt_file or ""),
                  "model": self.model or "", "workspace": workspace, "round": str(ctx.round)}
        argv = list(a.binary) if isinstance(a.binary, list) else [a.binary]
        for token in (a.continue_ if continued else a.first) or []:
            if token == "{model_args}":
                if self.model:
                    argv += [_fill(t, values) for t in a.model_args]
            else:
                argv.append(_fill(a.sandboxed_args.get(token, token) if sealed else token,
                                  values))
        env = {k: os.environ[k] for k in BASE_ENV if k in os.environ}
        env.update({"HOME": str(agent_home(ctx)), "TMPDIR": "/tmp"})
        # The agent under test is trusted with its own provider key(s): pass those through.
        env.update({k: os.environ[k] for k in a.env if k in os.environ})
        env.update({k: os.environ[src] for k, src in a.env_alias.items()
                    if k not in env and os.environ.get(src)})
        env.update({k: _fill(v, values) for k, v in a.env_set.items()})
        if sealed:
            env.update(a.sandboxed_env)
        if a.model_env and self.model:
            env[a.model_env] = self.model
        return Invocation(argv=argv, stdin=prompt if a.prompt_via == "stdin" else None,
                          env=env, continued=continued, prompt=prompt)

    # ------------------------------------------------------------ the round
    def _transcript_file(self, workspace: Path) -> Path | None:
        t = self.adapter.transcript
        return workspace / t["file"] if isinstance(t, dict) and "file" in t else None

    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        t0 = time.monotonic()
        box = self.preflight(ctx.sandbox)  # a binary or key that went away is a setup error
        workspace = Path(ctx.workspace)
        workspace.mkdir(parents=True, exist_ok=True)
        home = agent_home(ctx)
        if not home.exists():
            home.mkdir(parents=True)
            seed_config(home, self.adapter.config)
        write_home_config(home, self.adapter.home_config, self.model)
        tfile = self._transcript_file(workspace)
        offset = tfile.stat().st_size if tfile and tfile.is_file() else 0
        timeout = self.timeout_s if self.timeout_s is not None else ctx.timeout_s
        with tempfile.TemporaryDirectory(prefix="asuka-prompt-") as tmp:
            prompt_file = Path(tmp) / f"prompt-round-{ctx.round}.md"
            inv = self.build(ctx, prompt_file, sealed=box != "none")
            prompt_file.write_text(inv.prompt, "utf-8")
            argv = inv.argv
            if box != "docker":  # on PATH, or the pinned release installed for Asuka
                argv = [self._executable() or argv[0], *argv[1:]]
            if box == "bwrap":
                argv = sealed_argv([os.path.realpath(argv[0]), *argv[1:]], workspace=workspace,
                                   home=home, network=self.adapter.network,
                                   readonly=[Path(tmp)], sealed=ctx.sealed)
            try:
                if box == "docker":
                    code, out, err, timed_out = await run_in_container(
                        argv, image=str(self.adapter.image), workspace=workspace, home=home,
                        env=inv.env, network=self.adapter.network, stdin=inv.stdin,
                        timeout_s=timeout, readonly=[Path(tmp)])
                else:
                    code, out, err, timed_out = await run_process(argv, workspace, inv.env,
                                                                  inv.stdin, timeout)
            except (FileNotFoundError, PermissionError) as exc:
                raise SetupError(f"cannot run {argv[0]!r} for {self.tool}: "
                                 f"{exc.strerror or exc}") from exc
        if tfile and tfile.is_file():
            with tfile.open("rb") as fh:
                fh.seek(offset)
                body = fh.read().decode("utf-8", "replace")
        else:
            body = out
        parts = [f"## round {ctx.round}: {self.tool} "
                 f"({'continued session' if inv.continued else 'new session'})",
                 f"$ {shlex.join(inv.argv)}" if len(shlex.join(inv.argv)) < 4000 else
                 f"$ {inv.argv[0]} ... ({len(inv.argv)} args)", body.rstrip()]
        if tfile and out.strip():
            parts.append("[stdout]\n" + out.rstrip()[-8000:])
        if err.strip():
            parts.append("[stderr]\n" + err.rstrip()[-8000:])
        error = None
        if timed_out:
            error = f"{self.tool} timed out after {timeout}s (process group killed)"
            parts.append(f"[timeout] {error}")
        elif code != 0:
            error = f"{self.tool} exited with code {code}"
        usage: list[Usage] = []
        if self.adapter.usage == "claude-stream-json":
            usage = claude_usage(out, self.model or "")
        elif self.adapter.usage == "opencode-json":
            usage = opencode_usage(out, self.model or "")
        elif self.adapter.usage == "aider":
            usage = aider_usage(out, self.model or "")
        elif self.adapter.usage == "codex-json":
            usage = codex_usage(out, self.model or "",
                                self._session_usage.get(str(workspace)) if inv.continued
                                else None)
            whole = codex_usage(out, self.model or "")
            if whole:
                self._session_usage[str(workspace)] = whole[0]
        return AgentRoundResult(
            ok=error is None, error=error, transcript="\n".join(parts), usage=usage,
            duration_s=time.monotonic() - t0,
            meta={"tool": self.tool, "argv": inv.argv, "exit_code": code,
                  "timed_out": timed_out, "continued": inv.continued, "sandbox": box})


def agent_home(ctx: RoundContext) -> Path:
    """The agent's private HOME: the loop's per-cell folder, or one beside the workspace."""
    if ctx.agent_home is not None:
        return Path(ctx.agent_home)
    ws = Path(ctx.workspace)
    return ws.parent / f"{ws.name}.home"


_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD")


def write_home_config(home: Path, entries: list[HomeConfig], model: str | None) -> None:
    """Write each config file whose variable is set, filled from the environment (Codex reads
    its provider, with the base URL, only from a file)."""
    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if _SECRET.search(name):  # a key stays a reference the tool resolves (OpenCode does):
            return m.group(0)     # Asuka writes no secret to disk
        return os.environ.get(name, "")

    for entry in entries:
        if entry.when and not os.environ.get(entry.when):
            continue
        text = re.sub(r"\{env:([A-Z0-9_]+)\}", fill, entry.text)
        text = text.replace("{model}", model or "").replace(
            "{model_name}", (model or "").rpartition("/")[2] or "default")
        dest = home / entry.file
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text)


def seed_config(home: Path, entries: list[str]) -> None:
    """Copy the config files an adapter declares from the user's HOME into the agent's."""
    user_home = Path(os.path.expanduser("~"))
    for rel in entries:
        src = user_home / rel
        dest = home / rel
        if src.is_dir():
            shutil.copytree(src, dest, symlinks=False, dirs_exist_ok=True)
        elif src.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)


@registry.register("cli")
def make_cli_agent(tool: str = "claude-code", model: str | None = None,
                   command: str | None = None, timeout_s: float | None = None,
                   **options: Any) -> CLICodeAgent:
    return CLICodeAgent(tool, model=model, command=command, timeout_s=timeout_s, **options)
