"""What a probe's output may bring into the coding agent's prompt, cleaned as WatchPoint
cleans it (its appendix A): JSON lines ``{"n": ..., "v": ...}`` only (Chromium warnings and
navigation logs are dropped), ANSI escapes stripped, framework stack frames dropped, repeated
lines collapsed, each value and each block capped."""

from __future__ import annotations

import json
import re

from asuka.schema import ProbeObservation

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")
# frames of Playwright, Node and bundlers: where the failure surfaced, never what to fix
FRAMEWORK_FRAME = re.compile(r"^\s*at .*(node_modules/|node:internal|playwright-core|"
                             r"<anonymous>|internal/)")
VALUE_CHARS = 300
BLOCK_CHARS = 3000
MAX_OBSERVATIONS = 60


def clean(text: str, limit: int = VALUE_CHARS) -> str:
    """One value: no ANSI, no framework frames, repeated lines once, at most ``limit``."""
    lines: list[str] = []
    for line in ANSI.sub("", str(text)).splitlines():
        line = line.rstrip()
        if not line.strip() or FRAMEWORK_FRAME.match(line):
            continue
        if lines and line == lines[-1]:
            continue
        lines.append(line)
    out = " | ".join(x.strip() for x in lines)
    return out if len(out) <= limit else out[: limit - 1] + "…"


def parse_checks(stdout: str, source: str, criterion_id: str | None = None
                 ) -> list[ProbeObservation]:
    """The ``{"n": ..., "v": ...}`` lines of a probe script's output, cleaned, each (name,
    value) once."""
    out: list[ProbeObservation] = []
    seen: set[tuple[str, str]] = set()
    for line in ANSI.sub("", stdout).splitlines():
        line = line.strip()
        if not (line.startswith("{") and line.endswith("}")):
            continue
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict) or "n" not in data or "v" not in data:
            continue
        name = clean(str(data["n"]), 80)
        raw = data["v"] if isinstance(data["v"], str) else json.dumps(data["v"])
        value = clean(raw)
        if not name or (name, value) in seen:
            continue
        seen.add((name, value))
        out.append(ProbeObservation(criterion_id=criterion_id, source=source,  # type: ignore[arg-type]
                                    name=name, value=value))
    return out


# facts of the page rather than of one failure: said once per block when they repeat
PAGE_FACTS = ("page.title", "console_errors", "failed_requests")


def cap(observations: list[ProbeObservation], limit: int = BLOCK_CHARS
        ) -> tuple[list[ProbeObservation], int]:
    """The observations that fit one block of ``limit`` characters (in order; a page fact
    repeated for another failure once), and how many were left out."""
    said = set()
    unique = []
    for o in observations:
        if o.name in PAGE_FACTS and (o.name, o.value) in said:
            continue
        said.add((o.name, o.value))
        unique.append(o)
    observations = unique
    kept, used = [], 0
    for o in observations[:MAX_OBSERVATIONS]:
        size = len(o.name) + len(o.value) + 8
        if used + size > limit:
            break
        kept.append(o)
        used += size
    return kept, len(observations) - len(kept)
