"""The literal word runs of a regex value that the PRD must back (``Backing.value``).

A regex is backed when each of its literal word runs is (one alternative of each alternation
suffices); this walks the tree the regex parser behind ``re`` builds.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from asuka.benchmark.lint_markup._text import wordy

try:  # the regex parser behind `re` (public as sre_parse up to 3.10)
    import re._parser as _sre
except ImportError:  # pragma: no cover
    import sre_parse as _sre

# an item of the parser's tree: (opcode, argument), the argument's shape depending on the opcode
Item = tuple[Any, Any]


def parse(body: str) -> list[Item]:
    """The parsed items of a regex (case ignored), for ``unbacked_runs``."""
    return list(_sre.parse(body, re.I))


def unbacked_runs(items: list[Item], backed: Callable[[str], bool], prefix: str = ""
                  ) -> list[str]:
    """Walk a parsed regex: literal runs (whitespace classes count as a space) must be backed
    when wordy; of an alternation one alternative must be (``prefix``: the literal text before
    an alternation, which the parser factors out of ``Sunday|Saturday``)."""
    missing: list[str] = []
    buf: list[str] = [prefix]

    def flush() -> None:
        run = " ".join("".join(buf).split())
        buf.clear()
        if run and wordy(run) and not backed(run):
            missing.append(run)

    def branch(alts: list[Any]) -> None:
        head = "".join(buf)
        buf.clear()
        results = [unbacked_runs(list(a), backed, head) for a in alts]
        if all(results):
            missing.append(" | ".join(r for res in results for r in res))

    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            buf.append(chr(av))
        elif name == "IN" and _is_space(av):
            buf.append(" ")
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, _hi, sub = av
            sub = list(sub)
            if lo >= 1 and len(sub) == 1 and str(sub[0][0]) == "IN" and _is_space(sub[0][1]):
                buf.append(" ")
            elif lo >= 1 and len(sub) == 1 and str(sub[0][0]) == "LITERAL":
                buf.append(chr(sub[0][1]))
                flush()
            else:
                flush()
        elif name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue
        elif name == "SUBPATTERN":
            sub = list(av[-1])
            if len(sub) == 1 and str(sub[0][0]) == "BRANCH":
                branch(sub[0][1][1])
            else:
                flush()
                missing.extend(unbacked_runs(sub, backed))
        elif name == "BRANCH":
            branch(av[1])
        else:
            flush()
    flush()
    return missing


def _is_space(av: Any) -> bool:
    return all(str(o) == "CATEGORY" and "SPACE" in str(a) and "NOT" not in str(a) or
               (str(o) == "LITERAL" and chr(a).isspace()) for o, a in av)
