"""What the page exports, read the way a user reads it: by downloading the file.

A check that reads an export through the reference app's preview field ("Export preview")
misses on an app that offers only a download ("Download the cleaned file"). The criterion is
about the exported data, so the ladder takes the page's one download control, saves what it
downloads and judges the file's text instead. Only a unique control is taken (a link with a
``download`` attribute, else the one link or button named "Download …" or "Export …"), only
when the check's own locator names an export, and only a text file of bounded size is read.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Error as PWError

from asuka.schema import Locator
from asuka.uiagents.browsing.locate import StepContext
from asuka.uiagents.scripted.relax import words
from asuka.uiagents.scripted.structure import name_text

__all__ = ["EXPORT_WORDS", "download_text", "names_an_export"]

EXPORT_WORDS = frozenset({"export", "download", "csv"})
DOWNLOAD_TIMEOUT_MS = 5000
MAX_BYTES = 2_000_000
# what a download control is called: "Download CSV", "Export", "⤓ Save cleaned CSV"
_CONTROL = re.compile(r"\b(download|export)|\bsave\b.*\bcsv\b", re.I)
# the button of a dialog that asks first (a file name, options)
_CONFIRM = re.compile(r"\b(download|export|save)\b", re.I)


def names_an_export(text: str | None) -> bool:
    return bool(text) and bool(set(words(text or "")) & EXPORT_WORDS)


async def _the_control(ctx: StepContext) -> tuple[object, str] | None:
    page = ctx.page
    for loc in (page.locator("a[download]:visible"),
                page.get_by_role("link", name=_CONTROL).filter(visible=True),
                page.get_by_role("button", name=_CONTROL).filter(visible=True)):
        try:
            n = await loc.count()
        except PWError:
            continue
        if n == 1:
            name = ((await loc.inner_text()) or "").strip()
            return loc, " ".join(name.split())[:60]
        if n > 1:
            return None  # several: which export the check means is not ours to guess
    return None


async def _one(loc) -> object | None:
    try:
        return loc if await loc.count() == 1 else None
    except PWError:
        return None


async def download_text(ctx: StepContext, spec: Locator | None) -> tuple[str, str] | None:
    """(the downloaded file's text, the control's name) when ``spec`` names an export and the
    page has one download control that downloads a text file (after its dialog's own download
    button, when it asks first); else None."""
    if spec is None or not names_an_export(name_text(spec)):
        return None
    found = await _the_control(ctx)
    if found is None:
        return None
    control, name = found
    page = ctx.page
    seen: list = []

    def keep(download: object) -> None:
        seen.append(download)

    page.on("download", keep)
    try:
        await control.click(timeout=DOWNLOAD_TIMEOUT_MS)  # type: ignore[attr-defined]
        for _ in range(15):
            if seen:
                break
            await page.wait_for_timeout(100)
        if not seen:
            dialog = page.locator("dialog[open], [role=dialog]").filter(visible=True)
            button = (await _one(dialog.get_by_role("button", name=_CONFIRM))
                      or await _one(dialog.get_by_role("link", name=_CONFIRM)))
            if button is None:
                return None
            await button.click(timeout=DOWNLOAD_TIMEOUT_MS)  # type: ignore[attr-defined]
            for _ in range(DOWNLOAD_TIMEOUT_MS // 100):
                if seen:
                    break
                await page.wait_for_timeout(100)
        if not seen:
            return None
        path = await seen[0].path()
    except PWError:
        return None
    finally:
        page.remove_listener("download", keep)
    if path is None:
        return None
    data = Path(path).read_bytes()[:MAX_BYTES]
    try:
        return data.decode("utf-8-sig"), name
    except UnicodeDecodeError:
        return None
