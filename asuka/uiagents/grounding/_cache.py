"""The grounding cache: answers by key (scope, criterion, step, kind, model, fingerprint), in
memory and optionally in a JSON file merged and rewritten atomically on every new answer.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger("asuka.uiagents.grounding")


class GroundingCache:
    """Answers by key, in memory and optionally in a JSON file (see the package docstring)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self._entries: dict[str, dict[str, Any]] = {}
        if self.path is not None:
            self._entries.update(self._read())

    def _read(self) -> dict[str, dict[str, Any]]:
        assert self.path is not None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("grounding cache %s unreadable (%s): starting empty", self.path, exc)
            return {}
        entries = data.get("entries") if isinstance(data, dict) else None
        return {k: v for k, v in (entries or {}).items() if isinstance(v, dict)}

    def get(self, key: str) -> dict[str, Any] | None:
        return self._entries.get(key)

    def put(self, key: str, entry: dict[str, Any]) -> None:
        self._entries[key] = entry
        if self.path is None:
            return
        merged = {**self._read(), **self._entries}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"version": 1, "entries": merged}, indent=1, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, self.path)

    def __len__(self) -> int:
        return len(self._entries)


def cache_key(scope: str, criterion_id: str, step: int, kind: str, model: str,
              *parts: str) -> str:
    fp = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{scope}|{criterion_id}|{step}|{kind}|{model}|{fp}"
