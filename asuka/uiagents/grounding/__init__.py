"""Grounding backends: a scripted check's locator missed; what does the page call that element?

A backend receives a ``Miss`` (the criterion text, the check's steps, the index of the step whose
locator matched nothing, that locator, and the page's accessibility snapshot) and answers with a
replacement locator in our schema (``asuka.schema.Locator``), or "absent" when the page has no
such element, with a one-line reason. The scripted agent then re-runs the check with it, so the
assertions on values, counts and states stay deterministic (``asuka.uiagents.scripted.criterion``). The
``llm`` backend also judges wording (``judge_wording``): an ``expect_text`` that found its
element but not the exact words.

Backends, by name (``make``): ``none`` (the miss decides; never called) and ``llm`` (one
text-only call per miss through ``asuka.llm``, any OpenAI-compatible or Anthropic model; no
screenshots). A reply is validated with pydantic; an unusable one (not JSON, not a locator, the
very locator that missed) is recorded and the miss stands. An endpoint that fails for good raises
``GroundingFailed`` (the criterion's verdict is then ``error``: nothing was decided).

Cache. Answers are cached per (scope, criterion, step, kind, model, fingerprint): ``scope`` is
``artifact:<sha256 of the served workspace>`` (``asuka.protocol.evaluate`` passes it) or ``url:<base URL>``
without one; the fingerprint hashes the criterion text and the step (and, for a wording, the
expected and observed text), so an edited check never reuses an old answer. The cache lives in
memory on the backend (one per UI-agent object, so across the rounds of a cell) and, given
``cache=PATH``, in a JSON file read at start and rewritten (merged, atomically) on every new
answer. A cached answer costs nothing and is recorded with ``cached: true, tokens: 0``.

Layout (the package is the contract; its modules are private): ``_types`` (what goes in and out
of a backend, the protocol), ``_backends`` (the registry, ``make``, ``none`` and ``llm``),
``_prompt`` (prompts, reply schemas and their validation) and ``_cache`` (the cache).
"""

from asuka.uiagents.grounding._backends import (
    ROLE,
    FileGrounding,
    LLMGrounding,
    NoGrounding,
    make,
    registry,
)
from asuka.uiagents.grounding._cache import GroundingCache, cache_key
from asuka.uiagents.grounding._prompt import (
    GROUND_SYSTEM,
    GROUNDING_SCHEMA,
    JUDGE_SCHEMA,
    JUDGE_SYSTEM,
    LINE_CHARS,
    LOCATOR_SCHEMA,
    REASON_CHARS,
    SNAPSHOT_CHARS,
    GroundingReply,
    JudgeReply,
    ground_prompt,
    judge_prompt,
    trim_snapshot,
)
from asuka.uiagents.grounding._types import (
    OBSERVED_CHARS,
    Answer,
    GroundingBackend,
    GroundingFailed,
    Judgement,
    Miss,
    Replan,
    Replanned,
    Wording,
    numeric,
)

__all__ = ["FileGrounding", "Replan", "Replanned", "Answer", "GroundingBackend", "GroundingCache", "GroundingFailed", "Judgement",
           "LLMGrounding", "Miss", "NoGrounding", "Wording", "make", "numeric", "registry",
           "trim_snapshot", "OBSERVED_CHARS",
           # prompts, replies and the cache key, for tests and benchmarks
           "GROUND_SYSTEM", "GROUNDING_SCHEMA", "JUDGE_SCHEMA", "JUDGE_SYSTEM", "LINE_CHARS",
           "LOCATOR_SCHEMA", "REASON_CHARS", "ROLE", "SNAPSHOT_CHARS", "GroundingReply",
           "JudgeReply", "cache_key", "ground_prompt", "judge_prompt"]
