"""Feature markers in reference apps, and materialising a workspace from them.

A reference app marks each feature in its source:

    /* @feature sort */ ... /* @end sort */          (JS / CSS)
    <!-- @feature sort --> ... <!-- @end sort -->    (HTML)

and may carry a broken variant that is live only when the feature is broken:

    /* @broken sort */ ... /* @end sort */

``materialize`` copies the reference into a workspace where each feature is ``ok`` (its block is
kept, its broken variant dropped), ``missing`` (both dropped) or ``broken`` (the block dropped, the
broken variant kept; a feature without a variant degrades to missing). Marker lines themselves
are removed, so a workspace carries no trace of the scheme.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from asuka.schema import BenchTask

FeatureState = Literal["ok", "missing", "broken"]

MARKER = re.compile(
    r"(?:/\*|<!--)\s*@(?P<kind>feature|broken|end)\s+(?P<name>[A-Za-z0-9_.\-]+)\s*(?:\*/|-->)"
)
TEXT_SUFFIXES = {".html", ".htm", ".js", ".mjs", ".jsx", ".ts", ".tsx", ".css", ".json", ".vue",
                 ".svelte", ".svg", ".md", ".txt"}


class MarkerError(ValueError):
    pass


def scan(text: str, where: str = "<text>") -> dict[str, set[str]]:
    """Return {feature: {"feature", "broken"}} for the blocks found; raise MarkerError on
    unbalanced markers."""
    found: dict[str, set[str]] = {}
    stack: list[tuple[str, str]] = []
    for m in MARKER.finditer(text):
        kind, name = m["kind"], m["name"]
        line = text.count("\n", 0, m.start()) + 1
        if kind == "end":
            if not stack or stack[-1][1] != name:
                open_ = stack[-1][1] if stack else "nothing"
                raise MarkerError(f"{where}:{line}: '@end {name}' closes {open_}")
            stack.pop()
        else:
            stack.append((kind, name))
            found.setdefault(name, set()).add(kind)
    if stack:
        raise MarkerError(f"{where}: unclosed '@{stack[-1][0]} {stack[-1][1]}'")
    return found


def render(text: str, states: Mapping[str, FeatureState], where: str = "<text>") -> str:
    """Apply feature states to one file's text (unknown features count as ok)."""
    out: list[str] = []
    # each stack entry: (kind, name, keep_content)
    stack: list[tuple[str, str, bool]] = []
    pos = 0
    variants = scan(text, where)

    def keeping() -> bool:
        return all(k for _, _, k in stack)

    for m in MARKER.finditer(text):
        if keeping():
            out.append(text[pos:m.start()])
        pos = m.end()
        kind, name = m["kind"], m["name"]
        if kind == "end":
            stack.pop()
            continue
        state = states.get(name, "ok")
        if state == "broken" and "broken" not in variants.get(name, set()):
            state = "missing"
        keep = (state == "ok") if kind == "feature" else (state == "broken")
        stack.append((kind, name, keep))
    out.append(text[pos:])
    # drop lines left blank by removed markers, but keep the file otherwise intact
    return re.sub(r"\n[ \t]*(?=\n[ \t]*\n)", "", "".join(out))


def is_text(path: Path) -> bool:
    return path.suffix.lower() in TEXT_SUFFIXES


def features_in(reference: Path) -> dict[str, set[str]]:
    """All features marked anywhere under a reference app, with their kinds."""
    found: dict[str, set[str]] = {}
    for p in sorted(reference.rglob("*")):
        if p.is_file() and is_text(p) and "node_modules" not in p.parts:
            for name, kinds in scan(p.read_text(encoding="utf-8"), str(p)).items():
                found.setdefault(name, set()).update(kinds)
    return found


def materialize(reference: Path, dest: Path, states: Mapping[str, FeatureState]) -> Path:
    """Write the reference app into ``dest`` with the given feature states applied."""
    reference, dest = Path(reference), Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    for src in sorted(reference.rglob("*")):
        rel = src.relative_to(reference)
        if "node_modules" in rel.parts:
            continue
        target = dest / rel
        if src.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif is_text(src):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(render(src.read_text(encoding="utf-8"), states, str(src)),
                              encoding="utf-8")
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    return dest


def prepare_workspace(task_root: Path, reference: str | None, data: list[str], dest: Path,
                      states: Mapping[str, FeatureState] | None = None) -> Path:
    """A task's reference app with feature states applied, plus its mock data under data/.

    Without a reference (or with ``reference=None``) only the data is laid down: that is the
    empty workspace a real code agent starts from."""
    dest = Path(dest)
    if reference:
        materialize(Path(task_root) / reference, dest, states or {})
    else:
        dest.mkdir(parents=True, exist_ok=True)
    copy_data(task_root, data, dest)
    return dest


def copy_data(task_root: Path, data: list[str], dest: Path) -> None:
    """Copy the task's mock data files to the same relative paths in the workspace."""
    for rel in data:
        src = Path(task_root) / rel
        target = Path(dest) / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)


def seed_workspace(bt: BenchTask, dest: Path) -> None:
    """The workspace before round 1: the task's ``initial`` folder (Web-Bench's src-init), then
    its mock data files."""
    if bt.task.initial:
        shutil.copytree(Path(bt.root) / bt.task.initial, dest, dirs_exist_ok=True)
    copy_data(Path(bt.root), bt.task.data, dest)
