"""A task's reference app (with some features missing or broken) served on 127.0.0.1 from our
own process, like a static deployment: the reference is trusted, it ships with the benchmark.
``asuka preview`` shows it; the pairwise tasks capture it beside the candidate."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from asuka.benchmark.features import FeatureState, features_in, prepare_workspace
from asuka.deploy.ports import lease_port
from asuka.deploy.static import StaticServer
from asuka.schema import BenchTask


def feature_states(task: BenchTask, missing: list[str],
                   broken: list[str]) -> dict[str, FeatureState]:
    """Feature states from the names given; ValueError names an unknown feature, one given twice,
    or one asked broken that has no broken variant."""
    known = task.task.features
    marked = features_in(Path(task.root) / task.task.reference) if task.task.reference else {}
    states: dict[str, FeatureState] = {}
    for state, names in (("missing", missing), ("broken", broken)):
        for name in names:
            if name not in known:
                raise ValueError(f"task {task.id!r} has no feature {name!r} "
                                 f"(features: {', '.join(sorted(known))})")
            if name in states:
                raise ValueError(f"feature {name!r} given as both missing and broken")
            if state == "broken" and "broken" not in marked.get(name, set()):
                with_variant = sorted(n for n, kinds in marked.items() if "broken" in kinds)
                raise ValueError(f"feature {name!r} has no broken variant (features with one: "
                                 f"{', '.join(with_variant) or 'none'})")
            states[name] = state  # type: ignore[assignment]
    return states


@contextmanager
def serve(task: BenchTask, states: Mapping[str, FeatureState] | None = None,
          port: int | None = None) -> Iterator[str]:
    """Materialise the reference with ``states`` applied into a temporary folder and serve it;
    yields the URL. Everything is gone when the block ends."""
    if not task.task.reference:
        raise ValueError(f"task {task.id!r} has no reference app")
    with tempfile.TemporaryDirectory(prefix=f"asuka-preview-{task.id}-") as tmp:
        site = prepare_workspace(Path(task.root), task.task.reference, task.task.data,
                                 Path(tmp) / "site", states or {})
        # a leased port stays leased while we serve, so parallel runs never pick it
        lease = lease_port() if port is None else None
        try:
            server = StaticServer(site, lease.port if lease else port)
            try:
                yield server.url
            finally:
                server.stop()
        finally:
            if lease is not None:
                lease.release()
