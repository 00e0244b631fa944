"""Judge against people (the paper's RQ3): ``asuka agree RUN --humans``. For every labelled
item, the automated verdict (pass; fail or not found as fail) against each annotator's label
(Can't tell leaves the item out, counted): accuracy, precision, recall and F1 with Pass the
positive class (as the paper), Cohen's kappa, Gwet's AC1, each with a percentile bootstrap CI
over projects (cells resampled); the same per evaluation-task type, per UI backend and per
deciding stage (scripted, grounded, llm); people against each other where two labelled the same
item; the confusion table; and every disagreement with the viewer page it is on."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from asuka.annotate._store import LabelStore
from asuka.log.agreement import accuracy, cohen_kappa, gwet_ac1, label_scores, percent_agreement
from asuka.log.store import RunStore

JUDGED = {"pass": "pass", "fail": "fail", "not_found": "fail"}
BOOTSTRAP = 1000


def _stats(pairs: list[tuple[str, str]]) -> dict[str, float]:
    """pairs: (judge, human)."""
    judge, human = [p[0] for p in pairs], [p[1] for p in pairs]
    s = label_scores(judge, human, "pass")
    return {"n": len(pairs), "accuracy": accuracy(judge, human), "precision": s.precision,
            "recall": s.recall, "f1": s.f1, "kappa": cohen_kappa(judge, human),
            "ac1": gwet_ac1(judge, human, ("pass", "fail"))}


def _bootstrap(by_project: dict[str, list[tuple[str, str]]], seed: int = 0
               ) -> dict[str, tuple[float, float]]:
    """95 % percentile intervals of each statistic, projects resampled with replacement."""
    projects = sorted(by_project)
    if len(projects) < 2:
        return {}
    rng = random.Random(seed)
    draws: dict[str, list[float]] = defaultdict(list)
    for _ in range(BOOTSTRAP):
        pairs = [p for _ in projects for p in by_project[rng.choice(projects)]]
        for k, v in _stats(pairs).items():
            if k != "n" and v == v:
                draws[k].append(v)
    out = {}
    for k, vals in draws.items():
        vals.sort()
        out[k] = (vals[int(0.025 * (len(vals) - 1))], vals[int(0.975 * (len(vals) - 1))])
    return out


def human_agreement(run_dir: Path, types: dict[tuple[str, str], str] | None = None
                    ) -> dict[str, Any]:
    """``types``: (task, evaluation task) -> its type, for the per-type breakdown."""
    store, labels = RunStore(run_dir), LabelStore(run_dir).labels()
    verdicts: dict[tuple[str, int], dict[str, Any]] = {}
    pairs: list[dict[str, Any]] = []
    cant_tell = 0
    for lab in labels:
        key = (lab["cell_id"], lab["round"])
        if key not in verdicts:
            rec = store.load_round(*key)
            verdicts[key] = {v.criterion_id: v for r in rec.evaluation.results.values()
                             for v in r.verdicts}
        v = verdicts[key].get(lab["criterion"])
        if v is None or v.status not in JUDGED:
            continue
        if lab["label"] == "cant_tell":
            cant_tell += 1
            continue
        spec = store.cell_spec(lab["cell_id"]) or {}
        pairs.append({**lab, "judge": JUDGED[v.status], "human": lab["label"],
                      "ui": spec.get("ui", "?"), "stage": v.decided_by or "scripted",
                      "type": (types or {}).get((spec.get("task"), lab["eval_task"]), "?")})

    def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
        by_project: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for p in rows:
            by_project[p["cell_id"]].append((p["judge"], p["human"]))
        out: dict[str, Any] = _stats([(p["judge"], p["human"]) for p in rows])
        out["ci"] = _bootstrap(by_project)
        return out

    result: dict[str, Any] = {"labels": len(labels), "compared": len(pairs),
                              "cant_tell": cant_tell, "overall": summary(pairs) if pairs else {}}
    for facet in ("type", "ui", "stage"):
        groups: dict[str, list] = defaultdict(list)
        for p in pairs:
            groups[p[facet]].append(p)
        result[f"by_{facet}"] = {k: _stats([(p["judge"], p["human"]) for p in g])
                                 for k, g in sorted(groups.items())}
    result["confusion"] = {f"judge {j} / human {h}": sum(
        p["judge"] == j and p["human"] == h for p in pairs)
        for j in ("pass", "fail") for h in ("pass", "fail")}
    by_item: dict[int, dict[str, str]] = defaultdict(dict)
    for lab in labels:
        if lab["label"] != "cant_tell":
            by_item[lab["item"]][lab["annotator"]] = lab["label"]
    people = sorted({lab["annotator"] for lab in labels})
    result["human_vs_human"] = {}
    for i, a in enumerate(people):
        for b in people[i + 1:]:
            both = [(x[a], x[b]) for x in by_item.values() if a in x and b in x]
            if both:
                xa, xb = [p[0] for p in both], [p[1] for p in both]
                result["human_vs_human"][f"{a} vs {b}"] = {
                    "n": len(both), "percent_agreement": percent_agreement(xa, xb),
                    "kappa": cohen_kappa(xa, xb), "ac1": gwet_ac1(xa, xb, ("pass", "fail"))}
    result["disagreements"] = [
        {"annotator": p["annotator"], "cell_id": p["cell_id"], "round": p["round"],
         "criterion": p["criterion"], "judge": p["judge"], "human": p["human"],
         "note": p["note"], "viewer": f"report/html/cells/{p['cell_id']}/round-{p['round']}.html"}
        for p in pairs if p["judge"] != p["human"]]
    return result
