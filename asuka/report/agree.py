"""Two evaluators compared on the same artifacts: ``asuka agree RUN_A RUN_B``.

Rounds of the two runs are paired by what was judged, not by where it was recorded: the task
and the content hash of the round's workspace snapshot (``asuka.protocol.evaluate
.artifact_hash``), so a re-evaluation, a sweep judged by another UI backend, or a run of the
same replayed agent all pair up. Within a run the first round that judged an artifact stands
for it. A criterion is compared when both judges decided it (pass, or not: fail / not found);
undecided verdicts (error, unverifiable) and criteria one side did not run (a skipped task)
are counted, not compared. The statistics are ``asuka.log.agreement``'s; per artifact the
criteria pass shares are correlated too."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from asuka.log.agreement import agreement_report, pearson, spearman
from asuka.log.store import RunStore
from asuka.protocol.evaluate import artifact_hash
from asuka.report.data import RunData, load_run

DECIDED = {"pass": "pass", "fail": "fail", "not_found": "fail"}


@dataclass
class Judged:
    """One run's verdict statuses on one artifact: criterion id -> status."""

    where: str                          # "<cell> round <r>"
    statuses: dict[str, str]


@dataclass
class RunAgreement:
    run_a: str
    run_b: str
    artifacts: int                      # paired artifacts
    compared: int                       # criteria both judges decided
    undecided: int                      # criteria at least one side left undecided or unrun
    stats: dict[str, float | int]
    score_pearson: float
    score_spearman: float
    disagreements: list[dict[str, str]] = field(default_factory=list)

    def json(self) -> dict[str, Any]:
        return {"run_a": self.run_a, "run_b": self.run_b, "artifacts": self.artifacts,
                "compared": self.compared, "undecided": self.undecided, **self.stats,
                "score_pearson": self.score_pearson, "score_spearman": self.score_spearman,
                "disagreements": self.disagreements}


def judged_artifacts(run: RunData) -> dict[tuple[str, str], Judged]:
    """(task, artifact hash) -> the first round of ``run`` that judged it."""
    store = RunStore(run.root)
    out: dict[tuple[str, str], Judged] = {}
    for c in sorted(run.cells, key=lambda c: c.cell_id):
        for rec in c.records:
            ws = store.round_workspace(c.cell_id, rec.round)
            if not ws.is_dir() or not rec.evaluation.deploy_ok:
                continue
            key = (c.task, artifact_hash(ws))
            if key not in out:
                out[key] = Judged(f"{c.cell_id} round {rec.round}", {
                    v.criterion_id: v.status for res in rec.evaluation.results.values()
                    for v in res.verdicts})
    return out


def compare_runs(run_a: Path | str, run_b: Path | str, bench: Path | None = None,
                 allow_changed_tasks: bool = False) -> RunAgreement:
    a = load_run(run_a, bench, allow_changed_tasks)
    b = load_run(run_b, bench, allow_changed_tasks)
    ja, jb = judged_artifacts(a), judged_artifacts(b)
    labels_a: list[str] = []
    labels_b: list[str] = []
    scores_a: list[float] = []
    scores_b: list[float] = []
    undecided = 0
    disagreements = []
    tasks = {c.task: c.bt for c in [*a.cells, *b.cells] if c.bt is not None}
    for key in sorted(set(ja) & set(jb)):
        task, _ = key
        left, right = ja[key], jb[key]
        criteria = [cr.id for et in tasks[task].task.eval_tasks for cr in et.criteria]
        pa = pb = n = 0
        for cid in criteria:
            x, y = DECIDED.get(left.statuses.get(cid, "")), DECIDED.get(right.statuses.get(cid, ""))
            if x is None or y is None:
                undecided += 1
                continue
            labels_a.append(x)
            labels_b.append(y)
            n += 1
            pa += x == "pass"
            pb += y == "pass"
            if x != y:
                disagreements.append({"task": task, "criterion": cid,
                                      "a": left.statuses[cid], "b": right.statuses[cid],
                                      "a_at": left.where, "b_at": right.where})
        if n:
            scores_a.append(pa / n)
            scores_b.append(pb / n)
    return RunAgreement(a.name, b.name, len(set(ja) & set(jb)), len(labels_a), undecided,
                        agreement_report(labels_a, labels_b), pearson(scores_a, scores_b),
                        spearman(scores_a, scores_b), disagreements)
