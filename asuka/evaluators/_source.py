"""The source inspection of an app that does not run (JoyFrontBench: when B = 0 only
source-verifiable criteria keep credit). Each source-verifiable criterion with a
``source_check`` passes when every one of its regular expressions matches the app's source (the
files the code engineer reads, never the task's data), citing where; one without a
``source_check`` is not inspected (no verdict, no credit). Reads files, runs nothing."""

from __future__ import annotations

import re
from pathlib import Path

from asuka.evaluators._checks import CodeInput
from asuka.schema import BenchTask, Verdict

BACKEND = "source"


def inspect_sources(bt: BenchTask, workspace: Path) -> dict[str, Verdict]:
    wanted = [c for et in bt.task.eval_tasks for c in et.criteria
              if c.source_verifiable and c.source_check]
    if not wanted:
        return {}
    files = CodeInput(Path(workspace), bt.task.query, frozenset(bt.task.data)).files()
    out: dict[str, Verdict] = {}
    for c in wanted:
        cited, missing = [], []
        for pattern in c.source_check or []:
            rx = re.compile(pattern)
            hit = next(((f, m) for f in files for m in [rx.search(f.text)] if m), None)
            if hit:
                cited.append(hit[0].cite(hit[1]))
            else:
                missing.append(pattern)
        if missing:
            reason = f"source inspection: nothing in the source matches {', '.join(missing)}"
        else:
            reason = "source inspection: " + "; ".join(cited)
        out[c.id] = Verdict(criterion_id=c.id, status="fail" if missing else "pass",
                            reason=reason, backend=BACKEND)
    return out
