"""A wheel built from this project runs anywhere: installed into a fresh venv, from an empty
directory, it finds its benchmark, templates and evaluator files inside the package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(argv: list[str], cwd: Path, env: dict | None = None,
         timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env=env)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_wheel_runs_from_an_empty_directory(tmp_path):
    built = _run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q",
                  "-w", str(tmp_path / "dist")], cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("asuka-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for part in ("asuka/_bench/tasks/loan-calculator/task.yaml", "asuka/_bench/subsets.yaml",
                 "asuka/_bench/prds/loan-calculator.md", "asuka/_bench/dags/loan-calculator.yaml",
                 "asuka/_bench/feedback_templates/", "asuka/_bench/evaluators/",
                 "asuka/report/templates/index.html", "asuka/loop/templates/step.md.j2"):
        assert any(n.startswith(part) for n in names), part
    assert not any(n.startswith(("tests/", "asuka/_bench/tests")) for n in names)

    # a fresh venv: the wheel installed into it, its dependencies seen from ours (a path
    # entry, not a site dir: our editable install of the checkout stays out of sight)
    venv = tmp_path / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path).returncode == 0
    py = venv / "bin" / "python"
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                cwd=tmp_path).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    installed = _run([str(py), "-m", "pip", "install", "--no-deps", "-q", str(wheel)],
                     cwd=tmp_path)
    assert installed.returncode == 0, installed.stderr

    empty = tmp_path / "somewhere"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("ASUKA_BENCH", "PYTHONPATH")}
    where = _run([str(py), "-c", "import asuka, asuka.benchmark.loading as l; "
                  "print(asuka.__file__); print(l.default_bench_dir())"], cwd=empty, env=env)
    package, bench = where.stdout.split()
    assert package.startswith(site) and bench.startswith(site), where.stdout  # not our checkout
    asuka = venv / "bin" / "asuka"
    valid = _run([str(asuka), "validate"], cwd=empty, env=env)
    n_tasks = sum((p / "task.yaml").is_file() for p in (ROOT / "tasks").iterdir())
    assert valid.returncode == 0 and f"{n_tasks} task(s) valid" in valid.stdout, valid.stdout
    run = _run([str(asuka), "run", "--task", "loan-calculator", "--profile", "strong",
                "--rounds", "1", "--out", str(empty / "runs"), "--run-id", "w"], cwd=empty,
               env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    summary = json.loads((empty / "runs" / "w" / "summary.json").read_text())
    (cell,) = summary["cells"]
    assert cell["task"] == "loan-calculator" and cell["rounds_run"] == 1
    assert cell["rounds"][0]["counts"]["passed"] > 0  # judged in Chromium, not skipped
    assert sorted(p.name for p in empty.iterdir()) == ["runs"]  # nothing else written here
