"""Web-Bench as a benchmark source (issue #18 item 3): a fixture project written for these
tests in Web-Bench's layout (tests/fixtures/webbench) imports as one task whose evaluation tasks
are its tasks in order, decided by its Playwright Test specs (real @playwright/test from the
npm registry, real Chromium); the sequential mode runs it with the built-in LLM agent against
the scripted server, and again with the replayed workspaces; Pass@1, Pass@2 and recovery reach
the report."""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from asuka.benchmark.webbench import WebBenchError, import_webbench, titles_of
from asuka.cli import app
from tests.builders import FIXTURES
from tests.llm_server import llm_server  # noqa: F401 - fixture

FIXTURE = FIXTURES / "webbench"
runner = CliRunner()


def test_spec_titles_are_the_test_calls_only(tmp_path) -> None:
    spec = tmp_path / "x.spec.js"
    spec.write_text("test.beforeEach(async () => {})\ntest('a', async () => {})\n"
                    "test(\"b 'quoted'\", async () => {})\ntest.describe('group', () => {\n"
                    "  test(`c`, async () => {})\n})\ntest('a', async () => {})\n")
    assert titles_of(spec) == ["a", "b 'quoted'", "c"]


def test_spec_packages_are_real_imports_only(tmp_path) -> None:
    """A comment that reads like an import (``// Extract RGB values from "rgb(r, g, b)"``) and
    a string that is no package name are not packages to install."""
    from asuka.uiagents.playwright_test import spec_packages

    project = tmp_path / "p"
    (project / "test").mkdir(parents=True)
    (project / "package.json").write_text('{"devDependencies": {"tinycolor2": "^1.6.0"}}')
    (project / "test" / "a.spec.js").write_text(
        "const tc = require('tinycolor2')\n"
        "// Extract RGB values from \"rgb(r, g, b)\" format\n"
        "/* import x from 'left-pad' */\n"
        "const f = require('fs')\n")
    assert spec_packages(project) == ["tinycolor2@^1.6.0"]


