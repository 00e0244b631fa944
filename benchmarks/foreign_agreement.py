"""Agreement of the scripted checks with hand-made labels on the corpora of independent apps
(tests/fixtures/foreign/: written from the PRD; tests/fixtures/realagent/: written as a code agent
writes them, from the query and then the feedback, per round; see asuka/proving/corpus.py):
per app, the share of criteria whose verdict matches its label, then per round, per task and
per deciding rung (``Verdict.decided_by``), false passes, and every disagreement.

    .venv/bin/python benchmarks/foreign_agreement.py [TASK ...] [--corpus foreign|realagent|all]
        [--round N] [--write] [--patient-too] [--no-ladder] [--ui-opt KEY=VALUE ...]

--no-ladder evaluates every check exactly as written (the resolution ladder's deterministic
rungs off), for the comparison docs/judging-apps.md gives. --patient-too also evaluates every app with
every timeout waited out (``fast_absence=False``) and says whether each criterion got the same
verdict both ways. --write records the figures in the corpus's agreement.json (with a
fingerprint of the task, app and labels, so a test can tell a stale figure from a current one)."""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections import defaultdict

from asuka.benchmark.loading import default_bench_dir, load_bench
from asuka.proving.corpus import (
    AGREEMENT_FILE,
    CORPORA,
    agreement,
    corpus_entries,
    evaluate_entry,
    fingerprint,
    load_labels,
)


def _share(a: int, n: int) -> str:
    return f"{a}/{n} = {100 * a / n:.1f}%" if n else "-"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tasks", nargs="*")
    ap.add_argument("--corpus", default="foreign", choices=["foreign", "realagent", "all"])
    ap.add_argument("--round", type=int, action="append", dest="rounds")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--patient-too", action="store_true")
    ap.add_argument("--no-ladder", action="store_true")
    ap.add_argument("--ui-opt", action="append", default=[])
    ap.add_argument("--tag", help="record the figures under KEY+TAG (e.g. 'grounded' for a run "
                                  "with cached groundings) beside the offline ones")
    args = ap.parse_args()
    entries = [e for e in corpus_entries(args.corpus)
               if (not args.tasks or e.task in args.tasks)
               and (not args.rounds or e.round in args.rounds)]
    tasks, problems = load_bench(default_bench_dir(), sorted({e.task for e in entries}),
                                 drafts=True)
    if problems:
        raise SystemExit("\n".join(map(str, problems)))
    by_id = {bt.id: bt for bt in tasks}
    options: dict = {"ladder": not args.no_ladder}
    for kv in args.ui_opt:
        k, _, v = kv.partition("=")
        options[k] = json.loads(v) if v[:1] in "[{0123456789tfn" else v
    records: dict[str, dict] = {}
    per: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    started = time.monotonic()
    for e in entries:
        bt = by_id[e.task]
        labels = load_labels(e.path / "labels.yaml", bt)
        evaluation = await evaluate_entry(bt, e.path, options)
        ag = agreement(bt, evaluation, labels)
        print(f"{e.corpus} {e.key}: {_share(ag.agreed, ag.total)} agreement, "
              f"{ag.false_passes} false pass(es) (Gwet's AC1 {ag.ac1:.3f})", flush=True)
        if args.patient_too:
            patient = await evaluate_entry(bt, e.path, {**options, "fast_absence": False})
            differ = sorted(set(_statuses(evaluation).items()) ^ set(_statuses(patient).items()))
            print(f"  fast absence vs patient: "
                  f"{'identical verdicts' if not differ else f'DIFFER {differ}'}")
        for d in ag.disagreements:
            print(f"  {d.criterion_id}: label {d.label}, verdict {d.verdict} [{d.stage}]: "
                  f"{d.verdict_reason[:200]} || label: {d.label_reason[:160]}")
        groups = {"all": "all", "corpus": e.corpus, "task": f"task {e.task}",
                  "round": f"round {e.round}" if e.round else "round -"}
        for v, lab, stage in zip(ag.verdicts, ag.labels, ag.stages):
            for key in (groups["all"], groups["corpus"], groups["task"], groups["round"],
                        f"rung {stage}"):
                cell = per[e.corpus][key]
                cell[0] += v == lab
                cell[1] += 1
                cell[2] += v == "pass" and lab == "fail"
        records.setdefault(e.corpus, {})[e.key + (f"+{args.tag}" if args.tag else "")] = {
            "agreed": ag.agreed, "total": ag.total, "share": round(ag.share, 4),
            "false_passes": ag.false_passes, "ladder": not args.no_ladder,
            "stages": dict(sorted(_count(ag.stages).items())),
            "fingerprint": fingerprint(bt, e.path),
            "disagreements": [d.__dict__ for d in ag.disagreements]}
    print(f"\nevaluated {len(entries)} app(s) in {time.monotonic() - started:.0f} s "
          f"(ladder {'off' if args.no_ladder else 'on'})")
    for corpus, rows in per.items():
        print(f"\n{corpus}:")
        for key, (a, n, fp) in sorted(rows.items(), key=lambda kv: (kv[0] != corpus, kv[0])):
            print(f"  {key:32} {_share(a, n):>18}   false passes {fp} ({100 * fp / n:.1f}%)")
    if args.write:
        for corpus, rec in records.items():
            path = CORPORA[corpus] / AGREEMENT_FILE
            old = json.loads(path.read_text()) if path.exists() else {}
            old.update(rec)
            path.write_text(json.dumps(dict(sorted(old.items())), indent=1) + "\n")
            print(f"wrote {path}")


def _count(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for i in items:
        out[i] += 1
    return out


def _statuses(evaluation) -> dict[str, str]:
    return {v.criterion_id: v.status for r in evaluation.results.values() for v in r.verdicts}


if __name__ == "__main__":
    asyncio.run(main())
