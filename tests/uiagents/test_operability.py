"""The operability probe (JoyFrontBench's B) in real Chromium: an app that loads and renders is
operable; one that throws on load, renders nothing, or answers an error status is not; and a
round's evaluation records it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from asuka.log.contracts import operable
from asuka.schema import RoundEvaluation
from asuka.uiagents.scripted.agent import ScriptedUIAgent

pytestmark = pytest.mark.browser

PAGES = {
    "ok.html": "<h1>Orders</h1><button>New order</button>",
    "canvas.html": "<canvas width=200 height=100></canvas>",
    "throws.html": "<h1>Orders</h1><script>window.addEventListener('load', () => {"
                   " throw new TypeError('cannot read properties of undefined'); });</script>",
    # what a raw TSX entry served as static files looks like: the module never runs
    "raw-tsx.html": '<div id="root"></div><script type="module" src="/src/main.tsx"></script>',
    "late.html": "<div id=root></div><script>setTimeout(() => document.getElementById('root')"
                 ".textContent = 'Loaded', 400);</script>",
}


@pytest.fixture
def site(static_server: Any, tmp_path: Path) -> Any:
    root = tmp_path / "site"
    (root / "src").mkdir(parents=True)
    for name, body in PAGES.items():
        (root / name).write_text(f"<!doctype html><title>t</title>{body}")
    (root / "src" / "main.tsx").write_text(
        "import React from 'react';\nconst App = (): JSX.Element => <h1>Orders</h1>;\n")
    return static_server(root)


async def probe(site: Any, page: str) -> Any:
    session = await ScriptedUIAgent().open(f"{site.url}/{page}")
    try:
        return await session.operability()
    finally:
        await session.close()


async def test_an_app_that_renders_is_operable(site: Any) -> None:
    for page in ("ok.html", "canvas.html", "late.html"):
        op = await probe(site, page)
        assert op.ok is True, (page, op)
        assert op.status == 200 and op.errors == []
    assert (await probe(site, "ok.html")).text_chars > 0


async def test_an_app_that_throws_renders_nothing_or_is_missing_is_not(site: Any) -> None:
    op = await probe(site, "throws.html")
    assert op.ok is False and "uncaught TypeError: cannot read properties" in op.reason
    op = await probe(site, "raw-tsx.html")
    assert op.ok is False and "renders nothing" in op.reason
    op = await probe(site, "nope.html")
    assert op.ok is False and "HTTP 404" in op.reason


def test_the_operability_bit_of_a_round() -> None:
    from asuka.schema import Operability

    ev = RoundEvaluation(protocol="dag", threshold=0.5, results={})
    assert operable(ev)                                             # no probe: the deploy
    assert not operable(ev.model_copy(update={"deploy_ok": False}))
    assert not operable(ev.model_copy(update={"operability": Operability(ok=False)}))
    assert operable(ev.model_copy(update={"operability": Operability(ok=None)}))  # unknown
