"""WatchPoint's project classes (its appendix C.5): the merged ``dependencies`` and
``devDependencies`` of the workspace's package.json, priority-ordered rules, first match wins.
Diagnostics help where DOM and CSS inspection is informative: Standards, State and UI."""

from __future__ import annotations

import json
from pathlib import Path

DATABASE = {"prisma", "@prisma/client", "sequelize", "mongoose", "lowdb"}
FULLSTACK = {"express", "fastify", "next", "nuxt", "koa", "hapi", "@hapi/hapi"}
PREPROCESSORS = {"sass", "less", "stylus"}
UTILITY_CSS = {"tailwindcss", "unocss"}
BUNDLERS = {"webpack", "parcel"}
STATE = {"redux", "@reduxjs/toolkit", "react-redux", "zustand", "jotai", "mobx", "mobx-react",
         "mobx-react-lite"}
UI = {"react", "vue", "svelte", "@angular/core", "angular", "styled-components"}
PROBED_CLASSES = ("standards", "state", "ui")


def dependencies(workspace: Path) -> set[str] | None:
    """The package names package.json declares (None: no readable package.json)."""
    try:
        data = json.loads((Path(workspace) / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    names: set[str] = set()
    for field in ("dependencies", "devDependencies"):
        if isinstance(data.get(field), dict):
            names |= set(data[field])
    return names


def classify(workspace: Path) -> tuple[str, str]:
    """(class, why) of the project in ``workspace``."""
    deps = dependencies(workspace)
    if deps is None:
        return "standards", "no package.json"

    def hit(names: set[str]) -> str:
        return ", ".join(sorted(deps & names))

    if hit(DATABASE):
        return "database", f"depends on {hit(DATABASE)}"
    if hit(FULLSTACK):
        return "fullstack", f"depends on {hit(FULLSTACK)}"
    if (hit(PREPROCESSORS) and not hit(UI)) or hit(UTILITY_CSS):
        return "css", f"depends on {hit(PREPROCESSORS | UTILITY_CSS)}"
    if {"react", "vue"} <= deps or hit(BUNDLERS):
        return "build", f"depends on {hit(BUNDLERS | {'react', 'vue'})}"
    if hit(STATE):
        return "state", f"depends on {hit(STATE)}"
    if hit(UI):
        return "ui", f"depends on {hit(UI)}"
    return "standards", "no dependency of another class"
