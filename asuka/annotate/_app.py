"""The annotation console: a small Starlette app on 127.0.0.1 (Jinja2 templates, no front-end
build). An annotator picks their name, then labels one criterion at a time beside the round's
real app (its workspace snapshot deployed again with the loop's deployer, in a copy, so the
store's snapshot stays as it was): Pass, Fail or Can't tell, with a note; keys p / f / c label,
n skips to the next. Blind by default: the automated verdict shows only after the label is in
(review mode). Every request needs the session's token (in the URL the command prints, then a
cookie) and a loopback Host; everything shown is escaped by the templates."""

from __future__ import annotations

import secrets
import shutil
import tempfile
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from asuka.annotate._store import LABELS, LabelStore
from asuka.log.store import RunStore

TEMPLATES = Path(__file__).parent / "templates"
LOOPBACK = ("127.0.0.1", "localhost")
COOKIE = "asuka_token"


class Deployments:
    """One deployment per sampled artifact, made when first shown, stopped at shutdown."""

    def __init__(self, store: RunStore, deploy: bool = True) -> None:
        self.store, self.deploy = store, deploy
        self._live: dict[tuple[str, int], tuple[Any, Path]] = {}
        self._lock = threading.Lock()

    def url(self, cell: str, r: int) -> str | None:
        if not self.deploy:
            return None
        with self._lock:
            if (cell, r) not in self._live:
                from asuka.deploy import Deployer

                copy = Path(tempfile.mkdtemp(prefix="asuka-annotate-"))
                shutil.copytree(self.store.round_dir(cell, r) / "workspace", copy / "ws",
                                symlinks=True)
                self._live[(cell, r)] = (Deployer().deploy(copy / "ws"), copy)
            deployment = self._live[(cell, r)][0]
        return deployment.url if deployment.result.ok else None

    def stop(self) -> None:
        with self._lock:
            for deployment, copy in self._live.values():
                deployment.stop()
                shutil.rmtree(copy, ignore_errors=True)
            self._live.clear()


def make_app(run_dir: Path, tasks: dict[str, Any], token: str | None = None,
             deploy: bool = True) -> tuple[Starlette, str]:
    """The console over ``run_dir``'s sample (``tasks``: id -> BenchTask); its token."""
    token = token or secrets.token_urlsafe(16)
    store, labels = RunStore(run_dir), LabelStore(run_dir)
    items = {i.item: i for i in labels.items()}
    apps = Deployments(store, deploy)
    templates = Jinja2Templates(directory=str(TEMPLATES))

    def guard(request: Request) -> Response | None:
        host = (request.headers.get("host") or "").rsplit(":", 1)[0].strip("[]")
        if host not in LOOPBACK:
            return PlainTextResponse("this console answers on 127.0.0.1 only", 400)
        given = request.query_params.get("token") or request.cookies.get(COOKIE)
        if not given or not secrets.compare_digest(given, token):
            return PlainTextResponse("a valid session token is required", 403)
        return None

    def page(request: Request, name: str, **ctx: Any) -> Response:
        response = templates.TemplateResponse(request, name, {"token": token, **ctx})
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response

    def to(annotator: str, **params: Any) -> RedirectResponse:
        return RedirectResponse("/label?" + urlencode({"annotator": annotator, **params}), 303)

    async def index(request: Request) -> Response:
        if (bad := guard(request)) is not None:
            return bad
        return page(request, "index.html", progress=labels.progress(), total=len(items))

    async def label(request: Request) -> Response:
        if (bad := guard(request)) is not None:
            return bad
        source = await request.form() if request.method == "POST" else request.query_params
        annotator = " ".join(str(source.get("annotator", "")).split())[:60]
        if not annotator:
            return RedirectResponse("/", 303)
        if request.method == "POST":
            n, value = int(source["item"]), str(source.get("label", ""))
            if n not in items or value not in LABELS:
                return PlainTextResponse("unknown item or label", 400)
            labels.put(annotator, n, value, str(source.get("note", ""))[:2000])
            if source.get("review"):
                return to(annotator, item=n, review=1)
            nxt = labels.next_item(annotator)
            return to(annotator, **({"item": nxt} if nxt is not None else {}))
        n = int(source["item"]) if source.get("item") else labels.next_item(annotator)
        if n is None or n not in items:
            return page(request, "done.html", annotator=annotator,
                        progress=labels.progress(), total=len(items))
        it = items[n]
        spec = store.cell_spec(it.cell_id) or {}
        bt = tasks.get(spec.get("task"))
        et = bt.task.eval_task(it.eval_task) if bt else None
        crit = next((c for c in et.criteria if c.id == it.criterion), None) if et else None
        mine = next((x for x in labels.labels(annotator) if x["item"] == n), None)
        verdict = None
        if source.get("review") and mine is not None:  # blind until labelled
            rec = store.load_round(it.cell_id, it.round)
            verdict = next((v for r in rec.evaluation.results.values() for v in r.verdicts
                            if v.criterion_id == it.criterion), None)
        ordered = sorted(items)
        later = [i for i in ordered if i > n]
        return page(request, "item.html", annotator=annotator, item=it, n=n,
                    position=ordered.index(n) + 1, total=len(items),
                    next_item=later[0] if later else None,
                    query=bt.task.query if bt else "", eval_task=et, criterion=crit,
                    app_url=await run_in_threadpool(apps.url, it.cell_id, it.round),
                    mine=mine, verdict=verdict, review=bool(source.get("review")))

    @asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:  # the deployed apps go with the console
            await run_in_threadpool(apps.stop)

    app = Starlette(routes=[Route("/", index), Route("/label", label, methods=["GET", "POST"])],
                    lifespan=lifespan)
    return app, token
