"""The simulated code agent: deterministic, offline, and honest about what it knows.

It writes a real workspace each round: the task's reference app with some features removed and
some swapped for their broken variants (see asuka/benchmark/features.py), so the deployed app really lacks
them and the browser really sees it. A profile (profiles/<name>.yaml) gives, per evaluation-task
type, the chance of getting a feature right in round 1 (under the query or under the PRD), of
fixing a feature that feedback names, of an ok feature regressing, and the share of misses that
are broken rather than missing.

It learns about its defects only from the feedback text: a defective feature is attempted only
when the feedback names one of the evaluation tasks it serves ("task 6 / crit 0 — ...", or a
probe's observation of one of its criteria, "CHECK T6.c0 count[...]: 0"). A feature whose
failure the probes observed is fixed with the higher chance fix + (1 - fix) x probe_gain: how
much a diagnosis helps is the profile's assumption (WatchPoint measured 57.6 % recovery with
diagnostics for a weak coding model), not something the simulator measures.
"""

from __future__ import annotations

import hashlib
import random
import re
import time
from pathlib import Path

import yaml
from pydantic import BaseModel, Field

from asuka.benchmark.features import FeatureState, features_in, prepare_workspace
from asuka.codeagents import registry
from asuka.codeagents.base import AgentRoundResult, RoundContext
from asuka.schema import Task

PROFILE_DIR = Path(__file__).parent / "profiles"
_TASK_REF = re.compile(r"\btask\s+(\d+)\s*/\s*crit", re.I)
_CHECK_REF = re.compile(r"^CHECK (\S+) ", re.M)
GRANULARITY_SHARE = {"abstract": 0.0, "functional": 0.5, "prd": 1.0}


class TypeProfile(BaseModel):
    query: float = Field(ge=0, le=1)
    prd: float = Field(ge=0, le=1)
    fix: float = Field(ge=0, le=1)
    regress: float = Field(ge=0, le=1)
    broken: float = Field(ge=0, le=1)
    probe_gain: float = Field(default=0.0, ge=0, le=1)  # see the module docstring


class SimProfile(BaseModel):
    name: str
    presence: TypeProfile
    functionality: TypeProfile
    robustness: TypeProfile

    def for_type(self, t: str) -> TypeProfile:
        return getattr(self, t)


def profile_names() -> list[str]:
    return sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))


def load_profile(name_or_path: str) -> SimProfile:
    path = Path(name_or_path)
    if not path.suffix:
        path = PROFILE_DIR / f"{name_or_path}.yaml"
    if not path.is_file():
        raise ValueError(f"unknown sim profile {name_or_path!r}; bundled: "
                         f"{', '.join(profile_names())} (or give a path to a YAML file)")
    return SimProfile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def named_tasks(task: Task, feedback: str | None) -> set[str]:
    """Evaluation-task ids that the feedback refers to as 'task N / crit K'."""
    ids = [et.id for et in task.eval_tasks]
    return {ids[int(n)] for n in _TASK_REF.findall(feedback or "") if int(n) < len(ids)}


def observed_tasks(task: Task, feedback: str | None) -> set[str]:
    """Evaluation-task ids whose criteria a probe observation names ('CHECK <criterion> ...')."""
    owner = {c.id: et.id for et in task.eval_tasks for c in et.criteria}
    return {owner[c] for c in _CHECK_REF.findall(feedback or "") if c in owner}


def failing_tasks(task: Task, states: dict[str, FeatureState]) -> set[str]:
    """The evaluation tasks that must fail on an app with these feature states."""
    out: set[str] = set()
    for name, state in states.items():
        f = task.features[name]
        if state == "missing":
            out |= set(f.tasks)
        elif state == "broken":
            out |= set(f.broken if f.broken is not None else f.tasks)
    return out


class SimCodeAgent:
    name = "sim"

    def __init__(self, profile: str = "medium", seed: int = 0) -> None:
        self.profile = load_profile(profile)
        self.seed = seed

    def _rng(self, ctx: RoundContext) -> random.Random:
        # a stable hash, so runs are reproducible across processes (unlike hash())
        key = f"{self.profile.name}|{ctx.bench_task.id}|{ctx.seed}|{self.seed}|{ctx.start}|{ctx.round}"
        return random.Random(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))

    def _miss(self, rng: random.Random, p: TypeProfile, has_broken: bool) -> FeatureState:
        return "broken" if has_broken and rng.random() < p.broken else "missing"

    async def run_round(self, ctx: RoundContext) -> AgentRoundResult:
        t0 = time.perf_counter()
        bt = ctx.bench_task
        task = bt.task
        if not task.reference or not task.features:
            return AgentRoundResult(ok=False, error=f"task {task.id} has no reference app with "
                                    "feature markers; the simulator cannot play it")
        root = Path(bt.root)
        variants = {n: "broken" in k for n, k in features_in(root / task.reference).items()}
        rng = self._rng(ctx)
        log: list[str] = []
        prev = (ctx.previous_meta or {}).get("features")
        if ctx.round == 1 or prev is None:
            mode = "prd" if ctx.prd else ctx.start if "/" in ctx.start else "query"
            # a requester's variant: its granularity between the query's chance and the PRD's
            # (the simulator's assumption: more specified, more right)
            share = 1.0 if mode == "prd" else GRANULARITY_SHARE.get(mode.partition("/")[2], 0.0)
            states: dict[str, FeatureState] = {}
            for name in sorted(task.features):
                p = self.profile.for_type(task.feature_type(name))
                chance = p.prd if share == 1.0 else p.query if share == 0.0 \
                    else p.query + (p.prd - p.query) * share
                ok = rng.random() < chance
                states[name] = "ok" if ok else self._miss(rng, p, variants.get(name, False))
            log.append(f"round 1 from the {mode}: built {sum(s == 'ok' for s in states.values())}"
                       f" of {len(states)} features right")
        else:
            states = dict(prev)
            observed = observed_tasks(task, ctx.feedback)
            named = named_tasks(task, ctx.feedback) | observed
            before = failing_tasks(task, states)
            for name in sorted(task.features):
                p = self.profile.for_type(task.feature_type(name))
                state = states[name]
                if state == "ok":
                    if named and rng.random() < p.regress:
                        states[name] = self._miss(rng, p, variants.get(name, False))
                        log.append(f"regressed {name} -> {states[name]}")
                    continue
                serves = failing_tasks(task, {name: state})
                if not serves & named:
                    continue  # feedback says nothing this agent could tie to the feature
                fix = p.fix + (1 - p.fix) * p.probe_gain if serves & observed else p.fix
                if rng.random() < fix:
                    states[name] = "ok"
                    log.append(f"fixed {name}")
                else:
                    # a failed attempt at a missing feature often leaves a half-working one
                    if state == "missing" and variants.get(name) and rng.random() < 0.5:
                        states[name] = "broken"
                    log.append(f"tried to fix {name}, still {states[name]}")
            log.append(f"feedback named {len(named)} task(s); failing before: {len(before)}, "
                       f"now: {len(failing_tasks(task, states))}")
        prepare_workspace(root, task.reference, task.data, ctx.workspace, states)
        return AgentRoundResult(ok=True, transcript="\n".join(log),
                                duration_s=time.perf_counter() - t0,
                                meta={"features": states,
                                      "expected_failing": sorted(failing_tasks(task, states))})


@registry.register("sim")
def _factory(profile: str = "medium", seed: int = 0, **_: object) -> SimCodeAgent:
    return SimCodeAgent(profile=profile, seed=seed)
