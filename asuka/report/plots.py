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

from asuka.report.data import Group, RunData  # noqa: E402
from asuka.report.tables import group_label  # noqa: E402
from asuka.scoring import Estimate  # noqa: E402


def _name(g: Group, varying: list[str]) -> str:
    return " · ".join(group_label(g, varying))


def _curve(g: Group, attr: str, view: str = "cumulative") -> list[Estimate]:
    return [g.estimate(lambda c, k=k: getattr(c.metrics(view)[k], attr))
            for k in range(g.n_rounds)]


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


def figure4(run: RunData, path: Path) -> Path | None:
    groups, varying = run.groups(), run.varying()
    if not groups:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for g in sorted(groups, key=lambda g: str(g.key)):
        xs = list(range(1, g.n_rounds + 1))
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


def figure5(run: RunData, path: Path) -> Path | None:
    """Per agent: the PRD-1R score beside rounds 1..n of the query start."""
    prd = {g.fields["agent"]: g for g in run.groups() if g.fields["start"] == "prd"}
    query = {g.fields["agent"]: g for g in run.groups() if g.fields["start"] == "query"}
    agents = sorted(set(prd) & set(query))
    if not agents:
        return None
    n = max(query[a].n_rounds for a in agents)
    width = 0.8 / (n + 1)
    fig, ax = plt.subplots(figsize=(max(5, 1.6 * len(agents) + 2), 4))
    for i, a in enumerate(agents):
        bars = [("PRD-1R", _curve(prd[a], "task_pass_rate")[0])]
        bars += [(f"R{k + 1}", e) for k, e in enumerate(_curve(query[a], "task_pass_rate"))]
        for j, (name, e) in enumerate(bars):
            x = i + (j - n / 2) * width
            hw = 0 if math.isnan(e.half_width) else 100 * e.half_width
            ax.bar(x, 100 * e.mean, width, yerr=hw, capsize=2, color=f"C{j}",
                   hatch="//" if j == 0 else None, label=name if i == 0 else None)
    ax.set_xticks(range(len(agents)), agents, rotation=15)
    ax.set_ylabel("weighted task pass rate (%)")
    ax.set_title("PRD-1R vs multi-round refinement from the ambiguous query")
    ax.legend(fontsize=8)
    return _finish(fig, [ax], path)


def figure6(run: RunData, path: Path) -> Path | None:
    groups, varying = run.groups(), run.varying()
    if not groups:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, g in enumerate(sorted(groups, key=lambda g: str(g.key))):
        xs = list(range(1, g.n_rounds + 1))
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


def all_figures(run: RunData, out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = {"figure4": figure4(run, out / "fig4_rounds.png"),
            "figure5": figure5(run, out / "fig5_prd_vs_ambiguous.png"),
            "figure6": figure6(run, out / "fig6_implemented_vs_pass.png")}
    return {k: v for k, v in made.items() if v is not None}
