"""MkDocs hooks (mkdocs.yml): the site's home page is the README (so the two never drift) and the
CLI reference is generated from the Typer app, every command with its arguments and options."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer.main
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent


def _home() -> str:
    text = (ROOT / "README.md").read_text()
    # links into the manual are relative to docs/ on the site
    return re.sub(r"\]\(docs/", "](", text)


# Typer carries its own copy of click: commands and parameters are read by what they have
def _params(cmd: Any) -> list[str]:
    rows = []
    for p in cmd.params:
        if getattr(p, "hidden", False) or p.param_type_name not in ("argument", "option"):
            continue
        help_text = " ".join((p.help or "").split()).replace("|", "\\|")
        if p.param_type_name == "argument":
            need = "required" if p.required else "optional"
            rows.append(f"| `{(p.name or '').upper()}` | argument, {need} | {help_text} |")
            continue
        names = ", ".join(f"`{o}`" for o in [*p.opts, *p.secondary_opts])
        default = p.default
        shown = "" if default in (None, False, (), []) or callable(default) \
            else f" (default: `{default}`)"
        rows.append(f"| {names} | option | {help_text}{shown} |")
    return rows


def _command(name: str, cmd: Any, depth: int) -> list[str]:
    out = [f"{'#' * depth} `{name}`", ""]
    if cmd.help:
        out += [cmd.help.strip().replace("\b\n", ""), ""]
    rows = _params(cmd)
    if rows:
        out += ["| name | kind | meaning |", "|---|---|---|", *rows, ""]
    if getattr(cmd, "commands", None):
        for sub_name, sub in sorted(cmd.commands.items()):
            out += _command(f"{name} {sub_name}", sub, depth + 1)
    return out


def cli_reference() -> str:
    from asuka.cli import app

    root = typer.main.get_command(app)
    lines = ["# CLI reference", "",
             "Generated from the Typer app (`asuka/cli/`) when the site is built; "
             "`asuka COMMAND --help` prints the same.", ""]
    for name, cmd in root.commands.items():
        lines += _command(f"asuka {name}", cmd, 2)
    return "\n".join(lines) + "\n"


def on_files(files: Files, config) -> Files:  # noqa: ANN001 - MkDocs' hook signature
    files.append(File.generated(config, "index.md", content=_home()))
    files.append(File.generated(config, "cli.md", content=cli_reference()))
    return files
