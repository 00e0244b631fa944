"""The record a complete ``asuka validate --mutants`` run leaves: ``tasks/<id>/proof.json``.

A passing run proves the checks of one version of a task. The proof keeps a fingerprint of
what the run exercised (the task's parsed definition, the reference app's files, the mock data)
so that any later edit shows up as a *stale* proof, and it lists every mutant with the
evaluation tasks it was expected to fail and did fail, for a reader who wants to see the proof
rather than trust it. ``status``, ``notes`` and the acceptance contract are not part of the
fingerprint: promoting a draft to ready, or declaring its core tasks and mandatory criteria,
after its proof does not invalidate it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Literal

from asuka.log.provenance import hash_files, task_definition, task_files
from asuka.schema import BenchTask

PROOF_FILE = "proof.json"
ProofState = Literal["proven", "stale", "unproven"]


def fingerprint(bench_task: BenchTask) -> str:
    """sha256 over the task definition (minus status, notes and the acceptance contract, which
    decide no verdict), reference files and data."""
    h = hashlib.sha256()
    h.update(task_definition(bench_task, contracts=False))
    files = task_files(bench_task)
    hash_files(h, files["reference"] + files["data"])
    return h.hexdigest()


def proof_path(bench_task: BenchTask) -> Path:
    return Path(bench_task.root) / PROOF_FILE


def write_proof(bench_task: BenchTask, report: object) -> Path:
    """Write the proof of a passing complete run (``report``: a ``TaskMutantReport``)."""
    runs = [{"feature": r.feature or "reference", "state": r.state,
             "expected": sorted(r.expected), "failed": sorted(r.failed)}
            for r in report.results]  # type: ignore[attr-defined]
    record = {"task": bench_task.id, "fingerprint": fingerprint(bench_task),
              "proven_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
              "mutant_runs": len(runs),
              "ladder": getattr(report, "ladder", None),
              "judge": getattr(report, "judge", None), "runs": runs}
    path = proof_path(bench_task)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(_format(record))
    tmp.replace(path)  # a crash never leaves half a proof
    return path


def _format(record: dict[str, Any]) -> str:
    """JSON with one line per mutant run: short enough to read in a diff."""
    head = {k: v for k, v in record.items() if k != "runs"}
    lines = [json.dumps(r) for r in record["runs"]]
    body = json.dumps(head, indent=1)[:-2]  # without the closing "\n}"
    return body + ',\n "runs": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def proof_state(bench_task: BenchTask) -> ProofState:
    path = proof_path(bench_task)
    if not path.is_file():
        return "unproven"
    try:
        recorded = json.loads(path.read_text()).get("fingerprint")
    except (OSError, ValueError, AttributeError):
        return "unproven"
    return "proven" if recorded == fingerprint(bench_task) else "stale"


def _recorded(bench_task: BenchTask, key: str) -> Any:
    """One field of the recorded proof; None without a readable proof."""
    try:
        return json.loads(proof_path(bench_task).read_text()).get(key)
    except (OSError, ValueError, AttributeError):
        return None


def proof_judge(bench_task: BenchTask) -> str | None:
    """The fingerprint of the judge that made the recorded proof
    (``asuka.uiagents.scripted.code_fingerprint``), None when the proof does not say (proofs
    from before it was recorded)."""
    judge = _recorded(bench_task, "judge")
    return judge if isinstance(judge, str) else None


def proven_with_ladder(bench_task: BenchTask) -> bool:
    """Whether the recorded proof ran with the resolution ladder on (today's default). A proof
    from before the ladder still proves the checks as written, but not that a relaxed or
    adapted step cannot let one of its mutants through."""
    return _recorded(bench_task, "ladder") is True
