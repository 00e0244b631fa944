"""The probe stage of a round, between the UI agent and the user: whether the routing policy
lets it run (and why), which executed failures it diagnoses (the top K by their evaluation
task's weight), and the observations in the feedback (rendered by a template of
``feedback_templates/``, under the user's words or alone)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from asuka.benchmark.loading import templates_dir
from asuka.log.fixes import fix_rate
from asuka.probes._base import ProbeContext, Prober, ProbeTarget
from asuka.probes._classify import PROBED_CLASSES, classify
from asuka.sanitize import cap
from asuka.schema import BenchTask, ProbeReport, RoundEvaluation
from asuka.users.base import failures_for_feedback

TEMPLATES = templates_dir()
OBSERVATIONS_TEMPLATE = "observations.md.j2"


@dataclass
class ProbeSettings:
    prober: Prober
    routing: str = "always"
    top_k: int = 5
    self_fix_threshold: float = 0.5  # by-self-fix: probe while the fix rate is below this
    window: int = 2                  # by-self-fix: over this many last round transitions


def route(routing: str, project: tuple[str, str], history: Sequence[RoundEvaluation],
          current: RoundEvaluation, threshold: float = 0.5, window: int = 2
          ) -> tuple[bool, str]:
    """Whether the probes run this round, and why (``project``: its class and the reason)."""
    if routing == "always":
        return True, "routing always"
    if routing == "never":
        return False, "routing never"
    if routing == "by-class":
        cls, why = project
        if cls in PROBED_CLASSES:
            return True, f"project class {cls} ({why}): probed"
        return False, (f"project class {cls} ({why}): not probed (only {', '.join(PROBED_CLASSES)}"
                       f" projects are)")
    if routing == "by-self-fix":
        rounds = [*history, current][-(window + 1):]
        rate = fix_rate(rounds)
        if rate is None:
            return True, "no earlier failure to measure the agent's own fixes on yet"
        span = f"over the last {len(rounds) - 1} round(s)"
        if rate < threshold:
            return True, f"the agent fixed {rate:.0%} of its failures {span}, below {threshold:.0%}"
        return False, f"the agent fixed {rate:.0%} of its failures {span}, at least {threshold:.0%}"
    raise ValueError(f"unknown routing {routing!r}")


def targets(bt: BenchTask, evaluation: RoundEvaluation, top_k: int) -> list[ProbeTarget]:
    """The executed failures by their evaluation task's weight (task order on ties)."""
    failures = failures_for_feedback(bt.task, evaluation)
    order = sorted(range(len(failures)), key=lambda i: (-failures[i].eval_task.weight, i))
    return [ProbeTarget(failures[i].eval_task, failures[i].eval_task.criteria[failures[i].index],
                        failures[i].verdict) for i in order[:top_k]]


async def run_probes(settings: ProbeSettings, bt: BenchTask, evaluation: RoundEvaluation,
                     url: str | None, workspace: Path,
                     history: Sequence[RoundEvaluation] = ()) -> ProbeReport:
    project = classify(workspace)
    chosen = targets(bt, evaluation, settings.top_k)
    if not chosen:
        return ProbeReport(policy=settings.routing, fired=False,
                           reason="no executed failure to probe")
    fired, reason = route(settings.routing, project, history, evaluation,
                          settings.self_fix_threshold, settings.window)
    if not fired:
        return ProbeReport(policy=settings.routing, fired=False, reason=reason)
    t0 = time.perf_counter()
    ctx = ProbeContext(bt, chosen, url, Path(workspace), Path(bt.root) / "data", project[0])
    found = await settings.prober.probe(ctx)
    return ProbeReport(policy=settings.routing, fired=True, reason=reason,
                       backend=settings.prober.name, probed=[t.criterion.id for t in chosen],
                       observations=found.observations, errors=found.errors,
                       scripts=found.scripts, usage=found.usage,
                       duration_s=round(time.perf_counter() - t0, 3))


def render_observations(report: ProbeReport | None, template_dir: Path | None = None) -> str:
    """The BROWSER / TERMINAL OBSERVATION blocks of a round ('' when there is nothing)."""
    if report is None or not report.observations:
        return ""
    blocks: dict[str, Any] = {}
    for source in ("browser", "terminal"):
        kept, left = cap([o for o in report.observations if o.source == source])
        if kept:
            blocks[source] = {"checks": kept, "left_out": left}
    env = Environment(loader=FileSystemLoader(str(template_dir or TEMPLATES)),
                      undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    return env.get_template(OBSERVATIONS_TEMPLATE).render(blocks=blocks).strip() + "\n"


def compose_feedback(condition: str, user_text: str | None, report: ProbeReport | None,
                     template_dir: Path | None = None) -> str | None:
    """What the code agent reads next round under the feedback condition (None: nothing)."""
    blocks = render_observations(report, template_dir) if "probes" in condition else ""
    if condition == "none":
        return None
    if condition == "failures":
        return user_text
    if condition == "probes":
        return blocks or None
    return "\n".join(x.strip("\n") for x in (user_text or "", blocks) if x) + "\n"
