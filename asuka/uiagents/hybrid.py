"""The hybrid UI agent: scripted checks, grounded checks, then browser-use for what is undecided.

``HybridUIAgent(model, scripted={...}, grounding=None, grounding_model=None,
grounding_cache=None, **browser_use_options)`` builds both backends through the registry
(``"scripted"`` with the ``scripted`` options, ``"browser-use"`` with ``model`` and the remaining
options; ``executable_path`` and ``headless`` go to both). ``grounding`` (``"llm"``, ``True``, a
dict, or in ``scripted``) turns on the scripted agent's grounding (``asuka.uiagents.scripted.criterion``),
with ``grounding_model`` defaulting to the hybrid's own ``model``. ``open`` opens a session of
each; ``evaluate(eval_task)``:

1. runs the whole evaluation task with the scripted agent (which grounds its locator misses and
   judges wording when grounding is on);
2. if that result is an infrastructure ``error`` (app not reachable, browser crashed) it is
   returned as it is, for the engine to retry;
3. otherwise the criteria still undecided are evaluated by the browser-use agent, as an
   evaluation task with the same id and summary and only those criteria. Undecided: without
   grounding every verdict but ``pass``; with grounding ``not_found`` (after grounding),
   ``unverifiable`` (no check), ``error``, and a check that was not run ("not run: ...") -- a
   ``fail`` the check observed (on its own or on grounded locators) or the wording judge gave
   stands;
4. the verdicts are merged in the task's order. Each says which stage decided it:
   ``Verdict.decided_by`` is ``scripted`` or ``grounded`` (backend ``scripted``; no browser-use
   call for them) or ``llm`` (the wording judge, backend ``scripted``; browser-use, backend
   ``browser-use``). The task status is recomputed: ``error`` if any verdict is ``error`` (with
   the browser-use result's ``error``), ``passed`` if all pass, else ``failed``.

So an app built another way than the reference is not failed on a locator its markup does not
match: a passing scripted check is trusted, a miss is grounded, and only what is still open goes
to the judge.

Evidence: the browser-use session writes into ``<evidence_dir>/browser-use/``; when it ran, its
screenshot (``browser-use/<eval_task_id>.png``) is the task's screenshot, else the scripted one.
Console errors and failed requests of both are merged. ``usage()`` is the grounding usage of the
scripted session plus the browser-use usage (both role ``ui-agent``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from asuka.llm import ModelSpec
from asuka.schema import EvalTask, EvalTaskResult, Evidence, Verdict
from asuka.uiagents import registry
from asuka.uiagents.base import UISession
from asuka.usage import Usage

BACKEND = "hybrid"
SUBDIR = "browser-use"
MAX_EVIDENCE = 100


@registry.register(BACKEND)
class HybridUIAgent:
    """Scripted checks, then browser-use for the criteria they did not pass; see the module doc."""

    name = BACKEND

    def __init__(self, model: str | ModelSpec | dict, scripted: dict[str, Any] | None = None,
                 executable_path: str | None = None, headless: bool = True,
                 grounding: str | bool | dict | None = None,
                 grounding_model: str | ModelSpec | dict | None = None,
                 grounding_cache: str | Path | None = None,
                 **browser_use_options: Any) -> None:
        shared: dict[str, Any] = {"executable_path": executable_path, "headless": headless}
        # a persona's user restrictions bind both stages (the persona text only the model)
        shared.update({k: browser_use_options.pop(k) for k in ("allowed_tools", "input",
                                                             "viewport")
                       if k in browser_use_options})
        opts = {**shared, **(scripted or {})}
        if grounding is not None:
            opts["grounding"] = "llm" if grounding is True else grounding
        if grounding is False or opts.get("grounding") in (False, "none"):
            opts["grounding"] = None
        if opts.get("grounding") is not None:
            opts.setdefault("grounding_model", grounding_model or model)
            if grounding_cache is not None:
                opts.setdefault("grounding_cache", grounding_cache)
        self.scripted = registry.get("scripted", **opts)
        self.grounded = bool(getattr(self.scripted.grounding, "active", False))
        self.browser_use = registry.get("browser-use", model=model,
                                        **{**shared, **browser_use_options})

    def preflight(self) -> None:
        self.scripted.preflight()
        self.browser_use.preflight()

    async def open(self, base_url: str, evidence_dir: Path | None = None,
                   data_dir: Path | None = None, *, artifact: str | None = None
                   ) -> HybridSession:
        scripted = await self.scripted.open(base_url, evidence_dir, data_dir, artifact=artifact)
        try:
            judge = await self.browser_use.open(
                base_url, Path(evidence_dir) / SUBDIR if evidence_dir is not None else None,
                data_dir, artifact=artifact)
        except BaseException:
            await scripted.close()
            raise
        return HybridSession(scripted, judge, grounded=self.grounded)


def decided(v: Verdict, grounded: bool) -> bool:
    """Whether the scripted stage's verdict stands (see the module docstring, step 3)."""
    if v.status == "pass":
        return True
    return grounded and v.status == "fail" and not v.reason.startswith("not run:")


