"""The template user: executed failures -> feedback text, through Jinja2 templates.

Templates live in feedback_templates/ (``low``, ``medium``, ``high`` verbosity, plus
``deploy_failed`` and ``all_passed``); a user can point ``template_dir`` at their own."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from asuka.benchmark.loading import templates_dir
from asuka.dag import feedback_view
from asuka.schema import RoundEvaluation, Task
from asuka.users import registry
from asuka.users.base import FeedbackResult, failures_for_feedback
from asuka.vocabulary import VERBOSITIES

DEFAULT_TEMPLATES = templates_dir()
VERBOSITY = VERBOSITIES


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?”\"'" else text + "."


class TemplateUser:
    name = "template"

    def __init__(self, verbosity: str = "low", template_dir: str | Path | None = None) -> None:
        if verbosity not in VERBOSITY:
            raise ValueError(f"unknown verbosity {verbosity!r}; known: {', '.join(VERBOSITY)}")
        self.verbosity = verbosity
        self.env = Environment(loader=FileSystemLoader(str(template_dir or DEFAULT_TEMPLATES)),
                               undefined=StrictUndefined, keep_trailing_newline=True,
                               trim_blocks=False, autoescape=False)

    def render(self, task: Task, evaluation: RoundEvaluation, round: int = 1) -> str:
        """The feedback text; ``round`` > 1 says the user tested the app again."""
        if not evaluation.deploy_ok:
            return self.env.get_template("deploy_failed.md.j2").render(
                error=evaluation.deploy_error or "unknown error", log_tail=None)
        failures = failures_for_feedback(task, evaluation)
        if not failures:
            return self.env.get_template("all_passed.md.j2").render(again=round > 1)
        numbers = {et.id: i for i, et in enumerate(task.eval_tasks)}
        view = feedback_view(evaluation)
        rows, groups = [], {}
        for f in failures:
            row = {"task_no": numbers[f.eval_task.id], "index": f.index,
                   "criterion_text": f.criterion_text, "observed": f.seen,
                   "observed_sentence": _sentence(f.seen)}
            rows.append(row)
            ev = view[f.eval_task.id].evidence
            g = groups.setdefault(f.eval_task.id, {
                "task_no": row["task_no"], "summary": f.eval_task.summary,
                "type": f.eval_task.type, "failures": [],
                "console_errors": (ev.console_errors[:5] if ev else []),
                "failed_requests": (ev.failed_requests[:5] if ev else [])})
            g["failures"].append(row)
        return self.env.get_template(f"{self.verbosity}.md.j2").render(
            failures=rows, groups=list(groups.values()), again=round > 1).strip() + "\n"

    async def feedback(self, task: Task, evaluation: RoundEvaluation, round: int
                       ) -> FeedbackResult:
        return FeedbackResult(text=self.render(task, evaluation, round))


@registry.register("template")
def _factory(verbosity: str = "low", template_dir: str | None = None, **_: object
             ) -> TemplateUser:
    return TemplateUser(verbosity=verbosity, template_dir=template_dir)
