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
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from asuka.bench import load_tasks  # noqa: E402
from asuka.deploy import Deployer  # noqa: E402
from asuka.features import materialize  # noqa: E402
from asuka.loop import CellSpec, run_cell  # noqa: E402
from asuka.store import RunStore  # noqa: E402
from tests.llm_server import (  # noqa: E402
    Recorded,
    ScriptedLLMServer,
    agent_step,
    done_action,
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


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", default="loan-calculator")
    ap.add_argument("--rounds", type=int, default=1,
                    help="round budget (round 1 already has all three roles at work)")
    ap.add_argument("--fail-every", type=int, default=4,
                    help="browser-use fails about one criterion in N (so the user has work)")
    args = ap.parse_args()
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
