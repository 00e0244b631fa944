"""Static lint of checks that read the reference app's markup or wording (``asuka validate``).

A scripted check that finds an element by ``#chart [data-year]`` or asserts the exact words of an
empty state measures whether an app copied the reference app, not whether it does what the PRD
asks: an app written independently from the PRD fails it. This lint reads every criterion's
``check`` steps against the task's PRD, query and mock data, without a browser, and reports:

- **markup** (warnings): ids, classes and ``data-*`` attributes read by a ``css`` locator (also
  inside ``within``), a ``testid`` locator, a JS ``eval`` step (``getElementById``,
  ``querySelector``, ``closest``, ``dataset``, ``getAttribute``, ``classList``) or ``expect_attr``,
  whose names the PRD does not spell out (``#chart``, ``id "chart"``, ``.seg``, ``data-year``),
  and ``localStorage`` keys an ``eval`` step uses that the PRD does not give;
- **wording** (warnings): ``expect_text`` values (plain, exact or regex) and the names locators
  use (role name, label, placeholder, text, alt, title, a selected option) that are mostly words
  (not a number, money, date, count or code) and that neither the PRD nor the query contains (case
  and whitespace ignored, numbers taken as wildcards; values from the mock data or typed by the
  evaluation task's own steps count as backed). A regex is backed when it matches the PRD text, or
  when each of its literal word runs is backed (one alternative of each alternation suffices). A
  placeholder is backed only where the PRD speaks of a placeholder;
- **structure** (notes, never errors): element selectors such as ``tbody tr`` or ``mark`` that
  assume a DOM shape, unless the PRD names that element.

Layout (the package is the contract; its modules are private):

- ``_text``: normalising text, ``wordy`` (is a value wording at all), quoting a value;
- ``_backing``: what a task's PRD, query and mock data back (``Backing``) and what its evaluation
  tasks type (``Typed``); ``_regex``: the literal word runs of a regex value;
- ``_markup``: the names a step reads from markup (``selector_names``, ``eval_names``) and its
  markup and structure findings; ``_wording``: its wording findings;
- ``_report``: ``Finding``, the lint of a task and of a bench, and the console text.
"""

from asuka.benchmark.lint_markup._backing import Backing, Typed
from asuka.benchmark.lint_markup._markup import eval_names, selector_names
from asuka.benchmark.lint_markup._report import (
    HINT,
    Finding,
    counts,
    lint_bench_task,
    lint_task,
    lint_tasks,
    per_task_lines,
    read_data,
    summary_line,
)
from asuka.benchmark.lint_markup._text import norm, wordy

__all__ = ["HINT", "Backing", "Finding", "Typed", "counts", "eval_names", "lint_bench_task",
           "lint_task", "lint_tasks", "norm", "per_task_lines", "read_data", "selector_names",
           "summary_line", "wordy"]
