"""Reports of a recorded run: the paper's tables, figures, a static HTML viewer, exports.

``build_report(run_dir, formats, out)`` is what ``asuka report`` calls. Reads only."""

from __future__ import annotations

from pathlib import Path

from asuka.report.data import RunData, RunNotFound, load_run
from asuka.report.tables import Table

FORMATS = ("md", "csv", "latex", "html")


def report_tables(run: RunData, view: str = "cumulative", ci: str = "normal") -> list[Table]:
    from asuka.report import tables as t

    out = [t.table1(run, view, ci), t.table2(run, view, ci), t.table3(run, view, ci),
           t.by_type_table(run, ci), t.per_round(run, ci)]
    src = (run.meta.get("reeval") or {}).get("source")
    if src and (run.root.parent / src).is_dir():
        try:
            source = load_run(run.root.parent / src)
        except RunNotFound:
            source = None
        if source is not None:
            out.insert(2, t.reeval_pairs(run, source, view, ci))
    return out


def build_report(run_dir: Path | str, formats: list[str] | tuple[str, ...] = FORMATS,
                 out: Path | str | None = None, bench: Path | None = None,
                 view: str = "cumulative", ci: str = "normal") -> dict[str, list[Path]]:
    """Write the report of a run into ``out`` (default ``<run>/report``); returns the files
    written per format."""
    from asuka.report import render
    from asuka.report.html import build_html
    from asuka.report.plots import all_figures

    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise ValueError(f"unknown format(s) {unknown}; known: {', '.join(FORMATS)}")
    if view not in ("cumulative", "same-artifact"):
        raise ValueError(f"unknown view {view!r}; known: cumulative, same-artifact")
    run = load_run(run_dir, bench)
    dest = Path(out) if out else run.root / "report"
    dest.mkdir(parents=True, exist_ok=True)
    tables = report_tables(run, view, ci)
    figures = all_figures(run, dest / "figures")
    written: dict[str, list[Path]] = {"figures": list(figures.values())}
    if "md" in formats:
        parts = [f"# Run {run.name}\n"] + [render.to_markdown(t) for t in tables]
        parts += [f"![{k}](figures/{p.name})\n" for k, p in figures.items()]
        (dest / "report.md").write_text("\n".join(parts), encoding="utf-8")
        written["md"] = [dest / "report.md"]
    for fmt, ext, fn in (("csv", "csv", render.to_csv), ("latex", "tex", render.to_latex)):
        if fmt in formats:
            written[fmt] = []
            for t in tables:
                p = dest / f"{t.name}.{ext}"
                p.write_text(fn(t), encoding="utf-8")
                written[fmt].append(p)
    if "html" in formats:
        written["html"] = [build_html(run, dest / "html", tables, figures, view)]
    return written


__all__ = ["FORMATS", "RunData", "RunNotFound", "Table", "build_report", "load_run",
           "report_tables"]
