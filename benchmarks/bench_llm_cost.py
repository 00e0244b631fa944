"""What one task-round costs in LLM calls and tokens, measured against the scripted test server.

Runs a cell (one round by default) on a bundled task with every role on an LLM: the built-in
``llm`` code agent, the ``browser-use`` UI agent (vision on, real Chromium) and the ``llm`` user
(browser-use fails about one criterion in four, so the user has failures to write about), all
pointed at the scripted OpenAI-compatible server of the test suite (tests/llm_server.py) with usage estimation
on: the prompts are the real ones our agents and browser-use send (system prompts, tool schemas,
page state, screenshots), and the server bills them at 4 characters per token plus a fixed
amount per image. The script's agents are frugal: the code agent writes the reference app in one
call, browser-use answers each criterion in one step, so real models spend more calls; the
per-call figures are what scale.

    .venv/bin/python benchmarks/bench_llm_cost.py                  # loan-calculator
    .venv/bin/python benchmarks/bench_llm_cost.py --task bookstore

``--corpus [TASK ...]`` measures the UI agent alone instead: one round (protocol ``full``) on
each app of the corpus of independent implementations (tests/fixtures/foreign/), under
``browser-use``, ``hybrid`` and grounded ``hybrid`` (``grounding=llm``), and prints LLM calls and
tokens per task-round for each (target of issue 14: grounded hybrid at most one fifth of
browser-use's tokens). The scripted grounder answers a miss with the element of the snapshot
whose role matches and whose name shares the most words with the step and the criterion
("absent" when none does), and the wording judge passes; a real model grounds at least as well,
so the share left to browser-use is an upper bound.

    .venv/bin/python benchmarks/bench_llm_cost.py --corpus                # every corpus app
    .venv/bin/python benchmarks/bench_llm_cost.py --corpus loan-calculator
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asuka import uiagents  # noqa: E402
from asuka.benchmark.features import copy_data, materialize  # noqa: E402
from asuka.benchmark.loading import load_tasks  # noqa: E402
from asuka.deploy import Deployer  # noqa: E402
from asuka.log.cellspec import CellSpec
from asuka.log.store import RunStore  # noqa: E402
from asuka.loop.cell import run_cell  # noqa: E402
from asuka.protocol.evaluate import EvalSettings, evaluate_workspace  # noqa: E402
from tests.llm_server import (  # noqa: E402
    Recorded,
    ScriptedLLMServer,
    agent_step,
    done_action,
    json_reply,
    request_text,
    text,
    tool_calls,
)

MODEL = "gpt-4o-mini"  # an entry of the example price table (asuka/llm/prices.py)


def responder(files: dict[str, str], fail_every: int):
    state = {"agent_calls": 0}

    def respond(rec: Recorded):
        body = rec.body if isinstance(rec.body, dict) else {}
        if "tools" in body:  # the code agent: write everything, then finish; same each round
            state["agent_calls"] += 1
            if state["agent_calls"] % 2 == 1:
                return tool_calls(*[("write_file", {"path": p, "content": c})
                                    for p, c in files.items()])
            return tool_calls(("finish", {"summary": "implemented the app"}))
        prompt = request_text(rec)
        if "<browser_state>" in prompt:  # browser-use: one step, a verdict
            crit = re.search(r"Criterion to verify: (.*)", prompt)  # our task prompt
            key = int(hashlib.sha256((crit.group(1) if crit else "").encode()).hexdigest(), 16)
            ok = key % fail_every != 0
            return agent_step(done_action(ok, "checked on the page" if ok else
                                          "the page does not do this"))(rec)
        refs = re.findall(r"task \d+ / crit \d+", prompt)  # the user LLM
        return text("Here is what did not work for me:\n"
                    + "\n".join(f"- {r}: it does not behave as I asked" for r in refs))

    return respond


# ---------------------------------------------------------------- the UI agent on the corpus

UI_MODES = ("browser-use", "hybrid", "grounded-hybrid")
_WORD = re.compile(r"[a-z0-9]+")
_NODE = re.compile(r'^\s*- (\w+) "((?:[^"\\]|\\.)*)"', re.M)


def _words(s: str) -> set[str]:
    return {w for w in _WORD.findall(s.lower()) if len(w) > 2}


def ground_like_a_model(prompt: str) -> dict:
    """A grounding reply from the prompt alone (see the module docstring)."""
    crit = re.search(r"Criterion: (.*)", prompt)
    miss = re.search(r"failed: no element matches (.*)", prompt)
    snap = prompt.split("```yaml", 1)[-1]
    loc = miss.group(1) if miss else ""
    role = re.search(r"role='([^']+)'", loc)
    wanted = {"label": "textbox", "placeholder": "textbox"}.get(loc.split("=", 1)[0], None)
    want_role = role.group(1) if role else wanted
    key = _words(re.sub(r"\b(role|name|label|text|css|nth)=", " ", loc)) | _words(
        crit.group(1) if crit else "")
    best, score = None, 0
    for m in _NODE.finditer(snap):
        r, name = m.group(1), m.group(2)
        if want_role and r != want_role or not name:
            continue
        n = len(_words(name) & key)
        if n > score:
            best, score = (r, name), n
    if best is None:
        return {"locator": "absent", "reason": "nothing on the page serves this step"}
    return {"locator": {"role": best[0], "name": best[1]},
            "reason": "the page's own name for the element"}


def ui_responder(fail_every: int):
    def respond(rec: Recorded):
        body = rec.body if isinstance(rec.body, dict) else {}
        schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("name")
        prompt = request_text(rec)
        if schema == "grounding" or "It must match this JSON schema" in prompt and \
                '"grounding"' in prompt:
            return json_reply(ground_like_a_model(prompt))
        if schema == "wording_judgement" or '"wording_judgement"' in prompt:
            return json_reply({"passed": True, "reason": "same meaning in other words"})
        crit = re.search(r"Criterion to verify: (.*)", prompt)
        key = int(hashlib.sha256((crit.group(1) if crit else "").encode()).hexdigest(), 16)
        ok = key % fail_every != 0
        return agent_step(done_action(ok, "checked on the page" if ok else
                                      "the page does not do this"))(rec)

    return respond


def ui_options(mode: str) -> dict:
    model = f"openai:{MODEL}"
    opts: dict = {"model": model, "max_steps": 3}
    if mode == "grounded-hybrid":
        opts["grounding"] = "llm"
    return opts


async def corpus_main(ids: list[str], fail_every: int, modes: list[str]) -> None:
    from asuka.proving.corpus import CORPUS_DIR, corpus_tasks

    tasks = load_tasks(ROOT, ids or corpus_tasks())
    server = ScriptedLLMServer(estimate_usage=True).start()
    os.environ.update(OPENAI_API_KEY="sk-scripted-not-a-key", ANONYMIZED_TELEMETRY="false",
                      OPENAI_BASE_URL=server.openai_base_url)
    server.script(*[ui_responder(fail_every)] * 100_000)
    print(f"{'task':<22} {'ui':<16} {'calls':>6} {'input tok':>10} {'output tok':>10} "
          f"{'tok/crit':>8} {'passed':>7} {'vs b-u':>7}")
    try:
        for bt in tasks:
            n_crit = sum(len(e.criteria) for e in bt.task.eval_tasks)
            base = None
            for mode in modes:
                backend = "browser-use" if mode == "browser-use" else "hybrid"
                with tempfile.TemporaryDirectory(prefix="asuka-cost-") as tmp:
                    ws = Path(tmp) / "workspace"
                    shutil.copytree(CORPUS_DIR / bt.id / "app", ws)
                    copy_data(Path(bt.root), bt.task.data, ws)
                    out = await evaluate_workspace(bt, ws, uiagents.get(backend,
                                                                        **ui_options(mode)),
                                                   Deployer(), EvalSettings("full", 0.5, 2, 1))
                calls = sum(u.calls for u in out.usage)
                tin = sum(u.input_tokens for u in out.usage)
                tout = sum(u.output_tokens for u in out.usage)
                passed = sum(v.status == "pass" for r in out.evaluation.results.values()
                             for v in r.verdicts)
                if mode == "browser-use":
                    base = tin + tout
                share = f"{(tin + tout) / base:.2f}" if base else "-"
                print(f"{bt.id:<22} {mode:<16} {calls:>6} {tin:>10} {tout:>10} "
                      f"{(tin + tout) // max(n_crit, 1):>8} {passed:>3}/{n_crit:<3} {share:>7}",
                      flush=True)
    finally:
        server.stop()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", nargs="*", default=None, metavar="TASK",
                    help="measure the UI agents alone on the corpus apps (see above)")
    ap.add_argument("--modes", default=",".join(UI_MODES),
                    help=f"with --corpus: UI agents to measure, of {','.join(UI_MODES)}")
    ap.add_argument("--task", default="loan-calculator")
    ap.add_argument("--rounds", type=int, default=1,
                    help="round budget (round 1 already has all three roles at work)")
    ap.add_argument("--fail-every", type=int, default=4,
                    help="browser-use fails about one criterion in N (so the user has work)")
    args = ap.parse_args()
    if args.corpus is not None:
        modes = [m for m in args.modes.split(",") if m]
        unknown = set(modes) - set(UI_MODES)
        if unknown:
            ap.error(f"unknown --modes {sorted(unknown)}; known: {', '.join(UI_MODES)}")
        await corpus_main(args.corpus, args.fail_every, modes)
        return
    (bt,) = load_tasks(ROOT, [args.task])
    server = ScriptedLLMServer(estimate_usage=True).start()
    os.environ.update(OPENAI_API_KEY="sk-scripted-not-a-key", ANONYMIZED_TELEMETRY="false",
                      OPENAI_BASE_URL=server.openai_base_url)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            ref = materialize(Path(bt.root) / "reference", Path(tmp) / "ref",
                              {name: "ok" for name in bt.task.features})
            files = {str(p.relative_to(ref)): p.read_text() for p in sorted(ref.rglob("*"))
                     if p.is_file()}
            server.script(*[responder(files, args.fail_every)] * 10_000)
            spec = CellSpec(task=bt.task.id, agent="llm",
                            agent_options={"model": f"openai:{MODEL}"},
                            ui="browser-use", ui_options={"model": f"openai:{MODEL}",
                                                          "max_steps": 3},
                            user="llm", user_options={"model": f"openai:{MODEL}"},
                            rounds=args.rounds, concurrency=2)
            store = RunStore(Path(tmp) / "run")
            await run_cell(spec, bt, store, Deployer())
            rounds = store.load_rounds(spec.cell_id)
    finally:
        server.stop()

    print(f"task {bt.task.id}: {len(bt.task.eval_tasks)} evaluation tasks, "
          f"{sum(len(e.criteria) for e in bt.task.eval_tasks)} criteria; model {MODEL}")
    print(f"{'round':>5} {'role':<11} {'calls':>6} {'input tok':>10} {'output tok':>10} "
          f"{'in/call':>8} {'US$':>8}")
    for rec in rounds:
        total_cost = 0.0
        for u in sorted(rec.agent.usage, key=lambda u: u.role):
            per = u.input_tokens // max(u.calls, 1)
            cost = u.cost_usd or 0.0
            total_cost += cost
            print(f"{rec.round:>5} {u.role:<11} {u.calls:>6} {u.input_tokens:>10} "
                  f"{u.output_tokens:>10} {per:>8} {cost:>8.4f}")
        executed = sum(len(r.verdicts) for r in rec.evaluation.results.values()
                       if r.status in ("passed", "failed"))
        print(f"{rec.round:>5} {'total':<11} criteria executed {executed}, "
              f"US$ {total_cost:.4f} at the example prices")


if __name__ == "__main__":
    asyncio.run(main())
