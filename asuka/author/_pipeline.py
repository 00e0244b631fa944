"""``asuka author new``: the paper's dataset construction (§3.2) stage by stage through
``asuka.llm``: raw query -> clarified PRD -> underspecified query -> mock data -> evaluation
tasks -> dependency DAG. Each stage is a Jinja2 prompt in ``stages/`` and a pydantic-checked
answer (``_models``); its prompt, reply, parsed output and cost are kept in
``tasks/ID/authoring/<stage>.json``. The task is written as a draft and validated; its problems
go back to the model for at most ``repairs`` repair turns (each kept as ``repair-<n>.json``).
``from_stage`` re-runs from a stage after a human edited the earlier stages' outputs (the
``output`` field of their records). With ``prove`` the stages of ``_prove`` follow: a reference
app, checks, and the proof that takes the task out of draft."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from pydantic import BaseModel, ValidationError

from asuka.author import _prove
from asuka.author._models import STAGES, ChecksOut, DagOut, EvalTaskOut, EvaluationOut, QueryOut
from asuka.benchmark.loading import QUERIES_FILE
from asuka.llm import LLMClient, LLMResponseError
from asuka.vocabulary import check_variant

PROMPTS = Path(__file__).parent / "stages"
ORDER = ("prd", "query", "data", "evaluation", "dag")
PROOF_STAGES = ("reference", "checks")  # optional (--prove); checks include the proof
AUTHORING_DIR = "authoring"
# who asks (LiveEvalBench's requesters) and how much they say (its granularities)
REQUESTER_ROLES = {
    "end-user": "a beginner end user with no technical background",
    "designer": "a designer who cares about layout, visual hierarchy and interaction",
    "pm": "a product manager who thinks in features, user flows and acceptance rules",
    "developer": "a developer who names the stack, the data and the edge cases"}
GRANULARITY_RULES = {
    "abstract": "one or two sentences naming the app and its purpose, almost no features.",
    "functional": "the main features and flows in a short paragraph, no exact rules or values.",
    "prd": "every feature, rule, message and value the requirements state, in their own order."}


class AuthoringError(RuntimeError):
    """A stage whose answer did not fit even after it was told why."""


class RepairOut(BaseModel):
    eval_tasks: list[EvalTaskOut]
    edges: list[tuple[str, str]] = []


@dataclass
class Authored:
    task_id: str
    folder: Path
    stages: list[str]
    repairs: int
    problems: list[str] = field(default_factory=list)  # what still does not validate
    proven: bool | None = None  # None: not asked to prove
    mutant_problems: list[str] = field(default_factory=list)  # the last proof's failures
    proof_turns: int = 0

    @property
    def valid(self) -> bool:
        return not self.problems


class Author:
    def __init__(self, model: Any, bench: Path, max_repairs: int = 2, *,
                 coder: Any = None, ui_options: dict | None = None,
                 log: Any = None) -> None:
        """``coder``: the code agent that builds the reference (default: the built-in LLM
        agent on the author's model); ``ui_options``: for the proof's scripted checks."""
        self.client = LLMClient(model, role="author")
        self.model, self.coder, self.ui_options = model, coder, ui_options
        self.bench, self.max_repairs, self.log = Path(bench), max_repairs, log
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)),
                                 undefined=jinja2.StrictUndefined, autoescape=False)
        self.templates = {name: env.get_template(f"{name}.j2")
                          for name in (*ORDER, *PROOF_STAGES, "repair", "rewrite")}

    async def ask(self, prompt: str, model: type[BaseModel], record: Path) -> BaseModel:
        """One structured answer; a reply that does not fit is sent back once with why."""
        messages = [{"role": "user", "content": prompt}]
        schema = {"title": model.__name__, **model.model_json_schema()}
        replies = []
        before = self.client.total_usage
        for attempt in (1, 2):
            result = await self.client.chat(messages, json_schema=schema, max_tokens=8000)
            replies.append(result.text)
            try:
                out = model.model_validate(result.parse_json())
            except (ValidationError, LLMResponseError) as exc:
                why = str(exc).splitlines()[0] if isinstance(exc, LLMResponseError) else str(exc)
                if attempt == 2:
                    self._save(record, prompt, replies, None, before)
                    raise AuthoringError(f"{record.stem}: the answer does not fit: "
                                         f"{why[:500]}") from None
                messages += [result.message(), {"role": "user", "content":
                             f"That answer does not fit the required JSON: {why[:2000]}\n"
                             "Answer again with JSON that does."}]
                continue
            self._save(record, prompt, replies, out, before)
            return out
        raise AssertionError("unreachable")

    def _save(self, record: Path, prompt: str, replies: list[str], out: BaseModel | None,
              before: Any) -> None:
        used = self.client.total_usage
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps({
            "prompt": prompt, "replies": replies,
            "output": out.model_dump(mode="json") if out is not None else None,
            "usage": {"calls": used.calls - before.calls,
                      "input_tokens": used.input_tokens - before.input_tokens,
                      "output_tokens": used.output_tokens - before.output_tokens,
                      "cost_usd": (used.cost_usd or 0) - (before.cost_usd or 0)
                      if used.cost_usd is not None else None}}, indent=1), encoding="utf-8")

    async def new(self, raw: str, task_id: str, category: str,
                  from_stage: str | None = None, prove: bool = False) -> Authored:
        folder = self.bench / "tasks" / task_id
        records = folder / AUTHORING_DIR
        outputs: dict[str, BaseModel] = {}
        stages = (*ORDER, *PROOF_STAGES)
        start = 0
        if from_stage is not None:
            if from_stage not in stages:
                raise ValueError(f"unknown stage {from_stage!r}; stages: {', '.join(stages)}")
            start = stages.index(from_stage)
            prove = prove or from_stage in PROOF_STAGES
            for stage in stages[:start]:  # as recorded, or as a person edited them since
                path = records / f"{stage}.json"
                if not path.is_file():
                    raise ValueError(f"{path}: stage {stage} has not run yet")
                outputs[stage] = STAGES[stage].model_validate(
                    json.loads(path.read_text(encoding="utf-8"))["output"])
        elif folder.exists():
            raise ValueError(f"{folder} exists: use another id, or --from-stage to re-run")
        for stage in ORDER[start:]:
            prompt = self.templates[stage].render(**self._context(raw, category, outputs))
            outputs[stage] = await self.ask(prompt, STAGES[stage], records / f"{stage}.json")
        write_task(self.bench, task_id, category, outputs)
        problems = validate(self.bench, task_id)
        repairs = 0
        while problems and repairs < self.max_repairs and start < len(ORDER):
            repairs += 1
            current = yaml.safe_dump({
                "eval_tasks": outputs["evaluation"].model_dump(mode="json")["eval_tasks"],
                "edges": [list(e) for e in outputs["dag"].edges]}, sort_keys=False)
            fixed = await self.ask(self.templates["repair"].render(
                current=current, problems=problems), RepairOut,
                records / f"repair-{repairs}.json")
            outputs["evaluation"] = EvaluationOut(eval_tasks=fixed.eval_tasks)
            outputs["dag"] = DagOut(edges=fixed.edges)
            write_task(self.bench, task_id, category, outputs)
            problems = validate(self.bench, task_id)
        done = Authored(task_id, folder, list(stages[start:] if prove else ORDER[start:]),
                        repairs, problems)
        if prove and not problems:
            await self._prove(done, category, outputs, start - len(ORDER))
        return done

    async def _prove(self, done: Authored, category: str, outputs: dict[str, Any],
                     start: int) -> None:
        """The reference and checks stages (``start``: index in PROOF_STAGES to begin at),
        then the proof; its failures go back to the checks stage for at most
        ``max_repairs`` turns. ``done`` is updated in place."""
        from asuka.benchmark.features import features_in
        from asuka.benchmark.loading import load_bench

        records = done.folder / AUTHORING_DIR
        if start <= 0:
            (draft,), _ = load_bench(self.bench, [done.task_id])
            prompt = self.templates["reference"].render(**self._context("", category, outputs))
            coder = self.coder or self._default_coder()
            ref, record = await _prove.build_reference(prompt, draft, coder, done.folder)
            records.mkdir(parents=True, exist_ok=True)
            (records / "reference.json").write_text(json.dumps(
                {"prompt": prompt, "output": ref.model_dump(mode="json"), **record},
                indent=1), encoding="utf-8")
            if not ref.features:
                done.problems = [f"{done.folder / _prove.REFERENCE_DIR}: the code agent marked "
                                 "no feature (@feature NAME ... @end NAME)"]
                return
            outputs["reference"] = ref
        # a person may have edited the reference since it was built: the markers on disk count
        marked = features_in(done.folder / _prove.REFERENCE_DIR)
        (with_ref,), _ = load_bench(self.bench, [done.task_id])
        with_ref.task.reference = _prove.REFERENCE_DIR
        aria = await _prove.aria_tree(with_ref)
        problems: list[str] = []
        previous = ""
        for turn in range(self.max_repairs + 1):
            ctx = {**self._context("", category, outputs), "aria": aria, "problems": problems,
                   "previous": previous,
                   "features": {k: sorted(v) for k, v in sorted(marked.items())}}
            name = "checks.json" if turn == 0 else f"checks-repair-{turn}.json"
            checks = await self.ask(self.templates["checks"].render(**ctx), ChecksOut,
                                    records / name)
            outputs["checks"] = checks
            previous = "The previous answer:\n" + json.dumps(checks.model_dump(mode="json"))
            done.proof_turns = turn + 1
            write_task(self.bench, done.task_id, category, outputs)
            problems = validate(self.bench, done.task_id)
            if problems:  # the answer does not make a valid task: no proof to run
                done.mutant_problems = []
                continue
            (bt,), _ = load_bench(self.bench, [done.task_id])
            ok, problems, _report = await _prove.prove(bt, self.ui_options, log=self.log)
            (records / f"proof-{turn + 1}.json").write_text(json.dumps(
                {"proven": ok, "problems": problems}, indent=1), encoding="utf-8")
            if ok:
                write_task(self.bench, done.task_id, category, outputs, status=None)
                done.proven, done.mutant_problems = True, []
                return
            done.mutant_problems = problems
        done.proven = False
        if not done.mutant_problems:
            done.problems = problems

    def _default_coder(self) -> Any:
        from asuka.codeagents.llm import LLMCodeAgent

        return LLMCodeAgent(self.model, max_steps=40)

    async def rewrite(self, bt: Any, variants: list[str]) -> Path:
        """The task's request rewritten per requester/granularity variant (LiveEvalBench),
        kept in ``tasks/ID/queries.yaml`` (merged with what is there; task.yaml untouched)."""
        folder = Path(bt.root)
        path = folder / QUERIES_FILE
        queries = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
        for key in variants:
            check_variant(key)
            requester, _, granularity = key.partition("/")
            prompt = self.templates["rewrite"].render(
                prd=bt.prd, requester_role=REQUESTER_ROLES[requester], granularity=granularity,
                granularity_rule=GRANULARITY_RULES[granularity])
            out = await self.ask(prompt, QueryOut, folder / AUTHORING_DIR /
                                 f"rewrite-{requester}-{granularity}.json")
            queries[key] = out.query
        path.write_text("# Query variants (asuka author rewrite): requester/granularity -> "
                        "request\n" + yaml.safe_dump(queries, sort_keys=True,
                                                       allow_unicode=True, width=100),
                        encoding="utf-8")
        return path

    @staticmethod
    def _context(raw: str, category: str, outputs: dict[str, BaseModel]) -> dict[str, Any]:
        ctx: dict[str, Any] = {"raw": raw, "category": category}
        if "prd" in outputs:
            ctx["prd"] = outputs["prd"].prd
        if "data" in outputs:
            ctx["data"] = [f.path for f in outputs["data"].files]
        if "evaluation" in outputs:
            ctx["eval_tasks"] = outputs["evaluation"].eval_tasks
        return ctx


def write_task(bench: Path, task_id: str, category: str, outputs: dict[str, Any],
               status: str | None = "draft") -> None:
    """The draft's files: task.yaml, data/, prds/ID.md, dags/ID.yaml; with a checks stage's
    output the criteria's check steps, the features and the reference folder too.
    ``status=None``: a proven task, ready."""
    folder = Path(bench) / "tasks" / task_id
    folder.mkdir(parents=True, exist_ok=True)
    files = outputs["data"].files
    for f in files:
        target = folder / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.content, encoding="utf-8")
    anomalies = [a for f in files for a in f.anomalies]
    checks = outputs.get("checks")
    eval_tasks = outputs["evaluation"].model_dump(mode="json")["eval_tasks"]
    task = {"id": task_id, "title": outputs["prd"].title, "category": category,
            "query": outputs["query"].query, "status": status,
            "shared_context": False,
            "reference": _prove.REFERENCE_DIR if checks is not None else None,
            "data": [f.path for f in files],
            "notes": "Authored by `asuka author new`; "
                     + ("proven by asuka validate --mutants." if status is None
                        else "not yet proven.")
                     + (f" Deliberate data anomalies: {'; '.join(anomalies)}." if anomalies
                        else "")}
    if checks is not None:
        task["features"] = {k: f.model_dump(exclude_none=True)
                            for k, f in checks.features.items()}
        for et in eval_tasks:
            for c in et["criteria"]:
                if c["id"] in checks.checks:
                    c["check"] = checks.checks[c["id"]]
    task["eval_tasks"] = eval_tasks
    if status is None:
        del task["status"]
    (folder / "task.yaml").write_text(yaml.safe_dump(task, sort_keys=False, allow_unicode=True,
                                                     width=100), encoding="utf-8")
    for sub, name, text in (("prds", f"{task_id}.md", outputs["prd"].prd.rstrip() + "\n"),
                            ("dags", f"{task_id}.yaml", yaml.safe_dump(
                                {"edges": [list(e) for e in outputs["dag"].edges]}))):
        (Path(bench) / sub).mkdir(parents=True, exist_ok=True)
        (Path(bench) / sub / name).write_text(text, encoding="utf-8")


def validate(bench: Path, task_id: str) -> list[str]:
    from asuka.benchmark.loading import load_bench

    _, problems = load_bench(Path(bench), [task_id])
    return [str(p) for p in problems]
