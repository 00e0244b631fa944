"""The corpus of independent implementations: apps written from a task's PRD alone, by writers
who never saw the reference app or the checks, each with a hand-made label per criterion.

    tests/fixtures/foreign/<task>/app/          the app (the task's mock data is added on eval)
    tests/fixtures/foreign/<task>/labels.yaml   t0.c0: {label: pass|fail, reason: "..."}
    tests/fixtures/foreign/<task>/NOTES.md      what its writer built and interpreted
    tests/fixtures/foreign/agreement.json       the last measured agreement per task

The **real-agent corpus** holds apps written as a code agent writes them: from round 1's prompt
alone (the query, never the PRD), then from the feedback Asuka's own user gave each round
(``asuka eval --protocol dag``, default verbosity), each round's app frozen and labelled by a
tester who used it and never saw the checks:

    tests/fixtures/realagent/<task>/round-<r>/app/          the app as that round left it
    tests/fixtures/realagent/<task>/round-<r>/PROMPT.md     round 1's prompt, word for word
    tests/fixtures/realagent/<task>/round-<r>/FEEDBACK.md   the prompt of rounds 2 and 3
    tests/fixtures/realagent/<task>/round-<r>/labels.yaml   the tester's label per criterion
    tests/fixtures/realagent/<task>/round-<r>/NOTES.md      what the writer did that round
    tests/fixtures/realagent/agreement.json                 the last measured agreement

It measures whether the evaluator judges behaviour rather than the reference app's names: the
share of criteria whose verdict on the corpus app matches its label. ``agreement`` is pure (no
browser); ``benchmarks/foreign_agreement.py`` evaluates the apps and writes agreement.json.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from asuka.log.agreement import cohen_kappa, gwet_ac1
from asuka.log.provenance import hash_files
from asuka.schema import BenchTask, RoundEvaluation

CORPUS_DIR = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "foreign"
REALAGENT_DIR = CORPUS_DIR.parent / "realagent"
CORPORA = {"foreign": CORPUS_DIR, "realagent": REALAGENT_DIR}
AGREEMENT_FILE = "agreement.json"
LABELS = ("pass", "fail")


class CorpusError(ValueError):
    pass


@dataclass
class Disagreement:
    criterion_id: str
    label: str
    verdict: str
    label_reason: str
    verdict_reason: str
    stage: str = "scripted"   # the rung that decided the verdict (Verdict.decided_by)


@dataclass
class Agreement:
    task: str
    agreed: int
    total: int
    disagreements: list[Disagreement] = field(default_factory=list)
    # per criterion, in order: the verdict and the label, each as pass / fail
    verdicts: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    stages: list[str] = field(default_factory=list)   # per criterion: the deciding rung

    @property
    def false_passes(self) -> int:
        return sum(v == "pass" and lab == "fail" for v, lab in zip(self.verdicts, self.labels))

    @property
    def share(self) -> float:
        return self.agreed / self.total if self.total else 0.0

    @property
    def kappa(self) -> float:
        return cohen_kappa(self.verdicts, self.labels)

    @property
    def ac1(self) -> float:
        return gwet_ac1(self.verdicts, self.labels, labels=("pass", "fail"))


def load_labels(path: Path, bt: BenchTask) -> dict[str, dict]:
    """labels.yaml, checked: one entry per criterion of the task, label pass or fail."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise CorpusError(f"{path}: not valid YAML: {exc}") from None
    wanted = [c.id for et in bt.task.eval_tasks for c in et.criteria]
    problems = [f"{path}: {cid}: no label" for cid in wanted if cid not in data]
    problems += [f"{path}: {cid}: not a criterion of {bt.id}" for cid in data
                 if cid not in wanted]
    for cid, entry in data.items():
        if not isinstance(entry, dict) or entry.get("label") not in LABELS:
            problems.append(f"{path}: {cid}: label must be one of {', '.join(LABELS)}")
    if problems:
        raise CorpusError("\n".join(problems))
    return data


