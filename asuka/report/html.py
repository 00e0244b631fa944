"""A self-contained static HTML viewer of a run: one folder, no external resources.

    index.html                       leaderboard (Table 1), the other tables, figures, cells
    figures/*.png                    the report's figures
    cells/<cell>/index.html          one cell: settings, rounds
    cells/<cell>/round-<r>.html      one round: DAG by status, screenshots, verdicts with their
                                     reasons, the feedback sent, the workspace diff
    cells/<cell>/round-<r>/*.png     the round's evidence screenshots (copied)
"""

from __future__ import annotations

import difflib
import shutil
import time
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape

from asuka.log.scoring import status_counts
from asuka.log.store import EVIDENCE_DIR, RunStore
from asuka.report.aggregate import Aggregate
from asuka.report.data import CellData, RunData
from asuka.report.families.errors import round_errors
from asuka.report.plots import CAPTIONS
from asuka.report.render import cells as fmt_cells
from asuka.report.render import numeric
from asuka.report.svg import COLORS, dag_svg
from asuka.report.table import Table

TEMPLATES = Path(__file__).parent / "templates"
MAX_FILE_BYTES = 400_000
MAX_DIFF_LINES = 3000
TRANSCRIPT_CHARS = 20_000


def _env(notes: list[str]) -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html"]), trim_blocks=True,
                      lstrip_blocks=True)
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.1f}"
    env.filters["url"] = lambda s: quote(str(s))
    env.globals["notes"] = notes  # the footer of every page
    return env


def table_view(t: Table, links: list[str | None] | None = None) -> dict:
    links = links or [None] * len(t.rows)
    note = " ".join(x for x in (t.note, "Rates in %." if t.percent else "") if x)
    return {"name": t.name, "title": t.title, "columns": t.columns, "numeric": numeric(t),
            "rows": [{"link": a, "cells": r} for a, r in zip(links, fmt_cells(t))], "note": note}


# ------------------------------------------------------------ workspace diff

def _text(path: Path) -> list[str] | None:
    if path.stat().st_size > MAX_FILE_BYTES:
        return None
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        return None


def _files(root: Path | None) -> dict[str, Path]:
    if root is None or not root.is_dir():
        return {}
    return {p.relative_to(root).as_posix(): p for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink()
            and not {"node_modules", ".git"} & set(p.relative_to(root).parts)}


def workspace_diff(old: Path | None, new: Path) -> list[tuple[str, str]]:
    """Unified diff of the text files of two workspace snapshots, as (css class, line)."""
    a, b = _files(old), _files(new)
    out: list[tuple[str, str]] = []
    for rel in sorted(set(a) | set(b)):
        left = _text(a[rel]) if rel in a else []
        right = _text(b[rel]) if rel in b else []
        if left is None or right is None:
            if rel not in a or rel not in b or a[rel].read_bytes() != b[rel].read_bytes():
                out.append(("meta", f"binary or large file changed: {rel}"))
            continue
        for line in difflib.unified_diff(left, right, f"a/{rel}", f"b/{rel}", lineterm=""):
            cls = ("file" if line.startswith(("+++", "---")) else "hunk" if line.startswith("@@")
                   else "add" if line.startswith("+") else "del" if line.startswith("-")
                   else "ctx")
            out.append((cls, line))
            if len(out) >= MAX_DIFF_LINES:
                out.append(("meta", f"... diff truncated at {MAX_DIFF_LINES} lines"))
                return out
    return out


# ------------------------------------------------------------ pages

def _shot(rdir: Path, name: str | None) -> Path | None:
    if not name:
        return None
    for p in (rdir / EVIDENCE_DIR / name, rdir / name):
        if p.is_file():
            return p
    return None


def _copy_shot(rdir: Path, name: str | None, shots: Path, r: int) -> str | None:
    """Copy one evidence screenshot beside the page; its relative URL (None: no such file)."""
    src = _shot(rdir, name)
    if src is None:
        return None
    dest = shots / Path(name or src.name).as_posix().replace("/", "-")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dest)
    return f"round-{r}/{quote(dest.name)}"


