"""Static lint of a reference app's broken variants (cheap; runs in ``asuka validate``).

A broken variant replaces *all* of its feature's ``@feature`` blocks, HTML included. When only the
JS is meant to be wrong, authors forget to repeat the feature's markup inside an ``@broken`` block,
and the broken code then looks up elements that no longer exist: the mutant fails more than it
should, and ``validate --mutants`` reports it only minutes later. This lint finds such lookups by
reading the text: ids a feature's ``@broken`` blocks look up (``getElementById('x')``,
``querySelector('#x')``, ``$('#x')``) that nothing in the materialised broken variant defines.
"""

from __future__ import annotations

import re
from pathlib import Path

from asuka.benchmark.features import MARKER, is_text, render

_LOOKUPS = (
    re.compile(r"""getElementById\(\s*['"]([A-Za-z][\w-]*)['"]\s*\)"""),
    re.compile(r"""(?:querySelector(?:All)?|\$\$?|closest)\(\s*['"]#([A-Za-z][\w-]*)['"]\s*\)"""),
)
_DEFINITIONS = (
    re.compile(r"""\bid\s*=\s*\\?['"]([A-Za-z][\w-]*)\\?['"]"""),     # id="x" (also in JS strings)
    re.compile(r"""\.id\s*=\s*['"]([A-Za-z][\w-]*)['"]"""),           # el.id = 'x'
    re.compile(r"""setAttribute\(\s*['"]id['"]\s*,\s*['"]([A-Za-z][\w-]*)['"]"""),
)


def _blocks(text: str, kind: str, name: str) -> list[str]:
    """The contents of a feature's blocks of one kind in one file (nesting respected)."""
    out: list[str] = []
    depth, start = 0, 0
    inside = False
    for m in MARKER.finditer(text):
        if not inside:
            if m["kind"] == kind and m["name"] == name:
                inside, depth, start = True, 0, m.end()
            continue
        if m["kind"] == "end":
            if depth == 0 and m["name"] == name:
                out.append(text[start:m.start()])
                inside = False
            else:
                depth -= 1
        else:
            depth += 1
    return out


def _ids(patterns: tuple[re.Pattern[str], ...], text: str) -> set[str]:
    return {m[1] for p in patterns for m in p.finditer(text)}


def dangling_lookups(reference: Path, feature: str) -> dict[str, set[str]]:
    """{file: ids looked up in that file's ``@broken feature`` blocks that nothing defines once the
    feature is broken}; empty when the broken variant is consistent."""
    files = {p: p.read_text(encoding="utf-8") for p in sorted(Path(reference).rglob("*"))
             if p.is_file() and is_text(p) and "node_modules" not in p.parts}
    defined: set[str] = set()
    for p, text in files.items():
        defined |= _ids(_DEFINITIONS, render(text, {feature: "broken"}, str(p)))
    found: dict[str, set[str]] = {}
    for p, text in files.items():
        wanted = set().union(*(_ids(_LOOKUPS, b) for b in _blocks(text, "broken", feature)))
        if wanted - defined:
            found[p.relative_to(reference).as_posix()] = wanted - defined
    return found
