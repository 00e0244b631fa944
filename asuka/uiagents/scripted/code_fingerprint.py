"""The scripted judge's code, as one fingerprint.

A mutant proof (``tasks/<id>/proof.json``) shows that a task's checks pass its reference app and
fail its mutants *as the judge decided them at the time*. When a rung of the resolution ladder
is added or a reading of the page changes, an older proof no longer shows that a relaxed or
adapted step cannot let a mutant through. The proof therefore records this fingerprint, and
``asuka validate`` names the proofs made with another judge.

What counts is the code that decides a scripted verdict: every module of this package and of
``asuka.uiagents.browsing`` (locating, settling, reading the page), by its syntax tree without
docstrings, so an edit of comments or docstrings leaves the fingerprint as it was. The scripts
the judge runs in the page are string constants and count like any other code.
"""

from __future__ import annotations

import ast
import hashlib
from functools import lru_cache
from pathlib import Path

_PACKAGES = ("scripted", "browsing")  # below asuka/uiagents/
_SELF = Path(__file__).name  # how the fingerprint is taken decides no verdict


def _without_docstrings(tree: ast.AST) -> ast.AST:
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    return tree


def source_fingerprint(files: list[Path], root: Path) -> str:
    """sha256 over each file's path (relative to ``root``) and syntax tree without docstrings."""
    h = hashlib.sha256()
    for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
        tree = _without_docstrings(ast.parse(path.read_text(encoding="utf-8")))
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(ast.dump(tree, annotate_fields=False, include_attributes=False).encode() + b"\0")
    return h.hexdigest()


@lru_cache(maxsize=1)
def judge_fingerprint() -> str:
    """The fingerprint of the scripted judge this process runs (first 16 hex digits)."""
    root = Path(__file__).resolve().parents[1]  # asuka/uiagents
    files = [p for pkg in _PACKAGES for p in (root / pkg).glob("*.py") if p.name != _SELF]
    return source_fingerprint(files, root)[:16]
