"""Diagnostic probes (WatchPoint's executable diagnostics): after the UI agent, for the round's
executed failures, a probe backend measures facts on the live app and the workspace, which the
code agent reads as BROWSER / TERMINAL OBSERVATION blocks of its feedback.

Backends (``registry``): ``scripted`` (offline: a fixed probe set derived from each failing
check, in real Chromium) and ``llm`` (a model writes a Playwright script and a bash script, run
sandboxed against the served app and a copy of the workspace). Whether they run is the cell's
``routing`` (always, never, by-class: WatchPoint's package.json classifier, by-self-fix: while
the agent fixes too little on its own), recorded per round with the reason; what the agent
reads is the cell's ``feedback`` condition (none, failures, failures+probes, probes)."""

from asuka.probes._base import ProbeContext, ProbeFindings, Prober, ProbeTarget, registry
from asuka.probes._classify import PROBED_CLASSES, classify
from asuka.probes._stage import (
    ProbeSettings,
    compose_feedback,
    render_observations,
    route,
    run_probes,
    targets,
)
from asuka.sanitize import cap, clean, parse_checks

__all__ = ["PROBED_CLASSES", "ProbeContext", "ProbeFindings", "ProbeSettings", "ProbeTarget",
           "Prober", "cap", "classify", "clean", "compose_feedback", "parse_checks", "registry",
           "render_observations", "route", "run_probes", "targets"]
