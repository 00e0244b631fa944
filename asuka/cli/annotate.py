"""``asuka annotate``: the console of a judge-agreement study on a run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from asuka.cli._common import BenchOpt, bench_dir, console, err


def annotate(
    run: Annotated[Path, typer.Argument(help="The run directory to draw the sample from.")],
    sample: Annotated[int | None, typer.Option(
        help="Artifacts (cell rounds) to sample (default: all).")] = None,
    stratify: Annotated[str, typer.Option(
        help="Spread the sample evenly over these cell settings, comma-separated "
             "(agent, task, ui, user, protocol, start).")] = "",
    seed: Annotated[int, typer.Option(help="The sample's seed.")] = 0,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1.")] = 8765,
    serve_apps: Annotated[bool, typer.Option(
        "--serve-apps/--no-serve-apps",
        help="Deploy each sampled round's app beside its criteria (default on).")] = True,
    import_labels: Annotated[Path | None, typer.Option(
        "--import", help="Add labels collected elsewhere (CSV or JSONL) and stop.")] = None,
    export_labels: Annotated[Path | None, typer.Option(
        "--export", help="Write every label as CSV or JSONL and stop.")] = None,
    bench: BenchOpt = None,
) -> None:
    """Label a reproducible sample of a run's judged criteria in a browser, beside each round's
    real app; labels go to RUN/annotations.sqlite (resumable). Then: asuka agree RUN --humans."""
    import uvicorn

    from asuka.annotate import LabelStore, draw_sample, make_app
    from asuka.benchmark.loading import load_bench
    from asuka.log.store import RunStore

    if not (run / "run.json").is_file():
        err.print(f"[red]error[/red] {run}: not a run directory (no run.json)")
        raise typer.Exit(1)
    store, labels = RunStore(run), LabelStore(run)
    by = [s.strip() for s in stratify.split(",") if s.strip()]
    try:
        items = draw_sample(store, sample, by, seed)
        labels.set_sample(items, {"sample": sample, "stratify": by, "seed": seed})
    except ValueError as exc:
        err.print(f"[red]error[/red] {exc}", highlight=False)
        raise typer.Exit(2) from None
    if import_labels or export_labels:
        try:
            if import_labels:
                console.print(f"imported {labels.import_(import_labels)} label(s)")
            if export_labels:
                console.print(f"exported {labels.export(export_labels)} label(s) to "
                              f"{export_labels}")
        except (ValueError, KeyError, OSError) as exc:
            err.print(f"[red]error[/red] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from None
        return
    task_ids = sorted({(store.cell_spec(i.cell_id) or {}).get("task") for i in labels.items()})
    tasks, problems = load_bench(bench_dir(bench), [t for t in task_ids if t])
    if problems:
        for p in problems:
            err.print(f"[red]error[/red] {p}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    app, token = make_app(run, {t.id: t for t in tasks}, deploy=serve_apps)
    console.print(f"{len(labels.items())} criteria to label; progress {labels.progress() or '-'}",
                  highlight=False)
    console.print(f"open http://127.0.0.1:{port}/?token={token}", highlight=False)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def print_human_agreement(run: Path, bench: Path | None, out: Path | None) -> None:
    """``asuka agree RUN --humans``."""
    import json

    from asuka.annotate import ANNOTATIONS_FILE, human_agreement
    from asuka.benchmark.loading import load_bench
    from asuka.log.store import RunStore

    if not (run / ANNOTATIONS_FILE).is_file():
        err.print(f"[red]error[/red] {run} has no labels yet (asuka annotate {run})")
        raise typer.Exit(1)
    store = RunStore(run)
    ids = sorted({(store.cell_spec(c) or {}).get("task") for c in store.cells()} - {None})
    tasks, _ = load_bench(bench_dir(bench), ids)
    types = {(t.id, et.id): et.type for t in tasks for et in t.task.eval_tasks}
    res = human_agreement(run, types)

    def num(x: float) -> str:
        return "–" if x != x else f"{x:.3f}"

    o = res["overall"]
    console.print(f"{res['labels']} label(s): {res['compared']} compared with the judge, "
                  f"{res['cant_tell']} can't tell", highlight=False)
    if o:
        ci = o["ci"]

        def show(k: str) -> str:
            lo_hi = f" [{num(ci[k][0])}, {num(ci[k][1])}]" if k in ci else ""
            return f"{k} {num(o[k])}{lo_hi}"

        console.print(" · ".join(show(k) for k in ("accuracy", "precision", "recall", "f1",
                                                    "kappa", "ac1")), highlight=False)
    for facet in ("type", "ui", "stage"):
        for k, s in res[f"by_{facet}"].items():
            console.print(f"  {facet} {k}: n {s['n']} · accuracy {num(s['accuracy'])} · "
                          f"f1 {num(s['f1'])} · kappa {num(s['kappa'])}", highlight=False)
    console.print("confusion: " + ", ".join(f"{k} {v}" for k, v in res["confusion"].items()),
                  highlight=False)
    for pair, s in res["human_vs_human"].items():
        console.print(f"humans {pair}: n {s['n']} · agreement {num(s['percent_agreement'])} · "
                      f"kappa {num(s['kappa'])} · ac1 {num(s['ac1'])}", highlight=False)
    for d in res["disagreements"][:20]:
        console.print(f"  {d['annotator']}: {d['criterion']} judge {d['judge']}, human "
                      f"{d['human']}  {d['viewer']}", highlight=False, markup=False)
    if out is not None:
        out.write_text(json.dumps(res, indent=1), encoding="utf-8")


def register(app: typer.Typer) -> None:
    app.command()(annotate)
