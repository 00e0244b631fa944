"""The criterion DAG as an inline SVG, laid out by topological generation (no graphviz).

Generation i is column i; nodes keep the task file's order inside a column. A node's fill is its
status; a node the gated view skipped (under ``full``) gets a dashed outline."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from asuka.dag import CriterionDag

COLORS = {"passed": "#2e7d32", "failed": "#c62828", "skipped": "#9e9e9e", "error": "#ef6c00",
          "": "#cfd8dc"}
W, H, GAP_X, GAP_Y, PAD = 92, 30, 54, 14, 10


def dag_svg(dag: CriterionDag, status: Mapping[str, str], titles: Mapping[str, str],
            gated: Mapping[str, str] | None = None, href: str = "#et-{id}") -> str:
    gens = dag.generations()
    if not gens:
        return "<svg xmlns='http://www.w3.org/2000/svg' width='0' height='0'></svg>"
    pos = {n: (PAD + i * (W + GAP_X), PAD + j * (H + GAP_Y))
           for i, gen in enumerate(gens) for j, n in enumerate(gen)}
    width = 2 * PAD + len(gens) * (W + GAP_X) - GAP_X
    height = 2 * PAD + max(len(g) for g in gens) * (H + GAP_Y) - GAP_Y
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="dag" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="evaluation-task dependency DAG">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
           'fill="#607d8b"/></marker></defs>']
    for a, b in dag.graph.edges:
        (ax, ay), (bx, by) = pos[a], pos[b]
        x1, y1, x2, y2 = ax + W, ay + H / 2, bx, by + H / 2
        mid = (x2 - x1) / 2
        out.append(f'<path class="edge" d="M{x1},{y1} C{x1 + mid},{y1} {x2 - mid},{y2} '
                   f'{x2 - 2},{y2}" fill="none" stroke="#607d8b" stroke-width="1.3" '
                   'marker-end="url(#arrow)"/>')
    for n, (x, y) in pos.items():
        st = status.get(n, "")
        g_st = (gated or {}).get(n)
        dashed = ' stroke-dasharray="4 3"' if g_st and g_st != st else ""
        tip = escape(f"{n}: {titles.get(n, '')} — {st or 'not run'}"
                     + (f" (gated: {g_st})" if g_st and g_st != st else ""))
        out.append(
            f'<a href="{escape(href.format(id=n))}"><g class="node status-{st or "none"}" '
            f'data-id="{escape(n)}" data-status="{st}"><title>{tip}</title>'
            f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="6" fill="{COLORS.get(st, "")}"'
            f' stroke="#263238" stroke-width="1.5"{dashed}/>'
            f'<text x="{x + W / 2}" y="{y + H / 2}" text-anchor="middle" '
            f'dominant-baseline="central" font-size="12" font-family="sans-serif" '
            f'fill="#fff">{escape(n)}</text></g></a>')
    out.append("</svg>")
    return "\n".join(out)
