"""The "llm" user: a User LLM rewrites the executed failures into natural-language feedback.

The prompt is feedback_templates/user_llm.md.j2 (Jinja2). Each failure carries a reference in the
paper's style, "task X / crit Y" (X: the evaluation task's position in the task, Y: the
criterion's position in its evaluation task — the numbering of the template user).

A guard keeps the reply to what was executed and failed, in both directions:

- missing: every failure's reference must appear in the reply;
- invented: every reference the reply makes ("task 7 / crit 2", "Task 7/crit 2",
  "task 7, criterion 2", "criteria 1 and 2 of task 7", a bullet or heading starting "Task 7")
  must be one of the failures' (a reference that the failures' own texts or the query contain
  counts as given, not invented).

If either check fails it asks once more with one corrective message naming what was left out and
what was invented. References still invented after that retry are removed by dropping the lines
(bullets, or sentences of prose) that carry them; references still missing are then appended
verbatim. What the guard did (``missing_first``, ``missing_after_retry``, ``appended``,
``invented_first``, ``invented_after_retry``, ``dropped_lines``) is returned in
``LLMFeedbackResult.guard`` (and kept in ``LLMUser.guard_log``); the loop stores it in the
round's user.json.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from pydantic import Field

from asuka.benchmark.loading import templates_dir
from asuka.llm import LLMClient, LLMConfigError, LLMError, ModelSpec
from asuka.schema import RoundEvaluation, Task
from asuka.users import registry
from asuka.users.base import Failure, FeedbackResult, failures_for_feedback

TEMPLATE_DIR = templates_dir()
TEMPLATE_NAME = "user_llm.md.j2"
NO_PROBLEMS = "I tried everything I wanted to check and found no problems."


class LLMFeedbackResult(FeedbackResult):
    guard: dict[str, Any] = Field(default_factory=dict)


def task_refs(task: Task) -> dict[str, str]:
    """Evaluation task id -> the X of "task X": its position in ``task.eval_tasks``, as the
    template user numbers them (so both users name a failure alike)."""
    return {et.id: str(i) for i, et in enumerate(task.eval_tasks)}


def failure_ref(refs: dict[str, str], f: Failure) -> str:
    return f"task {refs.get(f.eval_task.id, f.eval_task.id)} / crit {f.index}"


def ref_present(text: str, ref: str) -> bool:
    x, y = re.fullmatch(r"task (.+) / crit (\d+)", ref).groups()  # type: ignore[union-attr]
    pat = rf"(?<![\w.-])task\s*{re.escape(x)}\s*/\s*crit(?:erion)?\s*{y}(?!\d)"
    return re.search(pat, text, flags=re.I) is not None


# ---------------------------------------------------------------- references in a reply
# Liberal on purpose: whatever a reader (or a code agent) would take for a reference to an
# evaluation task or criterion counts, however it is spelled.

_NUM_END = r"(?!\d|\.\d)"
_TASK = r"(?<![\w.-])task\s*#?\s*(\d+)" + _NUM_END + r"(?![A-Za-z_])"
_CRIT_WORD = r"(crit(?:erion|eria|s)?\.?)(?![A-Za-z])"
_SEP = r"(?:\s*[/,;:|()\[\]\u2013\u2014-])*\s*"
# "task 7 / crit 2", "Task 7/crit 2", "task 7, criterion 2", "task 7 (crit 2)", "task 7 crit 2"
_FORWARD = re.compile(_TASK + _SEP + _CRIT_WORD + r"\s*#?\s*(\d+)" + _NUM_END, re.I)
# "crit 2 of task 7", "criteria 1 and 2 in task 7"
_CRIT_HEAD = re.compile(r"(?<![\w.-])" + _CRIT_WORD + r"\s*#?\s*(\d+)" + _NUM_END, re.I)
_OF_TASK = re.compile(r"\s+(?:of|in|for|on|from|under)\s+(?:the\s+)?" + _TASK, re.I)
# further criteria of a list: ", crit 3", " and 4" (a bare number only after a plural word)
_MORE = re.compile(r"\s*(?:,|&|\band\b|\bor\b|/)\s*(?:" + _CRIT_WORD + r"\s*#?\s*)?(\d+)"
                   + _NUM_END, re.I)
# a task named on its own at the start of a bullet, a numbered item or a heading: "- Task 7 — ..."
_TASK_LINE = re.compile(r"^[ \t]*(?:(?:[-*\u2022+>]|\d+[.)])[ \t]+)?(?:#+[ \t]*)?[*_`]*[ \t]*"
                        + _TASK, re.I | re.M)
_ANY_TASK = re.compile(_TASK, re.I)


@dataclass(frozen=True)
class Mention:
    """One reference found in a text: ``task`` X and, unless it names a whole task, ``crit`` Y;
    ``start``/``end``: where it is."""

    task: str
    crit: int | None
    start: int
    end: int

    @property
    def ref(self) -> str:
        return f"task {self.task}" + ("" if self.crit is None else f" / crit {self.crit}")


def _crit_list(text: str, m: re.Match, word: str) -> tuple[list[int], int]:
    """The criteria a reference lists from ``m`` on ("crit 1 and crit 2", "criteria 1, 2")."""
    plural = word.lower().rstrip(".") in ("crits", "criteria")
    ys, end = [int(m.group(m.re.groups))], m.end()
    while (more := _MORE.match(text, end)) is not None:
        if not (plural or more.group(1)):
            break
        ys.append(int(more.group(2)))
        end = more.end()
    return ys, end


def find_refs(text: str) -> list[Mention]:
    """Every reference to an evaluation task or criterion in ``text``, in order."""
    out: list[Mention] = []
    heads: set[int] = set()  # where a task number that starts a criterion reference is
    taken: list[tuple[int, int]] = []
    for m in _FORWARD.finditer(text):
        ys, end = _crit_list(text, m, m.group(2))
        task = str(int(m.group(1)))
        out += [Mention(task=task, crit=y, start=m.start(), end=end) for y in ys]
        heads.add(m.start(1))
        taken.append((m.start(), end))
    for m in _CRIT_HEAD.finditer(text):
        if any(a <= m.start() < b for a, b in taken):
            continue
        ys, end = _crit_list(text, m, m.group(1))
        of = _OF_TASK.match(text, end)
        if of is None:
            continue  # a bare "crit 2": it names no task, so it can be checked against none
        task = str(int(of.group(1)))
        out += [Mention(task=task, crit=y, start=m.start(), end=of.end()) for y in ys]
        heads.add(of.start(1))
        taken.append((m.start(), of.end()))
    for m in _TASK_LINE.finditer(text):
        if m.start(1) not in heads and not any(a <= m.start(1) < b for a, b in taken):
            word = text.lower().rfind("task", m.start(), m.start(1))
            out.append(Mention(task=str(int(m.group(1))), crit=None, start=word, end=m.end()))
    return sorted(out, key=lambda r: (r.start, r.crit if r.crit is not None else -1))


def given_refs(texts: list[str]) -> tuple[set[tuple[str, int]], set[str]]:
    """References the prompt's own texts contain (a criterion "Task 3 is shown after adding",
    a query about "task 2 / crit 1"): repeating them is not inventing them. Returns the
    (task, crit) pairs and the task numbers mentioned, even mid-sentence."""
    pairs: set[tuple[str, int]] = set()
    tasks: set[str] = set()
    for t in texts:
        for r in find_refs(t):
            tasks.add(r.task)
            if r.crit is not None:
                pairs.add((r.task, r.crit))
        tasks |= {str(int(x)) for x in _ANY_TASK.findall(t)}
    return pairs, tasks


def invented_refs(text: str, wanted: list[str], given: tuple[set, set] = (set(), set())
                  ) -> list[Mention]:
    """The references in ``text`` that are neither a wanted one nor given by the prompt."""
    pairs, tasks = set(given[0]), set(given[1])
    for ref in wanted:
        x, y = re.fullmatch(r"task (.+) / crit (\d+)", ref).groups()  # type: ignore[union-attr]
        x = str(int(x)) if x.isdigit() else x
        pairs.add((x, int(y)))
        tasks.add(x)
    return [r for r in find_refs(text)
            if (r.crit is None and r.task not in tasks)
            or (r.crit is not None and (r.task, r.crit) not in pairs)]


def _unique(refs: list[Mention]) -> list[str]:
    return list(dict.fromkeys(r.ref for r in refs))


_BULLET = re.compile(r"^([ \t]*)(?:[-*\u2022+]|\d+[.)])[ \t]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])[ \t]+(?=\S)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def drop_refs(text: str, bad: list[Mention]) -> tuple[str, list[str]]:
    """Remove what carries the references in ``bad``: a bullet (with its continuation lines and
    sub-bullets; only the offending sentences when the bullet's first sentence is clean), a
    heading naming a task (with the bullets under it that name nothing themselves), or the
    offending sentences of a prose line. Returns the new text and what was dropped."""
    lines = text.split("\n")
    starts, pos = [], 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln) + 1
    all_refs = find_refs(text)

    def line_of(offset: int) -> int:
        return max(i for i, s in enumerate(starts) if s <= offset)

    bad_by_line: dict[int, list[Mention]] = {}
    for r in bad:
        bad_by_line.setdefault(line_of(r.start), []).append(r)
    ref_lines = {line_of(r.start) for r in all_refs}
    drop: set[int] = set()
    edited: dict[int, str] = {}
    dropped: list[str] = []
    for i in sorted(bad_by_line):
        if i in drop:
            continue
        line = lines[i]
        spans = [(r.start - starts[i], r.end - starts[i]) for r in bad_by_line[i]]
        bullet = _BULLET.match(line)
        cuts = [0] + [m.end() for m in _SENTENCE_END.finditer(line)] + [len(line)]
        sentences = [(cuts[k], cuts[k + 1]) for k in range(len(cuts) - 1)]
        hit = [any(a < e and s < b for s, e in spans) for a, b in sentences]
        heading = (not bullet and any(r.crit is None for r in bad_by_line[i])
                   and len(sentences) == 1)
        if (bullet and hit[0]) or heading or all(hit):
            block = [i]
            j = i + 1
            while ((bullet or heading) and j < len(lines) and lines[j].strip()
                   and j not in ref_lines):
                nxt = _BULLET.match(lines[j])
                if bullet and nxt and _indent(lines[j]) <= _indent(line):
                    break  # the next bullet of the same list
                if heading and not nxt:
                    break  # a heading owns the bullets under it, not the next paragraph
                block.append(j)
                j += 1
            drop |= set(block)
            dropped += [lines[k].strip() for k in block]
        else:  # drop the offending sentences only
            keep = [line[a:b] for (a, b), h in zip(sentences, hit) if not h]
            dropped += [line[a:b].strip() for (a, b), h in zip(sentences, hit) if h]
            rest = "".join(keep).rstrip()
            if rest.strip() and not _BULLET.fullmatch(rest + " "):
                edited[i] = rest
            else:
                drop.add(i)
    out = [edited.get(i, ln) for i, ln in enumerate(lines) if i not in drop]
    new = re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()
    return new, dropped


def verbatim(ref: str, f: Failure) -> str:
    reason = f.seen.strip()
    return f"- {ref} — {f.criterion_text.strip()}" + (f" (observed: {reason})" if reason else "")


def _tail(text: str, lines: int = 20, chars: int = 2500) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])[-chars:]


class LLMUser:
    name = "llm"

    def __init__(self, model: str | ModelSpec | dict, *, template: str | Path | None = None,
                 verbosity: str = "low", max_tokens: int | None = None,
                 temperature: float | None = None) -> None:
        self.client = LLMClient(ModelSpec.coerce(model), role="user")
        path = Path(template) if template else TEMPLATE_DIR / TEMPLATE_NAME
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(path.parent)),
                                 undefined=jinja2.StrictUndefined, autoescape=False,
                                 keep_trailing_newline=True)
        self.template = env.get_template(path.name)
        self.verbosity = verbosity
        self.max_tokens, self.temperature = max_tokens, temperature
        self.guard_log: list[dict[str, Any]] = []

    def preflight(self) -> None:
        self.client.preflight()  # no key: a setup error before round 1

    def render(self, task: Task, evaluation: RoundEvaluation, round: int,
               failures: list[Failure] | None = None) -> str:
        failures = failures_for_feedback(task, evaluation) if failures is None else failures
        refs = task_refs(task)
        items = [{"ref": failure_ref(refs, f), "task_summary": f.eval_task.summary,
                  "criterion": f.criterion_text, "reason": f.seen}
                 for f in failures]
        return self.template.render(task=task, round=round, failures=items,
                                    deploy_ok=evaluation.deploy_ok,
                                    deploy_error=_tail(evaluation.deploy_error or "", 60, 4000),
                                    verbosity=self.verbosity)

    async def _ask(self, messages: list[dict[str, Any]]) -> str:
        res = await self.client.chat(messages, max_tokens=self.max_tokens,
                                     temperature=self.temperature)
        return res.text.strip()

    async def feedback(self, task: Task, evaluation: RoundEvaluation,
                       round: int) -> LLMFeedbackResult:
        self.client.round = round
        failures = failures_for_feedback(task, evaluation)
        guard: dict[str, Any] = {"round": round, "fired": False, "retried": False,
                                 "missing_first": [], "missing_after_retry": [], "appended": [],
                                 "invented_first": [], "invented_after_retry": [],
                                 "dropped_lines": []}
        if evaluation.deploy_ok and not failures:
            return self._done(NO_PROBLEMS, guard)
        refs = task_refs(task)
        wanted = [(failure_ref(refs, f), f) for f in failures] if evaluation.deploy_ok else []
        wanted_refs = [r for r, _ in wanted]
        # what the prompt itself says may be repeated without being invented
        given = given_refs([task.query, evaluation.deploy_error or ""]
                           + [t for _, f in wanted
                              for t in (f.criterion_text, f.seen, f.eval_task.summary)])
        messages = [{"role": "user", "content": self.render(task, evaluation, round, failures)}]

        def check(reply: str) -> tuple[list[tuple[str, Failure]], list[Mention]]:
            found = {(r.task, r.crit) for r in find_refs(reply)}
            missing = [(r, f) for r, f in wanted
                       if not ref_present(reply, r) and (refs.get(f.eval_task.id), f.index)
                       not in found]
            return missing, invented_refs(reply, wanted_refs, given)

        try:
            text = await self._ask(messages)
        except LLMConfigError:
            raise
        except LLMError as exc:  # keep the loop going with the plain failure list
            guard.update(fired=True, llm_error=str(exc))
            text = ""
        missing, invented = check(text)
        if (missing or invented) and "llm_error" not in guard:
            guard.update(fired=True, retried=True, missing_first=[r for r, _ in missing],
                         invented_first=_unique(invented))
            try:
                second = await self._ask(messages + [
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": self._correction(missing, invented,
                                                                 evaluation.deploy_ok)}])
            except LLMConfigError:
                raise
            except LLMError as exc:
                guard["llm_error"] = str(exc)
                second = ""
            if second:
                missing2, invented2 = check(second)
                # keep the retry unless it needs more repair than the first reply
                if len(missing2) + len(_unique(invented2)) <= len(missing) + len(
                        _unique(invented)):
                    text, missing, invented = second, missing2, invented2
            guard["missing_after_retry"] = [r for r, _ in missing]
            guard["invented_after_retry"] = _unique(invented)
        if invented:
            text, dropped = drop_refs(text, invented)
            guard.update(fired=True, dropped_lines=dropped)
            missing, _ = check(text)  # a dropped line may have carried a wanted reference too
        if not evaluation.deploy_ok:
            return self._done(self._with_build_log(text, evaluation), guard)
        if missing:
            guard["fired"] = True
            guard["appended"] = [r for r, _ in missing]
            extra = "\n".join(verbatim(r, f) for r, f in missing)
            text = f"{text}\n{extra}".strip() if text else extra
        return self._done(text, guard)

    @staticmethod
    def _correction(missing: list[tuple[str, Failure]], invented: list[Mention],
                    deploy_ok: bool) -> str:
        """One corrective message for everything the first reply got wrong."""
        parts = []
        if missing:
            parts.append("Your feedback left out these problems: "
                         + "; ".join(r for r, _ in missing) + ".")
        if invented:
            parts.append("Your feedback mentions references that are not in my list: "
                         + "; ".join(_unique(invented)) + ". Those were not among the problems "
                         "I found (they passed, or I could not try them), so do not mention "
                         "them.")
        if not deploy_ok:
            parts.append("Write the feedback again, without any task or criterion references.")
        else:
            parts.append("Write the complete feedback again: one bullet for EVERY problem in my "
                         "list and nothing else, each starting with its exact reference "
                         "(\"task X / crit Y\").")
        return " ".join(parts)

    def _with_build_log(self, text: str, evaluation: RoundEvaluation) -> str:
        log = _tail(evaluation.deploy_error or "")
        last = next((ln.strip() for ln in reversed(log.splitlines()) if ln.strip()), "")
        if not text:
            text = "The app does not build or start, so I could not open it at all."
        if last and last not in text:
            text += f"\n\nBuild/start output (last lines):\n```\n{log}\n```"
        return text

    def _done(self, text: str, guard: dict[str, Any]) -> LLMFeedbackResult:
        self.guard_log.append(guard)
        usage = self.client.usage_by_round.get(guard["round"])
        return LLMFeedbackResult(text=text, usage=[usage] if usage else [], guard=guard,
                                 meta={"guard": guard})


@registry.register("llm")
def make_llm_user(model: str | ModelSpec | dict, template: str | None = None,
                  verbosity: str = "low", **options: Any) -> LLMUser:
    return LLMUser(model, template=template, verbosity=verbosity, **options)
