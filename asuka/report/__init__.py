"""Reports of a recorded run: the paper's tables, figures, a static HTML viewer, exports.

``build_report(run_dir, formats, out)`` is what ``asuka report`` calls. Reads only. Every
aggregate number comes from ``asuka.report.aggregate.aggregate``, as summary.json's do."""

from __future__ import annotations

from pathlib import Path

from asuka.log.provenance import ChangedTasksError
from asuka.report.aggregate import Aggregate, aggregate
from asuka.report.data import RunData, RunNotFound, load_run
from asuka.report.families import all_families
from asuka.report.table import Table

FORMATS = ("md", "csv", "latex", "html")


def report_tables(run: RunData, view: str = "cumulative", ci: str = "normal",
                  agg: Aggregate | None = None,
                  allow_changed_tasks: bool = False) -> list[Table]:
    from asuka.report import tables as t

    agg = agg or aggregate(run, ci)
    # each metric family's tables (asuka.report.families) at their places: the paper's Table 1
    # first, then the families between Table 1 and 3, the per-type breakdown, per round
    placed: list[tuple[int, Table]] = []
    for family in all_families():
        for order, make in ((family.order, family.table), *family.tables):
            table = make(agg, view) if make else None
            if table is not None:
                placed.append((order, table))
    out = [table for _, table in sorted(placed, key=lambda p: p[0])]
    if agg.failed or agg.unfinished or agg.not_scored:
        out.append(t.not_scored_table(agg))
    from asuka.annotate import ANNOTATIONS_FILE, human_agreement

    if (run.root / ANNOTATIONS_FILE).is_file():  # an agreement study on this run
        types = {(c.task, et.id): et.type for c in run.cells if c.bt
                 for et in c.bt.task.eval_tasks}
        out.append(t.humans_table(human_agreement(run.root, types)))
    src = (run.meta.get("reeval") or {}).get("source")
    if src and (run.root.parent / src).is_dir():
        try:
            source = load_run(run.root.parent / src, allow_changed_tasks=allow_changed_tasks)
        except (RunNotFound, ChangedTasksError) as exc:
            agg.notes.append(f"re-evaluation pairs left out: source run {src}: "
                             + str(exc).splitlines()[0])
            source = None
        if source is not None:
            out.insert(2, t.reeval_pairs(run, source, view))
    return out


def footer(agg: Aggregate) -> list[str]:
    """The notes every report ends with: provenance, simulated agents, scoring rules."""
    return [*agg.notes, *agg.scoring_rules]


def build_report(run_dir: Path | str, formats: list[str] | tuple[str, ...] = FORMATS,
                 out: Path | str | None = None, bench: Path | None = None,
                 view: str = "cumulative", ci: str = "normal",
                 allow_changed_tasks: bool = False, tau: float | None = None
                 ) -> dict[str, list[Path]]:
    """Write the report of a run into ``out`` (default ``<run>/report``); returns the files
    written per format. Raises ChangedTasksError for a run recorded on changed or missing
    tasks unless ``allow_changed_tasks``."""
    from asuka.report import render
    from asuka.report.html import build_html
    from asuka.report.plots import CAPTIONS, all_figures

    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {unknown}; known: {', '.join(FORMATS)}")
    if view not in ("cumulative", "same-artifact"):
        raise ValueError(f"unknown view {view!r}; known: cumulative, same-artifact")
    run = load_run(run_dir, bench, allow_changed_tasks)
    agg = aggregate(run, ci, tau)
    dest = Path(out) if out else run.root / "report"
    dest.mkdir(parents=True, exist_ok=True)
    tables = report_tables(run, view, ci, agg, allow_changed_tasks)
    notes = footer(agg)
    figures = all_figures(agg, dest / "figures")
    written: dict[str, list[Path]] = {"figures": list(figures.values())}
    if "md" in formats:
        parts = [f"# Run {run.name}\n"] + [f"> {n}\n" for n in run.notices]
        parts += [render.to_markdown(t) for t in tables]
        parts += [f"![{CAPTIONS[k]}](figures/{p.name})\n\n*{CAPTIONS[k]}.*\n"
                  for k, p in figures.items()]
        parts += [render.notes_markdown(notes)]
        (dest / "report.md").write_text("\n".join(parts), encoding="utf-8")
        written["md"] = [dest / "report.md"]
    for fmt, ext, fn in (("csv", "csv", render.to_csv), ("latex", "tex", render.to_latex)):
        if fmt in formats:
            written[fmt] = []
            for t in tables:
                p = dest / f"{t.name}.{ext}"
                p.write_text(fn(t, notes) if fmt == "latex" else fn(t), encoding="utf-8")
                written[fmt].append(p)
    if "html" in formats:
        written["html"] = [build_html(run, agg, dest / "html", tables, figures, view)]
    return written


__all__ = ["FORMATS", "Aggregate", "ChangedTasksError", "RunData", "RunNotFound", "Table",
           "aggregate", "build_report", "footer", "load_run", "report_tables"]
