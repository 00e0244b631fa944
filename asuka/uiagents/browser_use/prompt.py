"""What the browser-use agent is told and must answer: the per-criterion task prompt, the
structured verdict of its ``done`` action, and the init script that records a tab's console
errors and failed loads as evidence."""

from __future__ import annotations

import json

from pydantic import BaseModel, Field

from asuka.schema import Criterion, EvalTask

MAX_EVIDENCE = 100
CONSOLE_KEY = "__asuka_console__"

TASK_TEMPLATE = """\
You are a QA tester checking one acceptance criterion of a web application.

The application is running at: {base_url}
Feature under test: {summary}
Criterion to verify: {criterion}

Test this criterion through the application's user interface only, the way a user would:
navigate, click, type, select and read what the page shows. Do not use other websites, do not
read the application's source code, and do not call its APIs or change its storage directly.
Stay on {base_url} (other paths and #routes under it are part of the app). Perform the
interactions the criterion needs and observe the result before deciding.

When you have decided, call the done action with success=true and data:
- passed: true only if the observed behaviour matches the criterion, otherwise false;
- reason: one or two sentences on what you did and what you observed (for a failure, the
  discrepancy, e.g. "the price did not update after selecting a different SKU");
- evidence: the concrete texts, values or states you saw that support the decision.
Set success=false only if you could not carry out the test at all."""


class CriterionVerdict(BaseModel):
    """The structured result the agent returns through browser-use's ``done`` action."""

    passed: bool = Field(description="true only if the observed behaviour matches the criterion")
    reason: str = Field(description="what was done and observed; for a failure, the discrepancy")
    evidence: str = Field(description="concrete texts, values or states seen on the page")


PERSONA_TEMPLATE = """

You test as this user, and only with what this user has: {persona}
An action this user does not have is denied when you try it; then reach the goal another way
this user could. If the criterion cannot be tested at all as this user, call done with
success=false and say which action was missing."""


def build_task(base_url: str, eval_task: EvalTask, criterion: Criterion,
               persona: str | None = None) -> str:
    """The browser-use task prompt for one criterion (``persona``: a persona evaluator's user)."""
    text = TASK_TEMPLATE.format(base_url=base_url, summary=eval_task.summary.strip(),
                                criterion=criterion.text.strip())
    return text + (PERSONA_TEMPLATE.format(persona=" ".join(persona.split())) if persona else "")


# Records console errors and failed resource loads of every document of the tab into
# sessionStorage (which survives navigations within the app's origin).
CONSOLE_SCRIPT = """(() => {
  if (window.__asukaConsole) return;
  window.__asukaConsole = true;
  const KEY = %(key)s;
  const push = (kind, text) => {
    try {
      const all = JSON.parse(sessionStorage.getItem(KEY) || '{"console":[],"requests":[]}');
      const list = all[kind];
      text = String(text).slice(0, 500);
      if (list.length < %(max)d && !list.includes(text)) {
        list.push(text);
        sessionStorage.setItem(KEY, JSON.stringify(all));
      }
    } catch (e) {}
  };
  const show = (a) => {
    if (a instanceof Error) return a.name + ': ' + a.message;
    if (typeof a === 'string') return a;
    try { return JSON.stringify(a); } catch (e) { return String(a); }
  };
  const original = console.error;
  console.error = function (...args) {
    try { push('console', args.map(show).join(' ')); } catch (e) {}
    return original.apply(this, args);
  };
  window.addEventListener('error', (e) => {
    const t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      push('requests', 'GET ' + (t.src || t.href) + ' -> failed to load');
    } else {
      const name = (e.error && e.error.name) || 'Error';
      push('console', 'uncaught ' + name + ': ' + (e.error ? e.error.message : e.message));
    }
  }, true);
  window.addEventListener('unhandledrejection', (e) => {
    push('console', 'unhandled rejection: ' + show(e.reason));
  });
})();""" % {"key": json.dumps(CONSOLE_KEY), "max": MAX_EVIDENCE}
