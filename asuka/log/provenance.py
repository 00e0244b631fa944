"""What a cell ran on, recorded in its ``cell.json`` under ``"provenance"``, and the check that
a run is still scored against the same benchmark.

A cell's verdicts only mean something against the task they were produced under. The record
holds one sha256 per part of a task (its parsed definition, reference app, mock data, PRD and
DAG), one over all of them, the Asuka version and every backend's settings (secret-looking
option values are never recorded). ``changed_parts`` names the parts that differ today;
``check_run`` applies it to every cell of a run, for ``report``, ``reeval`` and ``export``.

The task and reference/data hashing is shared with ``asuka.benchmark.proof.fingerprint`` (one definition
of "the same task").
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asuka.redaction import is_secret_name
from asuka.schema import BenchTask

PARTS = ("task", "reference", "data", "prd", "dag")
BACKEND_KEYS = ("agent", "agent_options", "ui", "ui_options", "user", "user_options")
REDACTED = "<redacted>"
# secret-looking by name but a setting, not a secret (is_secret_name matches "max_tokens")
NOT_SECRET = re.compile(r"^(max|min)_?(output_?)?tokens?$|^tokens?_?(limit|budget)$", re.I)
SECRET_VALUE = re.compile(r"^(sk-|sk_|ghp_|gho_|xox[abp]-|AKIA)[A-Za-z0-9_-]{8,}")


# ---------------------------------------------------------------- hashing

def task_definition(bt: BenchTask, contracts: bool = True) -> bytes:
    """The parsed task definition minus ``status``, ``notes`` and ``origin`` (editorial). Without
    ``contracts``, the acceptance contract (core tasks, mandatory and source-verifiable
    criteria, capabilities, pairwise presentation tasks) reads as unset: it changes what a run's scores mean, so provenance
    sees it, but not what a check decides, so a proof (``asuka.benchmark.proof``) outlives it."""
    definition = bt.task.model_dump(mode="json", exclude={"status", "notes", "origin"})
    # the query variants change what an agent reads, not what a check decides: provenance
    # sees them (when a task has any), a proof outlives them
    if not contracts or not definition["queries"]:
        del definition["queries"]
    # pairwise presentation tasks have no checks to prove: a proof outlives them; provenance
    # sees them (a field added after the proofs, left out when empty)
    if not contracts or not definition["pairwise"]:
        del definition["pairwise"]
    # how a task's own project serves the app (a field added after the proofs): it decides
    # what is judged, so both see it, left out when the task has none
    if definition.get("serve") is None:
        definition.pop("serve", None)
    if not contracts:
        for et in definition["eval_tasks"]:
            et.update(core=False, capability=None)
            for c in et["criteria"]:
                c.update(mandatory=False, source_verifiable=False, source_check=None)
    # shared contexts are what every task was proven under before the field existed: left out
    # at that value, so those proofs stay valid (whatever the field's default); any task that
    # changes it is proven again
    if definition.pop("shared_context") is not True:
        definition["shared_context"] = False
    # fields added after the proofs: left out at their defaults, as above
    for key in LATER_TASK_FIELDS:
        if definition.get(key, 0) is None:
            del definition[key]
    for et in definition["eval_tasks"]:
        if et.get("shared_context") is True:
            del et["shared_context"]
        if et.get("spec", 0) is None:
            del et["spec"]
        for c in et["criteria"]:
            if c.get("source_verifiable") is False:
                del c["source_verifiable"]
            for key in ("source_check", "test"):
                if c.get(key, 0) is None:
                    del c[key]
    return json.dumps(definition, sort_keys=True).encode()


# Task fields added after the bundled tasks were proven (None unless a task uses them)
LATER_TASK_FIELDS = ("initial",)


def task_files(bt: BenchTask) -> dict[str, list[tuple[str, Path]]]:
    """The files a task's evaluation depends on, per part, named as ``proof.json`` names them."""
    task = bt.task
    root = Path(bt.root)
    reference: list[tuple[str, Path]] = []
    if task.reference:
        ref = root / task.reference
        reference = [(f"reference/{p.relative_to(ref).as_posix()}", p)
                     for p in ref.rglob("*") if p.is_file()]
    data = [(f"data:{rel}", root / rel) for rel in task.data]
    return {"reference": reference, "data": data}


def hash_files(h: Any, files: Iterable[tuple[str, Path]]) -> None:
    """Feed named files into a hashlib object, in name order (missing files hash as absent)."""
    for name, path in sorted(files):
        h.update(b"\0" + name.encode() + b"\0")
        h.update(path.read_bytes() if path.is_file() else b"\0<missing>")


def part_hashes(bt: BenchTask) -> dict[str, str]:
    files = task_files(bt)
    parts = {"task": hashlib.sha256(task_definition(bt)).hexdigest()}
    for name in ("reference", "data"):
        h = hashlib.sha256()
        hash_files(h, files[name])
        parts[name] = h.hexdigest()
    parts["prd"] = hashlib.sha256(bt.prd.encode()).hexdigest()
    dag = bt.dag.model_dump(mode="json", exclude={"notes"})
    parts["dag"] = hashlib.sha256(json.dumps(dag, sort_keys=True).encode()).hexdigest()
    return parts