def _round_page(env: Environment, run: RunData, c: CellData, k: int, cdir: Path) -> None:
    rec = c.records[k]
    r = rec.round
    store = RunStore(run.root)
    rdir = store.round_dir(c.cell_id, r)
    shots = cdir / f"round-{r}"
    ev = rec.evaluation
    gated = ev.gated
    crit_text = {cr.id: cr.text for et in c.bt.task.eval_tasks for cr in et.criteria}
    ets = []
    for et in c.bt.task.eval_tasks:
        res = ev.results.get(et.id)
        src = _shot(rdir, res.evidence.screenshot if res and res.evidence else None)
        img = None
        if src is not None:
            shots.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, shots / src.name)
            img = f"round-{r}/{quote(src.name)}"
        ets.append({"et": et, "res": res, "img": img,
                    "gated": gated[et.id].status if gated and et.id in gated else None,
                    "verdicts": [(v, crit_text.get(v.criterion_id, "")) for v in
                                 (res.verdicts if res else [])]})
    pairwise = []
    for pt in c.bt.task.pairwise:
        res = ev.pairwise.get(pt.id)
        pairwise.append({"task": pt, "res": res,
                         **{side: _copy_shot(rdir, getattr(getattr(res, side, None),
                                                           "screenshot", None), shots, r)
                            for side in ("candidate", "reference")}})
    titles = {et.id: et.summary for et in c.bt.task.eval_tasks}
    svg = dag_svg(c.dag, {i: x.status for i, x in ev.results.items()}, titles,
                  {i: x.status for i, x in gated.items()} if gated else None)
    prev = store.round_workspace(c.cell_id, r - 1) if r > 1 else None
    cum, same = c.metrics("cumulative")[k], c.metrics("same-artifact")[k]
    page = env.get_template("round.html").render(
        title=f"{c.cell_id} · round {r}", run=run, c=c, rec=rec, r=r, ets=ets, svg=svg,
        pairwise=pairwise,
        colors=COLORS, counts=status_counts(ev.results), cum=cum, same=same,
        diff=workspace_diff(prev, store.round_workspace(c.cell_id, r)),
        transcript=rec.agent.transcript[:TRANSCRIPT_CHARS],
        prev_r=c.records[k - 1].round if k > 0 else None,
        next_r=c.records[k + 1].round if k + 1 < len(c.records) else None,
        root="../../", generated=time.strftime("%Y-%m-%d %H:%M"))
    (cdir / f"round-{r}.html").write_text(page, encoding="utf-8")


def _cell_page(env: Environment, run: RunData, c: CellData, out: Path) -> None:
    cdir = out / "cells" / c.cell_id
    cdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for k, rec in enumerate(c.records):
        rows.append({"r": rec.round, "counts": status_counts(rec.evaluation.results),
                     "errors": round_errors(rec),
                     "cum": c.metrics("cumulative")[k], "same": c.metrics("same-artifact")[k],
                     "deploy_ok": rec.evaluation.deploy_ok,
                     "tokens": sum(u.input_tokens + u.output_tokens for u in rec.agent.usage)})
        _round_page(env, run, c, k, cdir)
    page = env.get_template("cell.html").render(
        title=c.cell_id, run=run, c=c, rows=rows, root="../../",
        generated=time.strftime("%Y-%m-%d %H:%M"))
    (cdir / "index.html").write_text(page, encoding="utf-8")


def build_html(run: RunData, agg: Aggregate, out: Path, tables: list[Table],
               figures: dict[str, Path], view: str = "cumulative") -> Path:
    """Write the viewer into ``out`` and return its index.html."""
    from asuka.report import footer

    env = _env(footer(agg))
    out.mkdir(parents=True, exist_ok=True)
    (out / "figures").mkdir(exist_ok=True)
    figs = []
    for name, path in figures.items():
        shutil.copy2(path, out / "figures" / path.name)
        figs.append((CAPTIONS.get(name, name), f"figures/{path.name}"))
    leaderboard = tables[0]
    lb = table_view(leaderboard, [f"#group-{i}" for i in range(len(agg.groups))])
    glist = []
    for i, g in enumerate(agg.groups):
        members = []
        for c in sorted(g.group.cells, key=lambda c: (c.task, c.spec.get("seed", 0))):
            m = c.metrics(view)
            members.append({"c": c, "last": m[-1] if m else None})
        glist.append({"id": f"group-{i}", "name": " · ".join(g.labels(agg.varying)),
                      "cells": members})
    for c in run.cells:
        if c.records and c.bt is not None:
            _cell_page(env, run, c, out)
    page = env.get_template("index.html").render(
        title=f"Run {run.name}", run=run, leaderboard=lb, groups=glist, figures=figs,
        tables=[table_view(t) for t in tables[1:]], root="",
        generated=time.strftime("%Y-%m-%d %H:%M"))
    index = out / "index.html"
    index.write_text(page, encoding="utf-8")
    return index
