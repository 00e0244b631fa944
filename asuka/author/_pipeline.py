"""``asuka author new``: the paper's dataset construction (§3.2) stage by stage through
``asuka.llm``: raw query -> clarified PRD -> underspecified query -> mock data -> evaluation
tasks -> dependency DAG. Each stage is a Jinja2 prompt in ``stages/`` and a pydantic-checked
answer (``_models``); its prompt, reply, parsed output and cost are kept in
``tasks/ID/authoring/<stage>.json``. The task is written as a draft and validated; its problems
go back to the model for at most ``repairs`` repair turns (each kept as ``repair-<n>.json``).
``from_stage`` re-runs from a stage after a human edited the earlier stages' outputs (the
``output`` field of their records)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import yaml
from pydantic import BaseModel, ValidationError

from asuka.author._models import STAGES, DagOut, EvalTaskOut, EvaluationOut, QueryOut
from asuka.benchmark.loading import QUERIES_FILE
from asuka.vocabulary import check_variant
from asuka.llm import LLMClient, LLMResponseError

PROMPTS = Path(__file__).parent / "stages"
ORDER = ("prd", "query", "data", "evaluation", "dag")
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

    @property
    def valid(self) -> bool:
        return not self.problems


class Author:
    def __init__(self, model: Any, bench: Path, max_repairs: int = 2) -> None:
        self.client = LLMClient(model, role="author")
        self.bench, self.max_repairs = Path(bench), max_repairs
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(PROMPTS)),
                                 undefined=jinja2.StrictUndefined, autoescape=False)
        self.templates = {name: env.get_template(f"{name}.j2")
                          for name in (*ORDER, "repair", "rewrite")}

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
                  from_stage: str | None = None) -> Authored:
        folder = self.bench / "tasks" / task_id
        records = folder / AUTHORING_DIR
        outputs: dict[str, BaseModel] = {}
        start = 0
        if from_stage is not None:
            if from_stage not in ORDER:
                raise ValueError(f"unknown stage {from_stage!r}; stages: {', '.join(ORDER)}")
            start = ORDER.index(from_stage)
            for stage in ORDER[:start]:  # as recorded, or as a person edited them since
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
        while problems and repairs < self.max_repairs:
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
        return Authored(task_id, folder, list(ORDER[start:]), repairs, problems)

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


def write_task(bench: Path, task_id: str, category: str, outputs: dict[str, Any]) -> None:
    """The draft's files: task.yaml, data/, prds/ID.md, dags/ID.yaml."""
    folder = Path(bench) / "tasks" / task_id
    folder.mkdir(parents=True, exist_ok=True)
    files = outputs["data"].files
    for f in files:
        target = folder / f.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.content, encoding="utf-8")
    anomalies = [a for f in files for a in f.anomalies]
    task = {"id": task_id, "title": outputs["prd"].title, "category": category,
            "query": outputs["query"].query, "status": "draft", "reference": None,
            "data": [f.path for f in files],
            "notes": "Authored by `asuka author new`; not yet proven."
                     + (f" Deliberate data anomalies: {'; '.join(anomalies)}." if anomalies
                        else ""),
            "eval_tasks": outputs["evaluation"].model_dump(mode="json")["eval_tasks"]}
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
