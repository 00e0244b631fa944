"""The human user (WatchPoint's user study): a person reads the round's executed failures, tries
the app themself, and types the feedback.

Each round the round's workspace is deployed again (the same Deployer the loop uses, so the
person gets the real app at a loopback URL), the URL and the executed failures (the template
user's words) are printed on the terminal, and the person types feedback: lines until an empty
line; an empty first line (or end of input) skips the round's feedback. Prompts of concurrent
cells are taken one at a time. Every event (shown, typed, skipped, with times) is appended to a
JSONL log (``log``, default ``human-feedback.jsonl`` in the working directory) and kept in the
round's user.json. The deployment is stopped once the feedback is in."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from asuka.schema import RoundEvaluation, Task
from asuka.terminal import prompt_lease
from asuka.users import registry
from asuka.users.base import FeedbackResult
from asuka.users.template import TemplateUser


class HumanUser:
    name = "human"
    needs_app = True  # the loop passes the round's workspace, so the person can try the app

    def __init__(self, verbosity: str = "medium", log: str | Path = "human-feedback.jsonl",
                 sandbox: str = "auto", stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.words = TemplateUser(verbosity=verbosity)
        self.log = Path(log)
        self.sandbox = sandbox
        self.stdin, self.stdout = stdin, stdout

    def _event(self, events: list[dict[str, Any]], kind: str, **data: Any) -> None:
        event = {"at": time.strftime("%Y-%m-%dT%H:%M:%S"), "event": kind, **data}
        events.append(event)
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event) + "\n")

    async def feedback(self, task: Task, evaluation: RoundEvaluation, round: int,
                       workspace: Path | None = None) -> FeedbackResult:
        from asuka.deploy import Deployer

        failures = self.words.render(task, evaluation)
        deployment = None
        if workspace is not None:
            deployment = await asyncio.to_thread(Deployer(sandbox=self.sandbox).deploy,
                                                 Path(workspace))
        try:
            url = deployment.url if deployment is not None and deployment.result.ok else None
            return await asyncio.to_thread(self._ask, task, round, url, failures)
        finally:
            if deployment is not None:
                await asyncio.to_thread(deployment.stop)

    def _ask(self, task: Task, round: int, url: str | None, failures: str) -> FeedbackResult:
        events: list[dict[str, Any]] = []
        with prompt_lease():  # one prompt at a time, progress displays paused
            # taken now: a live display hands sys.stdout back only once it is paused
            out, inp = self.stdout or sys.stdout, self.stdin or sys.stdin
            where = url or "(the app did not deploy: nothing to open)"
            out.write(f"\n=== {task.id}, round {round}: the app is at {where}\n"
                      f"What the tester found:\n{failures.rstrip()}\n"
                      f"Type your feedback for the code agent; an empty line ends it "
                      f"(an empty first line skips this round's feedback).\n> ")
            out.flush()
            self._event(events, "shown", task=task.id, round=round, url=url)
            lines: list[str] = []
            while True:
                line = inp.readline()
                if not line or not line.strip():  # end of input, or the empty line
                    break
                lines.append(line.rstrip("\n"))
                out.write("> ")
                out.flush()
            text = "\n".join(lines).strip()
            if text:
                self._event(events, "typed", task=task.id, round=round, text=text)
            else:
                self._event(events, "skipped", task=task.id, round=round)
            out.write("thanks, on to the code agent\n")
            out.flush()
        return FeedbackResult(text=text + "\n" if text else "", meta={"events": events})


@registry.register("human")
def _factory(verbosity: str = "medium", log: str = "human-feedback.jsonl",
             sandbox: str = "auto", **_: object) -> HumanUser:
    return HumanUser(verbosity=verbosity, log=log, sandbox=sandbox)
