"""Tables as Markdown, CSV and LaTeX.

Markdown and LaTeX show rates as percentages with one decimal and CIs as ± half-width; CSV keeps
full precision as fractions, an estimate taking two columns (``X`` and ``X_pm``)."""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from asuka.log.scoring import Estimate
from asuka.report.table import Table


def _num(x: float, pct: bool) -> str:
    """Rounded to what it can mean: a rate to one decimal of a percent; another number (points,
    seconds, tokens) to one decimal from 1 up, three significant digits below (a kappa of
    0.853), a whole number as one."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if pct:
        return f"{100 * x:.1f}"
    if not isinstance(x, float):
        return str(x)
    if x.is_integer():
        return str(int(x))
    return f"{x:.1f}" if abs(x) >= 1 else f"{x:.3g}"


def fmt(v: Any, pct: bool, latex: bool = False) -> str:
    if isinstance(v, Estimate):
        mean = _num(v.mean, pct)
        if math.isnan(v.half_width) or math.isnan(v.mean):
            return mean
        hw = _num(v.half_width, pct)
        return f"{mean}$_{{\\pm {hw}}}$" if latex else f"{mean} ±{hw}"
    if isinstance(v, float):
        return _num(v, pct)
    return "" if v is None else str(v)


def cells(t: Table, latex: bool = False) -> list[list[str]]:
    return [[fmt(v, col in t.percent, latex) for col, v in zip(t.columns, row)]
            for row in t.rows]


def numeric(t: Table) -> list[bool]:
    """Per column: are all its values numbers (right-aligned)?"""
    return [all(isinstance(r[i], (int, float, Estimate)) or r[i] in ("", None) for r in t.rows)
            and any(isinstance(r[i], (int, float, Estimate)) for r in t.rows)
            for i in range(len(t.columns))]


def to_markdown(t: Table) -> str:
    head = "| " + " | ".join(t.columns) + " |"
    sep = "|" + "|".join("---:" if n else "---" for n in numeric(t)) + "|"
    body = ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in cells(t)]
    notes = " ".join(x for x in (t.note, "Rates in %." if t.percent else "") if x)
    if not t.rows:
        body = ["| " + " | ".join(["(no data)"] + [""] * (len(t.columns) - 1)) + " |"]
    return f"### {t.title}\n\n" + "\n".join([head, sep, *body]) + f"\n\n{notes}\n"


def notes_markdown(notes: list[str]) -> str:
    """The report's footer: provenance, simulated agents, how it is scored."""
    return "---\n\n**Notes**\n\n" + "".join(f"- {n}\n" for n in notes)


def to_csv(t: Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    est_cols = {i for row in t.rows for i, v in enumerate(row) if isinstance(v, Estimate)}
    header = []
    for i, c in enumerate(t.columns):
        header += [c, f"{c}_pm"] if i in est_cols else [c]
    w.writerow(header)
    for row in t.rows:
        out: list[Any] = []
        for i, v in enumerate(row):
            if i in est_cols:
                out += [repr(v.mean), repr(v.half_width)] if isinstance(v, Estimate) else [v, ""]
            else:
                out.append(repr(v) if isinstance(v, float) else v)
        w.writerow(out)
    return buf.getvalue()


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "$": r"\$", "~": r"\textasciitilde{}", "^": r"\^{}"}


def tex_escape(s: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in s)


def to_latex(t: Table, notes: list[str] | tuple[str, ...] = ()) -> str:
    spec = "".join("r" if c in t.percent else "l" for c in t.columns)
    lines = [f"% {tex_escape(t.title)}", f"\\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(tex_escape(c) for c in t.columns) + r" \\", r"\midrule"]
    for row, raw in zip(cells(t, latex=True), t.rows):
        lines.append(" & ".join(c if isinstance(v, Estimate) else tex_escape(c)
                                for c, v in zip(row, raw)) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    lines += [f"% {tex_escape(n)}" for n in notes]
    return "\n".join(lines) + "\n"