def test_the_fixture_project_imports_as_a_chained_task(tmp_path) -> None:
    from asuka.benchmark.loading import load_bench

    res = runner.invoke(app, ["import", "web-bench", str(FIXTURE), "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    out = " ".join(res.output.split())
    assert "wb-tally: 3 evaluation tasks, 6 criteria" in out
    assert ("wb-notes: 2 evaluation tasks, 5 criteria, 4 dependencies at the lockfile's "
            "versions (libraries: @web-bench/test-util)") in out
    (bt,), problems = load_bench(tmp_path, ["wb-tally"])
    assert problems == []
    task = bt.task
    assert [et.id for et in task.eval_tasks] == ["init", "task-1", "task-2"]
    assert bt.dag.edges == [("init", "task-1"), ("task-1", "task-2")]
    assert task.eval_tasks[1].spec == "webbench/project/test/task-1.spec.js"
    assert [(c.id, c.test) for c in task.eval_tasks[1].criteria] == [
        ("task-1.t0", "inc button"), ("task-1.t1", "click + twice")]
    assert task.initial == "initial" and task.origin == "web-bench:tally"
    # the workspace is the project as Web-Bench gives it to an agent: its root files, with
    # src-init/ as src/; never its tests, task list or Playwright config
    initial = tmp_path / "tasks" / "wb-tally" / "initial"
    assert (initial / "src" / "index.html").is_file() and (initial / "package.json").is_file()
    assert not any((initial / n).exists() for n in ("test", "tasks.jsonl", "playwright.config.js",
                                                     "src-init"))
    assert (tmp_path / "tasks" / "wb-tally" / "reference" / "src" / "index.html").is_file()
    with pytest.raises(WebBenchError, match="no project nope"):
        import_webbench(FIXTURE, tmp_path, ["nope"])
    # the project is carried whole (its helpers, configs), its app versions stay behind
    carried = tmp_path / "tasks" / "wb-tally" / "webbench" / "project"
    assert (carried / "playwright.config.js").is_file() and (carried / "test").is_dir()
    assert not (carried / "src").exists() and not (carried / "src-init").exists()
    # how each project serves the app, read from its own Playwright config (CommonJS or an
    # ES module), with the port as a placeholder the deployer fills
    serve = {t: load_bench(tmp_path, [t])[0][0].task.serve
             for t in ("wb-tally", "wb-meter", "wb-guestbook")}
    assert serve["wb-tally"].command == "npx serve src -l {port}"
    assert serve["wb-meter"].command == "npx vite --port {port}"
    # and what Web-Bench's evaluator does first: build (the script is there), copy the assets
    assert (serve["wb-meter"].build, serve["wb-meter"].assets) == ("npm run build", "assets")
    assert serve["wb-tally"].build is None  # its build script is empty
    assert serve["wb-guestbook"].command == (
        "npm run db -- src && npm run dev -- src {port}")
    assert serve["wb-guestbook"].env == {"DB_HOST": "src/test.db.json"}
    assert serve["wb-guestbook"].libraries == "webbench/libraries"


def test_every_project_is_imported_or_listed_with_its_reason(tmp_path) -> None:
    """Both task formats; a folder that is no project, a project with bad tasks or a missing
    workspace library is left out with its reason, never silently."""
    checkout = tmp_path / "checkout"
    shutil.copytree(FIXTURE, checkout)
    projects = checkout / "projects"
    (projects / "docs").mkdir()
    (projects / "docs" / "readme.md").write_text("not a project\n")
    bad = projects / "bad"
    bad.mkdir()
    (bad / "tasks.jsonl").write_text('{"id": "task-1"}\n')
    orphan = projects / "orphan"
    shutil.copytree(projects / "notes", orphan)
    pkg = json.loads((orphan / "package.json").read_text())
    pkg["devDependencies"]["@web-bench/shop-test-util"] = "workspace:*"
    (orphan / "package.json").write_text(json.dumps(pkg))
    serverless = projects / "serverless"
    shutil.copytree(projects / "notes", serverless)
    (serverless / "playwright.config.js").write_text(
        "module.exports = { testDir: './test' }\n")
    unreadable = projects / "unreadable"
    shutil.copytree(projects / "notes", unreadable)
    (unreadable / "playwright.config.js").write_text("module.exports = require('nope-nope')\n")
    out = import_webbench(checkout, tmp_path / "bench")
    assert sorted(i.task_id for i in out.imported) == [
        "wb-guestbook", "wb-meter", "wb-notes", "wb-tally"]
    reasons = {lo.project: lo.reason for lo in out.left_out}
    assert set(reasons) == {"bad", "docs", "orphan", "serverless", "unreadable"}
    assert "its Playwright config has no webServer command" in reasons["serverless"]
    assert "node could not load it" in reasons["unreadable"]
    assert re.search(r"tasks.jsonl:1: a task needs an id and a description", reasons["bad"])
    assert "no tasks.jsonl or tasks.yml" in reasons["docs"]
    assert "workspace package @web-bench/shop-test-util is not in" in reasons["orphan"]
    notes = tmp_path / "bench" / "tasks" / "wb-notes" / "webbench"
    # workspace:* rewritten to the carried library's local path
    deps = json.loads((notes / "project" / "package.json").read_text())["devDependencies"]
    assert deps["@web-bench/test-util"] == "file:../libraries/test-util"
    assert (notes / "libraries" / "test-util" / "src" / "index.js").is_file()
    # every other dependency pinned to the version the checkout's Rush lockfile resolved (the
    # peer suffix dropped); a project the lockfile does not list keeps its ranges
    assert (deps["@playwright/test"], deps["serve"], deps["tinycolor2"]) == (
        "1.57.0", "14.2.4", "1.6.0")
    lib = json.loads((notes / "libraries" / "test-util" / "package.json").read_text())
    assert lib["dependencies"]["@playwright/test"] == "1.57.0"
    tally = json.loads((tmp_path / "bench" / "tasks" / "wb-tally" / "webbench" / "project"
                        / "package.json").read_text())["devDependencies"]
    assert tally["@playwright/test"] == "^1.53.1"
    res = runner.invoke(app, ["import", "web-bench", str(checkout), "--out", str(tmp_path / "b2")])
    assert res.exit_code == 0, res.output
    assert "left out bad:" in res.output and "left out orphan:" in res.output
    assert "imported 4 project(s), left out 5" in res.output


@pytest.mark.npm
@pytest.mark.timeout(600)
def test_import_install_leaves_out_a_project_whose_dependencies_cannot_be_had(tmp_path) -> None:
    """``--install`` installs each project's dependencies into the deploy cache now; a project
    with a dependency the registry does not have is left out with npm's reason, its task
    removed from the benchmark."""
    checkout = tmp_path / "checkout"
    shutil.copytree(FIXTURE / "libraries", checkout / "libraries")
    for name in ("guestbook", "needy"):
        shutil.copytree(FIXTURE / "projects" / "guestbook", checkout / "projects" / name)
    pkg_path = checkout / "projects" / "needy" / "package.json"
    pkg = json.loads(pkg_path.read_text())
    pkg["name"] = "@web-bench/needy"
    pkg["dependencies"] = {"asuka-test-no-such-package-zz9": "^1.0.0"}
    pkg_path.write_text(json.dumps(pkg))
    bench = tmp_path / "bench"
    res = runner.invoke(app, ["import", "web-bench", str(checkout), "--out", str(bench),
                              "--install"])
    out = " ".join(res.output.split())
    assert "wb-guestbook: 2 evaluation tasks" in out
    assert "left out needy: its npm dependencies cannot be installed here: installing the " \
           "project's dependencies failed" in out
    assert "imported 1 project(s), left out 1" in out
    assert not (bench / "tasks" / "wb-needy").exists()
    assert not (bench / "dags" / "wb-needy.yaml").exists()


NOTES_BROKEN = ("<!doctype html><title>Notes</title><ul id=\"notes\"></ul>"
                "<button id=\"add\">Add</button><script>const l = document.getElementById("
                "'notes'); document.getElementById('add').onclick = () => { const li = "
                "document.createElement('li'); li.textContent = 'note ' + (l.children.length "
                "+ 1); l.append(li) }</script>")


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(600)
def test_a_tasks_yml_project_runs_its_specs_as_the_repository_lays_them_out(tmp_path) -> None:
    """The specs of wb-notes require the workspace library by name and by relative path, a
    helper beside them, an npm package of their own (tinycolor2, from the registry) and the
    app's files as ../src, the page emulated as the project's config says (its Chromium
    project's Desktop Chrome descriptor, viewport and locale): the reference passes all five
    tests; an app that keeps its script inline and its newest note black fails task-2's two
    tests (the app's failures, no error)."""
    bench = tmp_path / "bench"
    assert runner.invoke(app, ["import", "web-bench", str(FIXTURE), "--out",
                               str(bench)]).exit_code == 0
    res = runner.invoke(app, ["eval", str(bench / "tasks" / "wb-notes" / "reference"), "--task",
                              "wb-notes", "--bench", str(bench), "--out", str(tmp_path / "ev")])
    assert res.exit_code == 0, res.output
    assert "criteria passed 5/5, not found 0, errors 0" in " ".join(res.output.split())
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "index.html").write_text(NOTES_BROKEN)
    res = runner.invoke(app, ["eval", str(broken), "--task", "wb-notes", "--bench", str(bench),
                              "--out", str(tmp_path / "ev2")])
    assert "criteria passed 3/5, not found 0, errors 0" in " ".join(res.output.split())


def _eval(bench: Path, task: str, app_dir: Path, out: Path) -> str:
    res = runner.invoke(app, ["eval", str(app_dir), "--task", task, "--bench", str(bench),
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    return " ".join(res.output.split())


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(900)
def test_a_vite_project_is_served_by_its_own_dev_server(tmp_path) -> None:
    """wb-meter's app is TypeScript under src/, runnable only through the project's Vite (an
    ES-module config; vite from the npm registry): deployed as Web-Bench's evaluator does (the
    project's assets beside the app, `npm run build` first, then the webServer command), its
    dependencies installed once into the project cache and hard-linked into each deployment,
    the reference passes all nine tests (one runs the project's own vite from PATH, as `npm
    test` would; one goes to the port in EVAL_PROJECT_PORT; one resolves the project's own
    packages from the app's files, as they sit beside src/ in the repository; one runs an app
    script with the package the project's `init` installed in the app, as webpack's do); an app
    that lets the reading pass 100 fails one; an
    app that does not build fails the deploy (the app's failure)."""
    from asuka.benchmark.loading import load_bench
    from asuka.deploy import Deployer

    bench = tmp_path / "bench"
    import_webbench(FIXTURE, bench, ["meter"])
    (bt,), _ = load_bench(bench, ["wb-meter"])
    reference = Path(bt.root) / "reference"
    deployer = Deployer()
    with deployer.deploy(reference, bt.task.serve, bt.root) as first:
        assert first.ok, first.result.error
        assert first.result.kind == "project"
        assert first.result.meta["command"].startswith("npx vite --port ")
        assert "build" in first.result.timings and "$ /bin/sh -c 'npm run build'" in \
            first.result.log
        with urllib.request.urlopen(first.url + "main.ts") as r:  # compiled by the dev server
            script = r.read().decode()
        assert "const value: number" not in script and "Math.min(100" in script
    with deployer.deploy(reference, bt.task.serve, bt.root) as second:
        assert second.ok, second.result.error
        assert "$ npm install" not in second.result.log  # the cache, not the registry
    assert "criteria passed 9/9, not found 0, errors 0" in _eval(
        bench, "wb-meter", reference, tmp_path / "ev")
    broken = tmp_path / "broken"
    shutil.copytree(reference, broken)
    main = broken / "src" / "main.ts"
    main.write_text(main.read_text().replace("Math.min(100, value + 5)", "value + 5"))
    assert "criteria passed 8/9, not found 0, errors 0" in _eval(
        bench, "wb-meter", broken, tmp_path / "ev2")
    (broken / "src" / "main.ts").write_text("const x: number = (\n")  # a syntax error: no build
    with deployer.deploy(broken, bt.task.serve, bt.root) as failed:
        assert not failed.ok and "build failed" in failed.result.error


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(900)
def test_a_backend_project_initialises_its_database_before_serving(tmp_path) -> None:
    """wb-guestbook's webServer command first writes the database from the app's seed (npm run
    db, $DB_HOST from the config's env), then starts the app's own server through the
    project's script: the reference passes all three tests; an app whose seed is empty fails
    the seeded entries' test (the app's failure); a server that cannot download what it needs
    is a setup error."""
    bench = tmp_path / "bench"
    import_webbench(FIXTURE, bench, ["guestbook"])
    reference = bench / "tasks" / "wb-guestbook" / "reference"
    assert "criteria passed 3/3, not found 0, errors 0" in _eval(
        bench, "wb-guestbook", reference, tmp_path / "ev")
    empty = tmp_path / "empty"
    shutil.copytree(reference, empty)
    (empty / "src" / "libs" / "setup.json").write_text("[]")
    assert "criteria passed 2/3, not found 0, errors 0" in _eval(
        bench, "wb-guestbook", empty, tmp_path / "ev2")
    # a server that fetches a binary on its first start (nosql's MongoDB) where the machine
    # cannot reach the host: a setup error of the setting, not the app's failure
    dev = bench / "tasks" / "wb-guestbook" / "webbench" / "project" / "scripts" / "dev.js"
    dev.write_text("require('https').get('https://binaries.example.invalid/db-7.0.tgz', () => {})"
                   ".on('error', (e) => { console.error(String(e)); process.exit(1) })\n")
    res = runner.invoke(app, ["eval", str(reference), "--task", "wb-guestbook", "--bench",
                              str(bench), "--out", str(tmp_path / "ev3")])
    out = " ".join(res.output.split())
    assert res.exit_code == 1 and "could not evaluate (setup error)" in out, out
    assert "the project's serve command needs a download this machine cannot make" in out


PAGE = ("<!doctype html><title>Tally</title><h1 id=\"title\">Tally</h1><p id=\"count\">0</p>"
        "{buttons}<script>const c = document.getElementById('count');{script}</script>")
INIT = PAGE.format(buttons="", script="")
INC_BROKEN = PAGE.format(buttons='<button class="inc">+</button>', script="")
INC = PAGE.format(buttons='<button class="inc">+</button>',
                  script="document.querySelector('.inc').onclick = "
                         "() => { c.textContent = +c.textContent + 1 };")
RESET = PAGE.format(buttons='<button class="inc">+</button><button class="reset">Reset</button>',
                    script="document.querySelector('.inc').onclick = "
                           "() => { c.textContent = +c.textContent + 1 };"
                           "document.querySelector('.reset').onclick = "
                           "() => { c.textContent = 0 };")


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(900)
def test_a_sequential_run_with_the_llm_agent_and_its_replay(tmp_path, llm_server) -> None:
    """init passes at once; task-1 fails (+ does nothing), is fixed on the retry with the
    tests' errors as feedback (medium verbosity: expected and observed, as Web-Bench's retry); task-2 fails twice (no persistence) and stops the project:
    Pass@1 1/3, Pass@2 2/3, recovery 1/2."""
    from tests.llm_server import tool_calls

    bench = tmp_path / "bench"
    assert runner.invoke(app, ["import", "web-bench", str(FIXTURE), "--out",
                               str(bench)]).exit_code == 0

    def attempt(html: str, summary: str) -> list:
        return [tool_calls(("write_file", {"path": "src/index.html", "content": html})),
                tool_calls(("finish", {"summary": summary}))]

    llm_server.script(*attempt(INIT, "init"), *attempt(INC_BROKEN, "inc v1"),
                      *attempt(INC, "inc v2"), *attempt(RESET, "reset v1"),
                      *attempt(RESET, "reset v2"))
    model = f"openai:fake@{llm_server.openai_base_url}"
    res = runner.invoke(app, ["run", "--bench", str(bench), "--task", "wb-tally",
                              "--agent", "llm", "--model", model, "--mode", "sequential",
                              "--verbosity", "medium", "--out", str(tmp_path / "runs"), "--run-id", "seq"])
    assert res.exit_code == 0, res.output
    from asuka.log.store import RunStore

    store = RunStore(tmp_path / "runs" / "seq")
    (cell,) = store.cells()
    rounds = store.load_rounds(cell)
    assert [(r.step["task"], r.step["attempt"]) for r in rounds] == [
        ("init", 1), ("task-1", 1), ("task-1", 2), ("task-2", 1), ("task-2", 2)]
    # cumulative: step 2 judged init again; the verdicts are the specs' tests
    assert set(rounds[1].evaluation.results) == {"init", "task-1"}
    failed = rounds[1].evaluation.results["task-1"]
    assert failed.status == "failed" and failed.verdicts[0].backend == "playwright-test"
    assert [v.status for v in failed.verdicts] == ["pass", "fail"]
    assert "toHaveText" in failed.verdicts[1].reason and "\x1b[" not in failed.verdicts[1].reason
    # the prompts: step 2 gets task-1's description and what init built; its retry the errors
    step2 = json.dumps(llm_server.requests[2].body)
    assert "Add a button '+' (class 'inc')" in step2 and "init (completed)" in step2
    assert "app's files under `src/`" in step2  # the workspace is the project, the app in src/
    retry = json.dumps(llm_server.requests[4].body)
    assert "click + twice" in retry and "toHaveText" in retry
    result = store.cell_result(cell)
    assert result.pass_at_1 == pytest.approx(1 / 3)
    assert result.pass_at_2 == pytest.approx(2 / 3)
    assert result.recovery == pytest.approx(1 / 2) and result.stopped_early

    # the same workspaces replayed: the specs decide the same
    res = runner.invoke(app, ["run", "--bench", str(bench), "--task", "wb-tally",
                              "--agent", "replay", "--agent-opt", f"run={store.root}",
                              "--agent-opt", f"cell={cell}", "--mode", "sequential",
                              "--out", str(tmp_path / "runs"), "--run-id", "replayed"])
    assert res.exit_code == 0, res.output
    replayed = RunStore(tmp_path / "runs" / "replayed")
    (rcell,) = replayed.cells()
    assert [(r.step["task"], r.step["attempt"]) for r in replayed.load_rounds(rcell)] == [
        (r.step["task"], r.step["attempt"]) for r in rounds]

    res = runner.invoke(app, ["report", str(store.root), "--bench", str(bench), "-f", "md,html",
                              "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    section = md[md.index("### Sequential"):]
    header, _, row = section.split("\n\n")[1].splitlines()[:3]
    assert "Pass@1" in header and "Pass@2" in header and "recovery" in header
    assert "33.3" in row and "66.7" in row and "50.0" in row and "standards" in row
    viewer = next((tmp_path / "rep" / "html" / "cells").glob("*/round-3.html")).read_text()
    assert "Sequential step 2: <code>task-1</code>, attempt 2" in viewer


def test_a_test_title_written_as_a_template_stands_for_every_test_of_its_loop() -> None:
    """styled-components' specs write ``test(`Check Button ${buttonText} Hovered`)`` in a loop:
    the criterion is every test the loop makes, passed only when all of them pass."""
    from asuka.uiagents.playwright_test import of_title

    report = {"Check Button Primary Hovered": ("passed", ""),
              "Check Button Secondary Hovered": ("failed", "expected red"),
              "Check Button Primary Focused": ("passed", "")}
    runs = of_title("Check Button ${buttonText} Hovered", report)
    assert sorted(runs) == [("failed", "expected red"), ("passed", "")]
    assert of_title("Check Button ${buttonText} Focused", report) == [("passed", "")]
    assert of_title("Check Button Primary Focused", report) == [("passed", "")]
    assert of_title("Check Link ${x}", report) == [] and of_title("Nope", report) == []


def test_the_spec_run_emulates_the_page_as_the_config_says_and_nothing_else() -> None:
    """Only emulation is taken from a project's ``use`` (its Chromium project's over its top
    level); where the run goes, which browser and what it records stay Asuka's."""
    from asuka.uiagents.playwright_test import emulation

    config = {"use": {"baseURL": "http://elsewhere", "locale": "de-DE", "trace": "on",
                      "viewport": {"width": 800, "height": 600}},
              "projects": [{"name": "firefox", "use": {"__device": "Desktop Firefox"}},
                           {"name": "chromium", "use": {"__device": "Desktop Chrome",
                                                        "viewport": {"width": 640, "height": 640},
                                                        "headless": False, "channel": "chrome"}}]}
    assert emulation(config) == {"locale": "de-DE", "__device": "Desktop Chrome",
                                 "viewport": {"width": 640, "height": 640}}
    assert emulation({}) == {}


SANDBOX_SPEC = """const { test, expect } = require('@playwright/test');
const fs = require('fs');
test('reaches the app', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('h1')).toHaveText('Served');
});
test('looks online to the page', async ({ page }) => {
  await page.goto('/');
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
});
test('reaches no other port', async () => {
  let reached = true;
  try { await fetch('http://127.0.0.1:%(other)d/'); } catch (e) { reached = false; }
  expect(reached).toBe(false);
});
test('writes nothing outside its folder', async () => {
  // refused, or written into the sandbox's own /tmp: either way the host never sees it
  try { fs.writeFileSync(%(outside)s, 'x'); } catch (e) {}
});
"""


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(600)
def test_the_spec_runs_sandboxed_reaching_only_the_app(tmp_path) -> None:
    """A spec is run in the deploy sandbox (bubblewrap here): it drives the served app, which
    sees the browser online (bom's tests read navigator.onLine), but it
    cannot reach another port of the host nor write outside its scratch folder (the file it
    writes never reaches the host), since some specs run the app's own scripts."""
    import asyncio
    import functools
    import http.server
    import threading

    from asuka.schema import EvalTask
    from asuka.uiagents.playwright_test import run_spec

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>Served</h1>")
    servers = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        http.server.SimpleHTTPRequestHandler, directory=str(site))) for _ in range(2)]
    for s in servers:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    try:
        outside = tmp_path / "outside.txt"
        spec = tmp_path / "specs" / "sandbox.spec.js"
        spec.parent.mkdir()
        spec.write_text(SANDBOX_SPEC % {"other": servers[1].server_address[1],
                                        "outside": json.dumps(str(outside))})
        titles = ["reaches the app", "looks online to the page", "reaches no other port",
                  "writes nothing outside its folder"]
        task = EvalTask(id="t0", summary="sandbox", type="functionality", weight=1,
                        spec=spec.name, criteria=[{"id": f"t0.c{i}", "text": t, "test": t}
                                                  for i, t in enumerate(titles)])
        result = asyncio.run(run_spec(task, spec, f"http://127.0.0.1:{servers[0].server_address[1]}"))
    finally:
        for s in servers:
            s.shutdown()
    assert [(v.status, v.reason) for v in result.verdicts] == [("pass", "the test passed")] * 4
    assert not outside.exists()


FLAKY_SPEC = """const { test, expect } = require('@playwright/test');
const fs = require('fs');
const path = require('path');
test('passes on its second try', async ({ page }) => {
  await page.goto('/');
  const marker = path.join(__dirname, 'tried-once');
  const first = !fs.existsSync(marker);
  fs.writeFileSync(marker, 'x');
  expect(first ? 'not yet' : 'Served').toBe('Served');
});
test('always fails', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('h1')).toHaveText('Not served', { timeout: 500 });
});
"""


@pytest.mark.browser
@pytest.mark.npm
@pytest.mark.timeout(600)
def test_a_test_passing_on_a_retry_says_so_and_retries_are_the_runs_choice(tmp_path) -> None:
    """Web-Bench's configs say ``retries: process.env.CI ? 2 : 0``: its evaluator runs an
    agent's app once, its own CI tests the references with 2 retries. ``spec_retries`` picks
    (none by default; "ci" reads the project's config as its CI does); a pass on a retry names
    the try and the first try's error, and a test failing every try still fails."""
    import asyncio
    import functools
    import http.server
    import threading

    from asuka.schema import EvalTask
    from asuka.uiagents.playwright_test import run_spec

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<h1>Served</h1>")
    project = tmp_path / "projects" / "flaky"
    (project / "test").mkdir(parents=True)
    (project / "package.json").write_text('{"name": "flaky", "private": true}')
    (project / "playwright.config.js").write_text(
        "module.exports = { retries: process.env.CI ? 2 : 0 };\n")
    spec = project / "test" / "flaky.spec.js"
    spec.write_text(FLAKY_SPEC)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        http.server.SimpleHTTPRequestHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    titles = ["passes on its second try", "always fails"]
    task = EvalTask(id="t0", summary="flaky", type="functionality", weight=1,
                    spec=spec.name, criteria=[{"id": f"t0.c{i}", "text": t, "test": t}
                                              for i, t in enumerate(titles)])
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        once = asyncio.run(run_spec(task, spec, url))
        retried = asyncio.run(run_spec(task, spec, url, retries="ci"))
    finally:
        server.shutdown()
    assert [v.status for v in once.verdicts] == ["fail", "fail"]
    assert [v.status for v in retried.verdicts] == ["pass", "fail"]
    assert retried.verdicts[0].reason.startswith("the test passed on try 2 (a retry; its "
                                                 "first try failed: ")
    assert "not yet" in retried.verdicts[0].reason
    assert "Not served" in retried.verdicts[1].reason
    assert not (project / "test" / "tried-once").exists()  # the run's copy, not the task's
    with pytest.raises(ValueError, match="spec_retries"):
        from asuka.uiagents.scripted.agent import ScriptedUIAgent

        ScriptedUIAgent(spec_retries="always")
