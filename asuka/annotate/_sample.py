"""A reproducible sample of a run's artifacts for people to label: (cell, round) pairs drawn
with a seeded generator, spread evenly over strata of the cells' settings (``--stratify
agent,task``), and every criterion the automated judge decided on them (pass, or fail / not
found; errors, unverifiable and skipped tasks have no verdict to agree with)."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from asuka.dag import feedback_view
from asuka.log.store import RunStore

STRATA = ("agent", "task", "ui", "user", "protocol", "start")
DECIDED = ("pass", "fail", "not_found")


def _key(spec: dict, by: Sequence[str]) -> tuple:
    label = spec.get("label") or spec.get("agent")
    return tuple(label if k == "agent" else spec.get(k) for k in by)


def draw_sample(store: RunStore, n: int | None = None, stratify: Sequence[str] = (),
                seed: int = 0) -> list[tuple[str, int, str, str]]:
    """(cell, round, evaluation task, criterion) of the sampled artifacts, in sample order."""
    unknown = [k for k in stratify if k not in STRATA]
    if unknown:
        raise ValueError(f"cannot stratify by {', '.join(unknown)}; by: {', '.join(STRATA)}")
    strata: dict[tuple, list[tuple[str, int]]] = defaultdict(list)
    for cell in sorted(store.cells()):
        spec = store.cell_spec(cell) or {}
        for r in range(1, store.completed_rounds(cell) + 1):
            strata[_key(spec, stratify)].append((cell, r))
    rng = random.Random(seed)
    pools = [rng.sample(arts, len(arts)) for _, arts in sorted(strata.items(), key=str)]
    chosen: list[tuple[str, int]] = []
    while any(pools) and (n is None or len(chosen) < n):
        for pool in pools:  # one from each stratum in turn: an even spread
            if pool and (n is None or len(chosen) < n):
                chosen.append(pool.pop())
    items = []
    for cell, r in chosen:
        rec = store.load_round(cell, r)
        for et_id, res in feedback_view(rec.evaluation).items():
            if res.status not in ("passed", "failed"):
                continue
            items += [(cell, r, et_id, v.criterion_id) for v in res.verdicts
                      if v.status in DECIDED]
    return items
