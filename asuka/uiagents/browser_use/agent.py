"""The browser-use UI agent: an LLM drives real Chromium to judge each criterion (paper §3.1).

Lifecycle. ``await BrowserUseUIAgent(model=...).open(base_url, evidence_dir, data_dir)`` checks the
model's configuration and returns a ``BrowserUseSession``; it starts nothing yet. ``await
session.evaluate(eval_task)`` runs one browser-use ``Agent`` per criterion, one after another,
each in its own freshly launched Chromium (own temporary profile: no cookies or storage carry over
between criteria) that starts on ``base_url``. Several evaluation tasks may run concurrently on
one session. ``session.close()`` removes the session's temporary files.

The agent. Its task prompt (``build_task``) states the criterion, the evaluation task's summary
and the base URL, asks it to test the behaviour through the user interface only, and to finish
with browser-use's structured ``done`` action whose data is a ``CriterionVerdict`` (``passed``,
``reason``, ``evidence``). Paper settings: vision on, ``max_steps=100`` per criterion, a
``criterion_timeout_s=3600`` wall clock. browser-use's judge is off (``use_judge=False``), and
so are telemetry, cloud sync, the version check and cloud hints (environment variables set
before browser-use is imported); its default extensions (downloaded from the web) are disabled.
The actions ``search`` (a web search engine) and ``evaluate`` (arbitrary JavaScript) are removed
so the agent can only work through the page, as a user would (``exclude_actions``).

Chromium. The same executable and flags as the scripted agent: ``executable_path`` defaults to
``asuka.uiagents.browsing.browser.find_chromium()`` and ``LAUNCH_ARGS`` are passed as extra arguments
(with ``chromium_sandbox=False``, ``headless`` as given). Each browser's profile, downloads and the
agent's own working files live in a temporary directory that is removed afterwards. A Chromium
that does not start (browser-use gives its CDP connection 15 s) is tried ``launch_attempts`` (2)
times. The files of ``data_dir`` are offered to browser-use's ``upload_file`` action.

The model. ``model`` is a ``ModelSpec`` or its string form (``openai:gpt-4o``,
``anthropic:claude-sonnet-4-5``, ``openai:qwen2.5:7b@http://127.0.0.1:8000/v1``); browser-use's
own ``ChatOpenAI`` / ``ChatAnthropic`` are built from it (``base_url``, key from
``api_key_env``, ``timeout_s``, ``max_retries`` for the SDK's retries, ``temperature`` when set,
``max_tokens``).

Verdicts, one per criterion, ``backend="browser-use"``: the rules are in
``browser_use_verdict.py`` (a pure mapping from the end of the run).

A persona (``allowed_tools``, ``input``, ``persona``: a persona evaluator's user,
``asuka.evaluators``): the persona is told in the task prompt, and an action whose tool the user
lacks is denied when executed (``browser_use_tools.RestrictedTools``), noted in the verdict.

Evidence. ``Evidence.screenshot``: ``<eval_task_id>.png`` in ``evidence_dir``, a full-page shot of
the last criterion's final page (``None`` without ``evidence_dir`` or when no shot could be
taken). ``console_errors``: ``console.error`` calls, uncaught errors and unhandled rejections of
the agent's tab; ``failed_requests``: resources (scripts, images, styles) that failed to load.
Both are recorded by a small init script into the tab's ``sessionStorage`` (key
``__asuka_console__``) so they survive navigations; at most 100 each, deduplicated.

Usage. Token counts come from browser-use's own accounting (``history.usage``); the session sums
them into one ``Usage(role="ui-agent")`` returned by ``session.usage()`` (with the latency of all
LLM calls and, when the model has a price, the cost).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

# browser-use reads these when imported or when an agent runs: no telemetry, no cloud sync, no
# PyPI version check, no cloud hints, and no takeover of the root logger.
os.environ["ANONYMIZED_TELEMETRY"] = "false"
os.environ["BROWSER_USE_CLOUD_SYNC"] = "false"
os.environ.setdefault("BROWSER_USE_VERSION_CHECK", "false")
os.environ.setdefault("BROWSER_USE_CLOUD_HINTS", "false")
os.environ.setdefault("BROWSER_USE_SETUP_LOGGING", "false")
# browser-use gives a starting browser 30 s, which a loaded CI machine can exceed
os.environ.setdefault("TIMEOUT_BrowserStartEvent", "90")
os.environ.setdefault("TIMEOUT_BrowserLaunchEvent", "60")

import httpx  # noqa: E402
from browser_use import Agent, Browser, ChatAnthropic, ChatOpenAI  # noqa: E402

from asuka.llm import (
    ModelSpec,  # noqa: E402
    prices,  # noqa: E402
)
from asuka.schema import Criterion, EvalTask, EvalTaskResult, Evidence, Verdict  # noqa: E402
from asuka.uiagents import registry  # noqa: E402
from asuka.uiagents.browser_use.chromium import (  # noqa: E402
    GRACE_S,
    add_console_recorder,
    brief,
    collect_evidence,
    kill_browser,
    start_browser,
)
from asuka.uiagents.browser_use.errors import (  # noqa: E402
    LLMProbe,
    classify_llm_error,
)
from asuka.uiagents.browser_use.errors import cut as _cut  # noqa: E402
from asuka.uiagents.browser_use.prompt import CriterionVerdict, build_task  # noqa: E402
from asuka.uiagents.browser_use.tools import RestrictedTools, denial_note  # noqa: E402
from asuka.uiagents.browser_use.verdict import (
    NO_VERDICT,
    RunEnd,
    RunLimits,
    decide,
    execution_trace,  # noqa: E402
)
from asuka.uiagents.browsing.browser import LAUNCH_ARGS, find_chromium  # noqa: E402
from asuka.uiagents.browsing.input_modes import INPUTS  # noqa: E402
from asuka.usage import Usage  # noqa: E402

log = logging.getLogger("asuka.uiagents.browser_use.agent")
for _name in ("browser_use", "cdp_use", "bubus"):  # quiet unless the user configures them
    if logging.getLogger(_name).level == logging.NOTSET:
        logging.getLogger(_name).setLevel(logging.WARNING)

BACKEND = "browser-use"
ROLE = "ui-agent"
REACH_TIMEOUT_S = 10.0  # the once-per-task "is the app answering at all" check

# ---------------------------------------------------------------- the agent


@registry.register(BACKEND)
class BrowserUseUIAgent:
    """UI agent backed by browser-use 0.13; see the module docstring."""

    name = BACKEND

    def __init__(self, model: str | ModelSpec | dict, max_steps: int = 100, use_vision: bool = True,
                 criterion_timeout_s: float = 3600, headless: bool = True,
                 executable_path: str | None = None, max_failures: int = 3,
                 max_actions_per_step: int = 5, step_timeout_s: float = 180,
                 llm_timeout_s: float | None = None,
                 exclude_actions: tuple[str, ...] = ("search", "evaluate"),
                 viewport: tuple[int, int] | None = None, launch_attempts: int = 2,
                 allowed_tools: list[str] | None = None, input: str = "any",
                 persona: str | None = None) -> None:
        self.spec = ModelSpec.coerce(model)
        self.max_steps = int(max_steps)
        self.use_vision = use_vision
        self.criterion_timeout_s = float(criterion_timeout_s)
        self.headless = headless
        self.executable_path = executable_path
        self.max_failures = int(max_failures)
        self.max_actions_per_step = int(max_actions_per_step)
        self.step_timeout_s = float(step_timeout_s)
        # browser-use's own cap on one LLM step (the SDK's retries happen inside it)
        self.llm_timeout_s = float(llm_timeout_s if llm_timeout_s is not None
                                   else self.spec.timeout_s + 60)
        self.exclude_actions = tuple(exclude_actions)
        self.viewport = viewport
        self.launch_attempts = int(launch_attempts)
        # a persona evaluator's user: its tools (a call outside them is denied when executed),
        # its input mode (a click is a tap on a phone) and who it is, told in the task prompt
        self.allowed_tools = frozenset(allowed_tools) if allowed_tools is not None else None
        if input not in INPUTS:
            raise ValueError(f"input must be one of {', '.join(INPUTS)}, got {input!r}")
        self.input, self.persona = input, persona
        self._price = self.spec.price if self.spec.price is not None else prices.lookup(
            self.spec.model)

    def preflight(self) -> None:
        self.spec.api_key()  # LLMConfigError (a setup error) before round 1

    async def open(self, base_url: str, evidence_dir: Path | None = None,
                   data_dir: Path | None = None, *, artifact: str | None = None
                   ) -> BrowserUseSession:
        self.spec.api_key()  # LLMConfigError now rather than once per criterion
        exe = self.executable_path if self.executable_path is not None else find_chromium()
        return BrowserUseSession(self, base_url, exe,
                                 Path(evidence_dir) if evidence_dir is not None else None,
                                 Path(data_dir) if data_dir is not None else None)

    # ------------------------------------------------------------ builders

    def make_llm(self) -> Any:
        """A fresh browser-use chat model (browser-use patches the instance it is given)."""
        s = self.spec
        common: dict[str, Any] = {"model": s.model, "api_key": s.api_key(),
                                  "timeout": s.timeout_s, "max_retries": s.max_retries}
        base_url = s.effective_base_url()
        if base_url:
            common["base_url"] = base_url
        if s.provider == "openai":
            kw: dict[str, Any] = {"max_completion_tokens": s.max_tokens}
            if s.temperature is not None:
                kw["temperature"] = s.temperature
            return ChatOpenAI(**common, **kw)
        kw = {"max_tokens": s.max_tokens}
        if s.temperature is not None:
            kw["temperature"] = s.temperature
        return ChatAnthropic(**common, **kw)

    def make_browser(self, executable_path: str | None, workdir: Path) -> Any:
        kw: dict[str, Any] = {
            "headless": self.headless,
            "chromium_sandbox": False,
            "args": list(LAUNCH_ARGS),
            "enable_default_extensions": False,   # they are downloaded from the web
            "keep_alive": True,                   # we take the screenshot, then kill it
            # the name tells browser-use it is a throwaway profile (not to be copied)
            "user_data_dir": str(workdir / "browser-use-user-data-dir-profile"),
            "downloads_path": str(workdir / "downloads"),
        }
        if executable_path is not None:
            kw["executable_path"] = executable_path
        if self.viewport is not None:
            kw["viewport"] = {"width": self.viewport[0], "height": self.viewport[1]}
        return Browser(**kw)


class BrowserUseSession:
    """Evaluation tasks of one app, each criterion in its own browser; see the module docstring."""

    def __init__(self, agent: BrowserUseUIAgent, base_url: str, executable_path: str | None,
                 evidence_dir: Path | None, data_dir: Path | None) -> None:
        self.agent = agent
        self.base_url = base_url
        self.executable_path = executable_path
        self.evidence_dir = evidence_dir
        self.data_dir = data_dir
        self._usage = Usage(role=ROLE, model=agent.spec.model)
        self._tmp = Path(tempfile.mkdtemp(prefix="asuka-browser-use-"))
        self._closed = False

    def usage(self) -> list[Usage]:
        return [self._usage] if self._usage.calls or self._usage.latency_s else []

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(shutil.rmtree, self._tmp, True)

    # ------------------------------------------------------------ one evaluation task

    async def evaluate(self, eval_task: EvalTask) -> EvalTaskResult:
        t0 = time.monotonic()
        verdicts: list[Verdict] = []
        evidence = Evidence()
        error: str | None = None
        if self._closed:
            error = "the session is closed"
        else:
            unreachable = await self._unreachable()
            if unreachable:
                error = f"app not reachable at {self.base_url}: {unreachable}"
        for crit in eval_task.criteria:
            if error is not None:
                done = bool(verdicts)
                verdicts.append(Verdict(criterion_id=crit.id, status="error", backend=BACKEND,
                                        reason=f"not run: {error}" if done else error))
                continue
            verdict = await self._run_criterion(eval_task, crit, evidence)
            verdicts.append(verdict)
            if verdict.status == "error" and not verdict.reason.startswith(NO_VERDICT):
                error = verdict.reason  # the endpoint or browser failed: stop the task here
        if error is None and any(v.status == "error" for v in verdicts):
            error = next(v.reason for v in verdicts if v.status == "error")
        if error is not None:
            status = "error"
        elif verdicts and all(v.status == "pass" for v in verdicts):
            status = "passed"
        else:
            status = "failed"
        return EvalTaskResult(eval_task_id=eval_task.id, status=status, verdicts=verdicts,
                              attempts=1, duration_s=round(time.monotonic() - t0, 3),
                              error=error, evidence=evidence)

    async def _unreachable(self) -> str | None:
        """A reason when nothing answers at ``base_url`` at all (any HTTP status is an answer)."""
        try:
            async with httpx.AsyncClient(trust_env=False, timeout=REACH_TIMEOUT_S) as client:
                async with client.stream("GET", self.base_url):
                    return None
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError,
                httpx.ReadError) as exc:
            return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        except httpx.HTTPError:
            return None  # it answered, slowly or oddly: let the agent see for itself

    # ------------------------------------------------------------ one criterion

    async def _run_criterion(self, eval_task: EvalTask, crit: Criterion,
                             evidence: Evidence) -> Verdict:
        a = self.agent
        t0 = time.monotonic()
        workdir = Path(tempfile.mkdtemp(prefix="crit-", dir=self._tmp))
        probe = LLMProbe(secret=_key_or_empty(a.spec))
        browser: Any = None
        pid: int | None = None
        end = RunEnd()

        def verdict(status: str, reason: str) -> Verdict:
            return Verdict(criterion_id=crit.id, status=status, reason=_cut(reason),
                           backend=BACKEND, duration_s=round(time.monotonic() - t0, 3))

        try:
            browser, pid, launch_error = await start_browser(
                lambda attempt: a.make_browser(self.executable_path,
                                               workdir / f"browser{attempt}"),
                a.launch_attempts)
            if browser is None:
                return verdict("error", f"browser failure: could not start Chromium "
                                        f"({self.executable_path or 'default'}): "
                                        f"{brief(launch_error)}")
            await add_console_recorder(browser)
            end.agent = self._make_agent(eval_task, crit, browser, probe, workdir)
            await self._run_agent(end, probe, t0)
            await collect_evidence(browser, evidence, self.evidence_dir, eval_task.id)
            await self._record_usage(end.agent, end.history, probe)
            limits = RunLimits(a.spec.label, a.max_steps, a.max_failures,
                               a.criterion_timeout_s)
            denied = denial_note(end.agent.tools.denials)
            return verdict(*decide(end, probe, limits, brief, denied)).model_copy(
                update={"trace": execution_trace(end.history)})
        finally:
            await self._dispose(browser, end.agent, pid, workdir)

    def _make_agent(self, eval_task: EvalTask, crit: Criterion, browser: Any,
                    probe: LLMProbe, workdir: Path) -> Any:
        a = self.agent
        excluded = list(a.exclude_actions) + (["screenshot"] if a.use_vision is True else [])
        return Agent(
            task=build_task(self.base_url, eval_task, crit, a.persona),
            llm=probe.instrument(a.make_llm()),
            browser=browser,
            # without a profile browser-use copies its default one, which makes a downloads
            # folder in the system temp dir
            browser_profile=browser.browser_profile,
            tools=RestrictedTools(excluded, a.input, a.allowed_tools),
            output_model_schema=CriterionVerdict, use_vision=a.use_vision, use_judge=False,
            initial_actions=[{"navigate": {"url": self.base_url}}],
            directly_open_url=False, max_failures=a.max_failures,
            max_actions_per_step=a.max_actions_per_step,
            llm_timeout=int(math.ceil(a.llm_timeout_s)),
            step_timeout=int(math.ceil(a.step_timeout_s)),
            register_should_stop_callback=probe.should_stop,
            available_file_paths=self._data_files(),
            file_system_path=str(workdir / "files"), enable_signal_handler=False,
            calculate_cost=False, generate_gif=False)

    async def _run_agent(self, end: RunEnd, probe: LLMProbe, t0: float) -> None:
        """Run the agent within the criterion's wall clock; on time-out ask it to stop, then
        cancel it. Fills ``end``."""
        remaining = self.agent.criterion_timeout_s - (time.monotonic() - t0)
        run = asyncio.ensure_future(end.agent.run(max_steps=self.agent.max_steps))
        done, _ = await asyncio.wait({run}, timeout=max(remaining, 0.001))
        if not done:
            end.timed_out = True
            probe.stop_requested = True  # the agent stops at its next check
            done, _ = await asyncio.wait({run}, timeout=GRACE_S)
            if not done:
                run.cancel()
                await asyncio.wait({run}, timeout=GRACE_S)
        if run.done() and not run.cancelled():
            if run.exception() is not None:
                end.error = run.exception()
            else:
                end.history = run.result()

    # ------------------------------------------------------------ helpers

    def _data_files(self) -> list[str]:
        """The task's data files, which the agent may upload (browser-use's upload_file)."""
        if self.data_dir is None or not self.data_dir.is_dir():
            return []
        return sorted(str(p) for p in self.data_dir.rglob("*") if p.is_file())[:200]

    async def _record_usage(self, agent: Any, history: Any, probe: LLMProbe) -> None:
        summary = getattr(history, "usage", None)
        if summary is None and agent is not None:
            try:
                summary = await agent.token_cost_service.get_usage_summary()
            except Exception:  # noqa: BLE001
                summary = None
        a = self.agent
        u = Usage(role=ROLE, model=a.spec.model, latency_s=round(probe.latency_s, 3))
        if summary is not None:
            u = u.model_copy(update={
                "calls": summary.entry_count, "input_tokens": summary.total_prompt_tokens,
                "output_tokens": summary.total_completion_tokens,
                "cached_tokens": summary.total_prompt_cached_tokens,
                "cost_usd": prices.cost_usd(a._price, summary.total_prompt_tokens,
                                            summary.total_completion_tokens,
                                            summary.total_prompt_cached_tokens)})
        self._usage = self._usage + u

    async def _dispose(self, browser: Any, agent: Any, pid: int | None, workdir: Path) -> None:
        if browser is not None:
            await kill_browser(browser, pid)
        paths = [workdir]
        agent_dir = getattr(agent, "agent_directory", None)
        if agent_dir is not None:
            paths.append(Path(agent_dir))
        for p in paths:
            await asyncio.to_thread(shutil.rmtree, p, True)


def _key_or_empty(spec: ModelSpec) -> str:
    try:
        return spec.api_key()
    except Exception:  # noqa: BLE001
        return ""


__all__ = ["BrowserUseSession", "BrowserUseUIAgent", "CriterionVerdict", "build_task",
           "classify_llm_error"]
