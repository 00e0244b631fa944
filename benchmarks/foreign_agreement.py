"""Agreement of the scripted checks with hand-made labels on the corpus of independent
implementations (tests/fixtures/foreign/, see asuka/benchmark/corpus.py): per task, the share of
criteria whose verdict on the corpus app matches its label, and every disagreement.

    .venv/bin/python benchmarks/foreign_agreement.py [TASK ...] [--write] [--patient-too]

--patient-too also evaluates every app with every timeout waited out (``fast_absence=False``)
and says whether each criterion got the same verdict both ways: evaluator changes are checked
on apps no simulator wrote.

--write records the figures in tests/fixtures/foreign/agreement.json (with a fingerprint of the
task, app and labels, so a test can tell a stale figure from a current one)."""

from __future__ import annotations

import argparse
import asyncio
import json

from asuka.benchmark.loading import default_bench_dir, load_bench
from asuka.benchmark.corpus import (
    AGREEMENT_FILE, CORPUS_DIR, agreement, corpus_tasks, evaluate_entry, fingerprint,
    load_labels
)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--patient-too", action="store_true")
    args = ap.parse_args()
    ids = args.tasks or corpus_tasks()
    tasks, problems = load_bench(default_bench_dir(), ids)
    if problems:
        raise SystemExit("\n".join(map(str, problems)))
    path = CORPUS_DIR / AGREEMENT_FILE
    record = json.loads(path.read_text()) if path.exists() else {}
    for bt in tasks:
        entry = CORPUS_DIR / bt.id
        labels = load_labels(entry / "labels.yaml", bt)
        evaluation = await evaluate_entry(bt, entry)
        ag = agreement(bt, evaluation, labels)
        print(f"{bt.id}: {ag.agreed}/{ag.total} = {100 * ag.share:.1f}% agreement "
              f"(Gwet's AC1 {ag.ac1:.3f}, Cohen's kappa {ag.kappa:.3f})")
        if args.patient_too:
            patient = await evaluate_entry(bt, entry, {"fast_absence": False})
            differ = sorted(set(_statuses(evaluation).items()) ^ set(_statuses(patient).items()))
            print(f"  fast absence vs patient: "
                  f"{'identical verdicts' if not differ else f'DIFFER {differ}'}")
        for d in ag.disagreements:
            print(f"  {d.criterion_id}: label {d.label}, verdict {d.verdict}: {d.verdict_reason}")
        record[bt.id] = {"agreed": ag.agreed, "total": ag.total,
                         "share": round(ag.share, 4), "fingerprint": fingerprint(bt, entry),
                         "disagreements": [d.__dict__ for d in ag.disagreements]}
    if args.write:
        path.write_text(json.dumps(dict(sorted(record.items())), indent=1) + "\n")
        print(f"wrote {path}")


def _statuses(evaluation) -> dict[str, str]:
    return {v.criterion_id: v.status for r in evaluation.results.values() for v in r.verdicts}


if __name__ == "__main__":
    asyncio.run(main())