def _combined(parts: Mapping[str, str]) -> str:
    h = hashlib.sha256()
    for name in PARTS:
        h.update(f"{name}={parts[name]}\n".encode())
    return h.hexdigest()


# ---------------------------------------------------------------- the record

def asuka_version() -> str:
    try:
        import asuka
        version = getattr(asuka, "__version__", None)
        if version:
            return str(version)
        from importlib.metadata import version as installed_version
        return installed_version("asuka")
    except Exception:  # not installed (a source checkout on sys.path)
        return "unknown"


def _secret_key(name: str) -> bool:
    return is_secret_name(name) and not NOT_SECRET.search(name)


def redact(value: Any) -> Any:
    """Options with secret-looking keys (api_key, token, ...) or values (sk-...) replaced, at
    any depth."""
    if isinstance(value, Mapping):
        return {k: (REDACTED if _secret_key(str(k)) else redact(v)) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact(v) for v in value]
    if isinstance(value, str) and SECRET_VALUE.match(value):
        return REDACTED
    return value


def cell_provenance(bt: BenchTask, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The provenance record of one cell: ``spec`` is the cell's settings (CellSpec dump)."""
    parts = part_hashes(bt)
    return {"task_fingerprint": _combined(parts), "parts": parts,
            "asuka_version": asuka_version(),
            "backends": {k: redact(spec.get(k)) for k in BACKEND_KEYS if k in spec}}


def changed_parts(recorded: Mapping[str, Any], bt: BenchTask) -> list[str]:
    """The parts of ``bt`` whose hash differs from the recorded provenance ([] if unchanged)."""
    now = part_hashes(bt)
    old = recorded.get("parts") or {}
    changed = [p for p in PARTS if p in old and old[p] != now[p]]
    if not changed and not old and recorded.get("task_fingerprint") != _combined(now):
        return ["task_fingerprint"]
    return changed


# ---------------------------------------------------------------- checking a run

class ChangedTasksError(RuntimeError):
    """A run's cells were recorded on tasks that differ from (or are missing in) the bench."""


@dataclass
class ProvenanceCheck:
    changed: dict[str, list[str]] = field(default_factory=dict)   # task -> changed parts
    missing: list[str] = field(default_factory=list)              # tasks not in the bench
    unknown: list[str] = field(default_factory=list)              # cells without provenance
    why_missing: dict[str, str] = field(default_factory=dict)     # task -> why it is missing

    @property
    def ok(self) -> bool:
        return not self.changed and not self.missing

    def problems(self) -> list[str]:
        lines = [f"task {t!r} changed since the run: {', '.join(parts)}"
                 for t, parts in sorted(self.changed.items())]
        lines += [f"task {t!r} is not in the benchmark"
                  + (f" (it does not load: {self.why_missing[t]})" if t in self.why_missing else "")
                  for t in self.missing]
        return lines

    def warnings(self) -> list[str]:
        if not self.unknown:
            return []
        return [f"provenance unknown for {len(self.unknown)} cell(s) recorded before Asuka "
                "kept task fingerprints; their tasks cannot be checked for changes"]

    def as_record(self) -> dict[str, Any]:
        return {"changed_tasks": dict(sorted(self.changed.items())),
                "missing_tasks": list(self.missing),
                "why_missing": dict(self.why_missing),
                "cells_without_provenance": list(self.unknown)}


def check_run(cells: Mapping[str, Mapping[str, Any]], tasks: Mapping[str, BenchTask],
              scored: Collection[str] | None = None) -> ProvenanceCheck:
    """Compare every cell's recorded provenance (``cells``: cell id -> its cell.json) with the
    current ``tasks``. A missing task counts for every cell; changed and unknown provenance
    only for the cells in ``scored`` (default: all), since the others are never scored."""
    result = ProvenanceCheck()
    seen: dict[tuple[str, str], list[str]] = {}
    for cell_id, cell in cells.items():
        task_id = cell.get("task", "")
        if task_id not in tasks:
            if task_id not in result.missing:
                result.missing.append(task_id)
            continue
        if scored is not None and cell_id not in scored:
            continue
        recorded = cell.get("provenance")
        if not recorded:
            result.unknown.append(cell_id)
            continue
        key = (task_id, json.dumps(recorded.get("parts") or recorded.get("task_fingerprint"),
                                   sort_keys=True))
        if key not in seen:
            seen[key] = changed_parts(recorded, tasks[task_id])
        if seen[key]:
            parts = result.changed.setdefault(task_id, [])
            parts += [p for p in seen[key] if p not in parts]
    result.missing.sort()
    return result


def enforce(check: ProvenanceCheck, allow_changed: bool) -> list[str]:
    """Raise ``ChangedTasksError`` on changed or missing tasks unless ``allow_changed``;
    return the lines to tell the user either way (warnings, and what was allowed)."""
    if not check.ok and not allow_changed:
        raise ChangedTasksError(
            "refusing to score this run against a changed benchmark:\n  "
            + "\n  ".join(check.problems())
            + "\n(pass --allow-changed-tasks to score it anyway; changed tasks are named in "
              "the output, missing tasks are listed as not scored)")
    notes = check.warnings()
    if allow_changed:
        notes += [p + (" (scored anyway: --allow-changed-tasks)" if "changed" in p
                       else " (not scored)") for p in check.problems()]
    return notes
