"""Figures 4, 5 and 6 of the paper as PNGs (matplotlib, Agg backend).

Figure 4: PCR and weighted task pass rate per round (saturation curves, 95% CI bands).
Figure 5: PRD-1R (one round on the clarified PRD) against the rounds of the ambiguous start.
Figure 6: implemented rate against pass rate per round (the attempted-but-broken gap)."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from asuka.log.scoring import Estimate  # noqa: E402
from asuka.report.aggregate import Aggregate, GroupAggregate  # noqa: E402


def _name(g: GroupAggregate, varying: list[str]) -> str:
    return " · ".join(g.labels(varying))


def _curve(g: GroupAggregate, attr: str, view: str = "cumulative") -> list[Estimate]:
    return [r.metrics[f"{attr}.{view}"] for r in g.rounds]


def _band(ax, xs: list[int], est: list[Estimate], label: str, **kw) -> None:
    ys = [100 * e.mean for e in est]
    line, = ax.plot(xs, ys, marker="o", label=label, **kw)
    lo = [100 * (e.low if not math.isnan(e.low) else e.mean) for e in est]
    hi = [100 * (e.high if not math.isnan(e.high) else e.mean) for e in est]
    ax.fill_between(xs, lo, hi, alpha=0.15, color=line.get_color())


def _finish(fig, ax_list, path: Path) -> Path:
    for ax in ax_list:
        ax.set_ylim(-2, 102)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def figure4(agg: Aggregate, path: Path) -> Path | None:
    groups, varying = agg.groups, agg.varying
    if not groups:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for g in groups:
        xs = list(range(1, len(g.rounds) + 1))
        _band(axes[0], xs, _curve(g, "completion"), _name(g, varying))
        _band(axes[1], xs, _curve(g, "task_pass_rate"), _name(g, varying))
    axes[0].set_title("Project completion rate (cumulative)")
    axes[1].set_title("Weighted task pass rate (cumulative)")
    for ax in axes:
        ax.set_xlabel("round")
        ax.set_ylabel("%")
        ax.xaxis.get_major_locator().set_params(integer=True)
    axes[1].legend(fontsize=7, loc="lower right")
    return _finish(fig, axes, path)


def _closest(g: GroupAggregate, others: list[GroupAggregate]) -> GroupAggregate | None:
    """The group of the same agent whose setting agrees with ``g``'s on the most fields."""
    same = [o for o in others if o.setting["agent"] == g.setting["agent"]]
    return max(same, key=lambda o: sum(o.setting.get(k) == v for k, v in g.setting.items()),
               default=None)


def figure5(agg: Aggregate, path: Path) -> Path | None:
    """Per agent (and setting): the PRD-1R score beside rounds 1..n of the query start with
    the closest setting."""
    queries = [g for g in agg.groups if g.setting.get("start") == "query"]
    pairs = [(g, q) for g in agg.groups if g.setting.get("start") == "prd"
             for q in [_closest(g, queries)] if q is not None]
    if not pairs:
        return None
    shown = [v for v in agg.varying if v not in ("start", "rounds")]
    names = [_name(prd, shown) for prd, _ in pairs]
    n = max(len(q.rounds) for _, q in pairs)
    width = 0.8 / (n + 1)
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(pairs) + 2), 4))
    for i, (prd, query) in enumerate(pairs):
        bars = [("PRD-1R", _curve(prd, "task_pass_rate")[0])]
        bars += [(f"R{k + 1}", e) for k, e in enumerate(_curve(query, "task_pass_rate"))]
        for j, (name, e) in enumerate(bars):
            x = i + (j - n / 2) * width
            hw = 0 if math.isnan(e.half_width) else 100 * e.half_width
            ax.bar(x, 100 * e.mean, width, yerr=hw, capsize=2, color=f"C{j}",
                   hatch="//" if j == 0 else None, label=name if i == 0 else None)
    ax.set_xticks(range(len(pairs)), names, rotation=15)
    ax.set_ylabel("weighted task pass rate (%)")
    ax.set_title("PRD-1R vs multi-round refinement from the ambiguous query")
    ax.legend(fontsize=8)
    return _finish(fig, [ax], path)


def figure6(agg: Aggregate, path: Path) -> Path | None:
    groups, varying = agg.groups, agg.varying
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, g in enumerate(groups):
        xs = list(range(1, len(g.rounds) + 1))
        name = _name(g, varying)
        ax.plot(xs, [100 * e.mean for e in _curve(g, "implemented_rate")], "--", marker="s",
                color=f"C{i}", label=f"{name}: implemented")
        ax.plot(xs, [100 * e.mean for e in _curve(g, "task_pass_rate")], "-", marker="o",
                color=f"C{i}", label=f"{name}: pass")
    ax.set_xlabel("round")
    ax.set_ylabel("weighted rate (%)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_title("Implemented vs pass per round (cumulative)")
    ax.legend(fontsize=7, loc="lower right")
    return _finish(fig, [ax], path)


# What each figure shows, for the report's captions and the viewer's (the paper's numbering in
# brackets, for a reader who compares).
CAPTIONS = {
    "figure4": "Project completion rate and weighted task pass rate after each round "
               "(cumulative), per agent, with 95 % CI bands (paper, Figure 4)",
    "figure5": "Weighted task pass rate: the clarified PRD in one round (PRD-1R) beside each "
               "round of refinement from the ambiguous query, per agent (paper, Figure 5)",
    "figure6": "Implemented rate vs pass rate per round (cumulative), per agent: what was built "
               "against what works (paper, Figure 6)",
}


def all_figures(agg: Aggregate, out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = {"figure4": figure4(agg, out / "fig4_rounds.png"),
            "figure5": figure5(agg, out / "fig5_prd_vs_ambiguous.png"),
            "figure6": figure6(agg, out / "fig6_implemented_vs_pass.png")}
    return {k: v for k, v in made.items() if v is not None}