class HybridSession:
    def __init__(self, scripted: UISession, judge: UISession, grounded: bool = False) -> None:
        self.scripted = scripted
        self.judge = judge
        self.grounded = grounded

    def usage(self) -> list[Usage]:
        return [*self.scripted.usage(), *self.judge.usage()]

    async def operability(self) -> Any:
        return await self.scripted.operability()  # type: ignore[attr-defined]

    async def close(self) -> None:
        await asyncio.gather(self.scripted.close(), self.judge.close(), return_exceptions=True)

    async def evaluate(self, eval_task: EvalTask) -> EvalTaskResult:
        first = await self.scripted.evaluate(eval_task)
        if first.status == "error":
            return first
        kept = {v.criterion_id: v for v in first.verdicts if decided(v, self.grounded)}
        rest = [c for c in eval_task.criteria if c.id not in kept]
        if not rest:
            return first
        second = await self.judge.evaluate(eval_task.model_copy(update={"criteria": rest}))
        judged = {v.criterion_id: v for v in second.verdicts}
        for v in first.verdicts:  # what grounding tried before browser-use stays on record
            if v.groundings and v.criterion_id in judged:
                w = judged[v.criterion_id]
                judged[v.criterion_id] = w.model_copy(
                    update={"groundings": [*v.groundings, *w.groundings]})
        verdicts: list[Verdict] = []
        for c in eval_task.criteria:
            v = kept.get(c.id) or judged.get(c.id)
            if v is None:  # the judge skipped it: should not happen, but never drop a criterion
                v = Verdict(criterion_id=c.id, status="error", backend=SUBDIR,
                            reason="no verdict from the browser-use agent")
            verdicts.append(v)
        if any(v.status == "error" for v in verdicts):
            status = "error"
            error = second.error or next(v.reason for v in verdicts if v.status == "error")
        else:
            status = "passed" if all(v.status == "pass" for v in verdicts) else "failed"
            error = None
        return EvalTaskResult(
            eval_task_id=eval_task.id, status=status, verdicts=verdicts, attempts=1,
            duration_s=round(first.duration_s + second.duration_s, 3), error=error,
            evidence=_merge(first.evidence, second.evidence))


def _merge(scripted: Evidence | None, judge: Evidence | None) -> Evidence:
    out = Evidence()
    if judge is not None and judge.screenshot:
        out.screenshot = f"{SUBDIR}/{judge.screenshot}"
    elif scripted is not None:
        out.screenshot = scripted.screenshot
    for ev in (scripted, judge):
        if ev is None:
            continue
        for mine, theirs in ((out.console_errors, ev.console_errors),
                             (out.failed_requests, ev.failed_requests)):
            for item in theirs:
                if item not in mine and len(mine) < MAX_EVIDENCE:
                    mine.append(item)
    return out
