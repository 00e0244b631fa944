"""The static lint of broken variants, alone and inside `asuka validate`."""

from __future__ import annotations

import copy

from typer.testing import CliRunner

from asuka.benchmark.lint import dangling_lookups
from asuka.cli import app
from tests.builders import TASK, write_bench

PAGE = """<!doctype html><title>Counter</title><h1>Counter</h1>
<!-- @feature reset -->
<dialog id="confirm"><form id="confirm-form"><button id="yes">Yes</button></form></dialog>
<!-- @end reset -->
{broken_html}
<script src="app.js"></script>
"""
SCRIPT = """let n = 0;
/* @feature reset */
document.getElementById('yes').onclick = () => { n = 0; };
/* @end reset */
/* @broken reset */
document.querySelector('#confirm-form').onsubmit = () => { n = 1; };  // off by one
const extra = document.createElement('p'); extra.id = 'made-here';
document.getElementById("made-here").textContent = `${n}`;
/* @end reset */
"""
BROKEN_HTML = """<!-- @broken reset -->
<dialog id="confirm"><form id="confirm-form"><button id="yes">Yes</button></form></dialog>
<!-- @end reset -->"""


def write_reference(folder, broken_html: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.html").write_text(PAGE.format(broken_html=broken_html))
    (folder / "app.js").write_text(SCRIPT)


def test_lookup_of_markup_that_only_the_ok_variant_has(tmp_path):
    write_reference(tmp_path, broken_html="")
    # the dialog lives only in the '@feature' HTML block, which the broken variant replaces;
    # the element the broken code creates itself is defined
    assert dangling_lookups(tmp_path, "reset") == {"app.js": {"confirm-form"}}


def test_markup_repeated_in_the_broken_variant_is_consistent(tmp_path):
    write_reference(tmp_path, broken_html=BROKEN_HTML)
    assert dangling_lookups(tmp_path, "reset") == {}
    assert dangling_lookups(tmp_path, "no-such-feature") == {}


def test_validate_names_file_feature_and_ids(tmp_path):
    task = copy.deepcopy(TASK)
    task["reference"] = "reference"
    task["features"] = {"reset": {"tasks": ["t0", "t1", "t2"]}}
    root = write_bench(tmp_path, task=task)
    write_reference(root / "tasks" / "mini" / "reference", broken_html="")
    res = CliRunner().invoke(app, ["validate", "--bench", str(root)])
    assert res.exit_code == 1
    out = " ".join(res.output.split())
    assert "tasks/mini/task.yaml" in out and "features.reset" in out
    assert "looks up #confirm-form in reference/app.js" in out

    write_reference(root / "tasks" / "mini" / "reference", broken_html=BROKEN_HTML)
    res = CliRunner().invoke(app, ["validate", "--bench", str(root)])
    assert res.exit_code == 0, res.output
