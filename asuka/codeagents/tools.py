"""File and shell tools an LLM code agent uses inside its workspace.

Every path is relative to the workspace: absolute paths, ``..`` components and symlinks that
lead outside are refused. Tool failures come back as ``error: ...`` text for the model to read;
they never raise.

``run_shell`` (only when allowed) runs ``sh -c`` in the workspace through the deploy Sandbox
(the agent resolves which with ``asuka.codeagents.sealed.resolve_sandbox``: bubblewrap, or a
local process only when the user allowed unsandboxed agents; no network unless ``shell_network``),
with the Sandbox's secret-free environment and a scratch HOME; the whole process tree is killed
on timeout and after the command. ``run_local`` is the fallback when asuka.deploy is unavailable.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import tempfile
from pathlib import Path
from typing import Any

MAX_READ_CHARS = 60_000
MAX_OUTPUT_CHARS = 12_000
SKIP_DIRS = {".git", "node_modules", "dist", "build", ".cache", "__pycache__", ".next"}
_SECRET = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|AUTH", re.I)
SAFE_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TMPDIR", "USER", "SHELL", "TZ",
            "NODE_PATH", "npm_config_cache")


class PathError(ValueError):
    pass


def _schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


_S = {"type": "string"}
TOOL_SPECS: dict[str, dict[str, Any]] = {
    "list_files": {"description": "List the files of the project (recursively, relative paths).",
                   "parameters": _schema({"path": {**_S, "description": "sub-folder, default ."}},
                                         [])},
    "read_file": {"description": "Read a text file of the project.",
                  "parameters": _schema({"path": _S}, ["path"])},
    "write_file": {"description": "Create or overwrite a file with the given content.",
                   "parameters": _schema({"path": _S, "content": _S}, ["path", "content"])},
    "edit_file": {"description": "Replace an exact snippet of a file. `search` must occur "
                                 "exactly once (include enough context) unless `replace_all`.",
                  "parameters": _schema({"path": _S, "search": _S, "replace": _S,
                                         "replace_all": {"type": "boolean"}},
                                        ["path", "search", "replace"])},
    "run_shell": {"description": "Run a shell command in the project folder (no network "
                                 "guaranteed). Returns exit code and output.",
                  "parameters": _schema({"command": _S}, ["command"])},
    "finish": {"description": "Call when the project is complete for this round.",
               "parameters": _schema({"summary": _S}, ["summary"])},
}


def scrubbed_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment without API keys or other secrets."""
    env = {k: v for k, v in os.environ.items() if k in SAFE_ENV and not _SECRET.search(k)}
    env.update(extra or {})
    return env


async def run_local(command: str, cwd: Path, timeout_s: float,
                    env: dict[str, str] | None = None) -> tuple[int | None, str, bool]:
    """Run ``sh -c command``; returns (exit code or None, combined output, timed_out)."""
    proc = await asyncio.create_subprocess_exec(
        "sh", "-c", command, cwd=str(cwd), env=env if env is not None else scrubbed_env(),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout_s)
        return proc.returncode, out.decode("utf-8", "replace"), False
    except asyncio.TimeoutError:
        kill_group(proc.pid)
        try:
            out, _ = await asyncio.wait_for(proc.communicate(), 5)
        except asyncio.TimeoutError:
            out = b""
        return None, out.decode("utf-8", "replace"), True


async def run_sandboxed(command: str, cwd: Path, timeout_s: float, sandbox: str = "auto",
                        network: bool = False) -> tuple[int | None, str, bool]:
    """Run ``sh -c command`` through asuka.deploy's Sandbox; same result as ``run_local``."""
    try:
        from asuka.deploy.procs import LogBuffer
        from asuka.deploy.sandbox import build_child_env, get_sandbox
    except ImportError:
        return await run_local(command, cwd, timeout_s)
    box = get_sandbox(sandbox)
    log = LogBuffer(head_chars=2_000, tail_chars=MAX_OUTPUT_CHARS)
    with tempfile.TemporaryDirectory(prefix="asuka-shell-home-") as home:
        env = build_child_env({"HOME": home}, network=network)
        proc = await asyncio.to_thread(box.spawn, ["/bin/sh", "-c", command], workspace=cwd,
                                       env=env, log=log, network=network,
                                       writable=[Path(home)])
        try:
            code = await asyncio.to_thread(proc.wait, timeout_s)
        finally:
            await asyncio.to_thread(proc.stop)  # also ends what the command left running
    return code, log.text(), code is None


def kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class WorkspaceTools:
    """The tools, bound to one workspace."""

    def __init__(self, root: Path, *, allow_shell: bool = False,
                 shell_timeout_s: float = 120.0, sandbox: str = "auto",
                 shell_network: bool = False) -> None:
        self.root = Path(root).resolve()
        self.allow_shell = allow_shell
        self.shell_timeout_s = shell_timeout_s
        self.sandbox, self.shell_network = sandbox, shell_network

    def specs(self) -> list[dict[str, Any]]:
        names = [n for n in TOOL_SPECS if n != "run_shell" or self.allow_shell]
        return [{"name": n, **TOOL_SPECS[n]} for n in names]

    def resolve(self, rel: str) -> Path:
        if not isinstance(rel, str) or not rel.strip():
            raise PathError("a non-empty relative path is required")
        p = Path(rel.strip())
        if p.is_absolute() or rel.strip().startswith("~"):
            raise PathError(f"absolute paths are not allowed ({rel!r}); use a path relative "
                            "to the project folder")
        if ".." in p.parts:
            raise PathError(f"'..' is not allowed in paths ({rel!r})")
        full = (self.root / p).resolve()
        if full != self.root and not full.is_relative_to(self.root):
            raise PathError(f"{rel!r} leads outside the project folder")
        return full

    def files(self, sub: str = ".") -> list[str]:
        base = self.root if sub in ("", ".") else self.resolve(sub)
        out: list[str] = []
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
            for f in sorted(filenames):
                out.append(str((Path(dirpath) / f).relative_to(self.root)))
        return out

    async def call(self, name: str, args: dict[str, Any]) -> str:
        try:
            if "__invalid_json__" in args:
                return "error: the tool arguments were not valid JSON"
            if name == "list_files":
                files = self.files(args.get("path") or ".")
                return "\n".join(files) if files else "(no files)"
            if name == "read_file":
                p = self.resolve(args["path"])
                if not p.is_file():
                    return f"error: no such file: {args['path']}"
                text = p.read_text("utf-8", errors="replace")
                if len(text) > MAX_READ_CHARS:
                    text = text[:MAX_READ_CHARS] + f"\n[... truncated, {len(text)} chars]"
                return text
            if name == "write_file":
                p = self.resolve(args["path"])
                p.parent.mkdir(parents=True, exist_ok=True)
                content = str(args.get("content", ""))
                p.write_text(content, "utf-8")
                return f"wrote {args['path']} ({len(content)} chars)"
            if name == "edit_file":
                return self._edit(args)
            if name == "run_shell":
                if not self.allow_shell:
                    return "error: run_shell is disabled for this agent"
                code, out, timed_out = await run_sandboxed(
                    str(args["command"]), self.root, self.shell_timeout_s, self.sandbox,
                    self.shell_network)
                if len(out) > MAX_OUTPUT_CHARS:
                    out = "[... output truncated ...]\n" + out[-MAX_OUTPUT_CHARS:]
                status = (f"timed out after {self.shell_timeout_s}s (killed)" if timed_out
                          else f"exit code {code}")
                return f"{status}\n{out}"
            return f"error: unknown tool {name!r}"
        except PathError as exc:
            return f"error: {exc}"
        except KeyError as exc:
            return f"error: missing argument {exc.args[0]!r} for {name}"
        except OSError as exc:
            return f"error: {type(exc).__name__}: {exc.strerror or exc}"

    def _edit(self, args: dict[str, Any]) -> str:
        p = self.resolve(args["path"])
        if not p.is_file():
            return f"error: no such file: {args['path']}"
        text = p.read_text("utf-8", errors="replace")
        search, replace = str(args["search"]), str(args["replace"])
        if not search:
            return "error: `search` must not be empty"
        n = text.count(search)
        if n == 0:
            return f"error: `search` text not found in {args['path']} (it must match exactly)"
        if n > 1 and not args.get("replace_all"):
            return (f"error: `search` occurs {n} times in {args['path']}; add context to make "
                    "it unique or set replace_all")
        p.write_text(text.replace(search, replace), "utf-8")
        return f"edited {args['path']} ({n} replacement{'s' if n > 1 else ''})"