def agreement(bt: BenchTask, evaluation: RoundEvaluation, labels: dict[str, dict]) -> Agreement:
    """Verdict vs label per criterion, on an evaluation that executed everything (``full``):
    a criterion agrees when it passed exactly where its label says pass."""
    out = Agreement(bt.id, 0, 0)
    for et in bt.task.eval_tasks:
        res = evaluation.results[et.id]
        by_id = {v.criterion_id: v for v in res.verdicts}
        for c in et.criteria:
            v = by_id.get(c.id)
            verdict = v.status if v is not None else res.status
            want = labels[c.id]["label"]
            out.total += 1
            out.verdicts.append("pass" if verdict == "pass" else "fail")
            out.labels.append("pass" if want == "pass" else "fail")
            stage = (v.decided_by or "scripted") if v is not None else "skipped"
            out.stages.append(stage)
            if (verdict == "pass") == (want == "pass"):
                out.agreed += 1
            else:
                out.disagreements.append(Disagreement(
                    c.id, want, verdict, str(labels[c.id].get("reason", "")),
                    (v.reason if v is not None else res.error or "")[:300], stage))
    return out


def corpus_tasks(root: Path = CORPUS_DIR) -> list[str]:
    return sorted(p.parent.name for p in root.glob("*/labels.yaml"))


@dataclass(frozen=True)
class Entry:
    """One labelled app of a corpus: its task, its round (real-agent corpus) and folder."""

    corpus: str
    task: str
    round: int | None
    path: Path

    @property
    def key(self) -> str:
        return self.task if self.round is None else f"{self.task}/round-{self.round}"


def corpus_entries(corpus: str = "all") -> list[Entry]:
    """Every labelled app of ``corpus`` (foreign, realagent or all), in order."""
    if not CORPUS_DIR.parent.is_dir():
        raise CorpusError(f"the corpora are fixtures of the repository ({CORPUS_DIR.parent}): "
                          "run this from a checkout of Asuka, not an installed wheel")
    out: list[Entry] = []
    if corpus in ("foreign", "all"):
        out += [Entry("foreign", t, None, CORPUS_DIR / t) for t in corpus_tasks()]
    if corpus in ("realagent", "all"):
        for p in sorted(REALAGENT_DIR.glob("*/round-*/labels.yaml")):
            out.append(Entry("realagent", p.parent.parent.name,
                             int(p.parent.name.removeprefix("round-")), p.parent))
    return out


def fingerprint(bt: BenchTask, entry: Path) -> str:
    """What an agreement figure depends on: the task (definition, reference, data, PRD, DAG:
    its provenance hash), the app's files and the labels."""
    from asuka.log.provenance import cell_provenance

    h = hashlib.sha256(cell_provenance(bt, {})["task_fingerprint"].encode())
    app = entry / "app"
    hash_files(h, [(p.relative_to(entry).as_posix(), p) for p in app.rglob("*") if p.is_file()])
    hash_files(h, [("labels.yaml", entry / "labels.yaml")])
    return h.hexdigest()


async def evaluate_entry(bt: BenchTask, entry: Path, ui_options: dict | None = None
                         ) -> RoundEvaluation:
    """Deploy a corpus app (with the task's mock data) and evaluate every criterion (``full``)
    with the scripted UI agent, as ``asuka eval`` does."""
    import shutil
    import tempfile

    from asuka import uiagents
    from asuka.benchmark.features import copy_data
    from asuka.deploy import Deployer
    from asuka.protocol.evaluate import EvalSettings, evaluate_workspace

    with tempfile.TemporaryDirectory(prefix="asuka-corpus-") as tmp:
        ws = Path(tmp) / "workspace"
        shutil.copytree(entry / "app", ws)
        copy_data(Path(bt.root), bt.task.data, ws)
        outcome = await evaluate_workspace(bt, ws, uiagents.get("scripted", **(ui_options or {})),
                                           Deployer(), EvalSettings("full", 0.5, 3, 1))
    return outcome.evaluation
