"""The deterministic checks evaluators name in their criteria, by kind.

A check returns ``(verdict, reason, evidence)``: ``pass`` / ``fail`` / ``na``, and the evidence a
reader can verify: deploy-log lines for the build engineer, ``file:line: text`` for the code
engineer. Pure functions of what they are given: the build checks read the deploy record and
the operability probe, the code checks read the workspace's files (never run them)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from asuka.log.records import DeployResult
from asuka.schema import Operability

Outcome = tuple[str, str, list[str]]


@dataclass
class BuildInput:
    deploy: DeployResult
    operability: Operability | None


# ---------------------------------------------------------------- build engineer

# the deployer's notes that record a repair it had to make or a doubt about what it served
REPAIR_NOTES = re.compile(r"^(npm ci failed; retrying.*|build wrote no index\.html.*|"
                          r"warning: .*|npm install failed on a peer-dependency conflict.*|"
                          r"package\.json has no start script.*|the app listens on port .*)$",
                          re.M)


def deploy_ok(b: BuildInput) -> Outcome:
    if b.deploy.ok:
        return "pass", f"deployed as {b.deploy.kind}", []
    return "fail", "the project did not deploy", [line for line in
                                                 (b.deploy.error or "").splitlines()[-5:]]


def renders(b: BuildInput) -> Outcome:
    if not b.deploy.ok:
        return "fail", "nothing was served", []
    op = b.operability
    if op is None or op.ok is None:
        return "na", "no operability probe ran" if op is None else op.reason, []
    if op.ok:
        return "pass", f"the root renders ({op.visible_elements} visible elements)", []
    return "fail", op.reason, list(op.errors[:5])


def no_repairs(b: BuildInput) -> Outcome:
    repairs = REPAIR_NOTES.findall(b.deploy.log)
    if not b.deploy.ok and not repairs:
        return "fail", "the deploy failed", []
    if repairs:
        return "fail", f"{len(repairs)} repair(s) or warning(s) in the deploy", repairs[:5]
    return "pass", "deployed as the project is, without repairs", []


BUILD_CHECKS: dict[str, Callable[[BuildInput], Outcome]] = {
    "deploy-ok": deploy_ok, "renders": renders, "no-repairs": no_repairs}


# ---------------------------------------------------------------- code engineer

SKIP_DIRS = {"node_modules", ".git", ".cache", ".vite"}
BUILT_DIRS = {"dist", "build", "out"}  # a bundler's output, when the project has a build
SOURCE_SUFFIXES = {".html", ".htm", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".vue",
                   ".svelte", ".css"}
SERVER_SUFFIXES = {".py", ".rb", ".php", ".go", ".java"}
SERVER_PACKAGES = {"express", "koa", "fastify", "@hapi/hapi", "hapi", "@nestjs/core",
                   "socket.io", "ws"}
REMOTE_TAG = re.compile(r"<(?:script|link|img|iframe)\b[^>]*?\b(?:src|href)\s*=\s*[\"']"
                        r"(?:https?:)?//(?!localhost|127\.0\.0\.1)[^\"']+", re.I)
REMOTE_IMPORT = re.compile(r"\b(?:import\b[^;\n]*?\bfrom\s*|import\s*\(\s*|@import\s+(?:url\()?)"
                           r"[\"'](?:https?:)?//[^\"']+", re.I)
SERVER_CODE = re.compile(r"\b(?:http\.createServer|createServer\(|express\(\)|require\(\s*[\"']"
                         r"(?:express|koa|fastify|http)[\"']\s*\)|from\s+[\"'](?:express|koa|"
                         r"fastify|node:http)[\"']|app\.listen\()")
STORAGE = re.compile(r"\b(?:localStorage|sessionStorage|indexedDB|document\.cookie)\b")
REMOTE_REQUEST = re.compile(r"\b(?:fetch|axios\.\w+|axios|\.open)\s*\(\s*(?:[\"'][A-Z]+[\"']\s*,"
                            r"\s*)?[\"'`](?:https?:)?//(?!localhost|127\.0\.0\.1)[^\"'`]+")


@dataclass
class SourceFile:
    rel: str
    text: str

    def cite(self, match: re.Match) -> str:
        line = self.text.count("\n", 0, match.start()) + 1
        snippet = self.text.splitlines()[line - 1].strip()[:120]
        return f"{self.rel}:{line}: {snippet}"


@dataclass
class CodeInput:
    workspace: Path
    query: str
    data: frozenset[str] = frozenset()   # the task's mock data files: not the agent's code

    def files(self) -> list[SourceFile]:
        built = (self.workspace / "package.json").is_file()
        out: list[SourceFile] = []
        for dirpath, dirnames, filenames in os.walk(self.workspace):
            rel_dir = Path(dirpath).relative_to(self.workspace)
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS
                                 and not (built and rel_dir == Path(".") and d in BUILT_DIRS))
            for name in sorted(filenames):
                rel = (rel_dir / name).as_posix()
                if rel in self.data or Path(name).suffix.lower() not in (
                        SOURCE_SUFFIXES | SERVER_SUFFIXES | {".json"}):
                    continue
                try:
                    text = (Path(dirpath) / name).read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    continue
                out.append(SourceFile(rel, text))
        return out

    def package(self) -> tuple[dict, SourceFile | None]:
        f = next((f for f in self.files() if f.rel == "package.json"), None)
        try:
            data = json.loads(f.text) if f else {}
        except ValueError:
            data = {}
        return (data if isinstance(data, dict) else {}), f


def _dependencies(c: CodeInput) -> list[str]:
    data, f = c.package()
    found = []
    for key in ("dependencies", "devDependencies"):
        for name in (data.get(key) or {}) if isinstance(data.get(key), dict) else ():
            m = re.search(rf"[\"']{re.escape(name)}[\"']\s*:", f.text) if f else None
            found.append(f.cite(m) if (f and m) else f"package.json: {key} {name}")
    return found


def _matches(c: CodeInput, pattern: re.Pattern, suffixes: set[str]) -> list[str]:
    return [f.cite(m) for f in c.files() if Path(f.rel).suffix.lower() in suffixes
            for m in pattern.finditer(f.text)]


def no_external_libraries(c: CodeInput) -> Outcome:
    found = _dependencies(c) + _matches(c, REMOTE_TAG, {".html", ".htm"}) + _matches(
        c, REMOTE_IMPORT, SOURCE_SUFFIXES)
    if found:
        return "fail", f"{len(found)} external librar(y/ies) or remote resource(s)", found[:10]
    return "pass", "no dependencies declared and nothing loaded from another host", []


def no_backend(c: CodeInput) -> Outcome:
    data, _ = c.package()
    deps: set[str] = set()
    for key in ("dependencies", "devDependencies"):
        if isinstance(data.get(key), dict):
            deps |= set(data[key])
    found = [f"package.json: server package {name}" for name in sorted(SERVER_PACKAGES & deps)]
    found += [f"{s.rel}: server-side source" for s in c.files()
              if Path(s.rel).suffix.lower() in SERVER_SUFFIXES]
    found += _matches(c, SERVER_CODE, {".js", ".mjs", ".cjs", ".ts"})
    if found:
        return "fail", f"{len(found)} sign(s) of a server of its own", found[:10]
    return "pass", "no server code: the app runs in the browser", []


def persists_state(c: CodeInput) -> Outcome:
    found = _matches(c, STORAGE, SOURCE_SUFFIXES - {".css"})
    if found:
        return "pass", f"browser storage is used ({len(found)} place(s))", found[:3]
    return "fail", "no use of localStorage, sessionStorage, IndexedDB or cookies in the source", []


def no_remote_requests(c: CodeInput) -> Outcome:
    found = _matches(c, REMOTE_REQUEST, SOURCE_SUFFIXES - {".css"})
    if found:
        return "fail", f"{len(found)} request(s) to another host", found[:10]
    return "pass", "no request to another host in the source", []


CODE_CHECKS: dict[str, Callable[[CodeInput], Outcome]] = {
    "no-external-libraries": no_external_libraries, "no-backend": no_backend,
    "persists-state": persists_state, "no-remote-requests": no_remote_requests}

# the UI tester's criteria are the task's own: its one check is the protocol's verdicts
LLM_CHECKS = {"llm-review"}  # asuka.evaluators._review: a model reads the source
CHECKS: dict[str, set[str]] = {"build": set(BUILD_CHECKS), "code": set(CODE_CHECKS) | LLM_CHECKS,
                               "ui": {"task-criteria"}}
