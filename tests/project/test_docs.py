"""The manual is a site: ``mkdocs build --strict`` (no broken link, no page left out of the
navigation) with the README as its home page and the CLI reference generated from the Typer
app; the README stays a front page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import typer.main

from asuka.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly_with_every_command(tmp_path):
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q",
                          "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    cli = (tmp_path / "site" / "cli" / "index.html").read_text()
    for name in typer.main.get_command(app).commands:
        assert f"asuka {name}</code>" in cli, name
    assert "--bench" in cli and "--lint-markup" in cli  # options, with their help
    home = (tmp_path / "site" / "index.html").read_text()
    assert "make test" in home and 'href="metrics/"' in home  # the README, its links rewritten


def test_the_readme_is_a_front_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    assert readme.splitlines()[3:5] == ["make run     # set up everything (Chromium, venv, deps), "
                                        "then run the main job offline",
                                        "make test    # set up everything, then run the test "
                                        "suite"]
    for link in [part.split(")")[0] for part in readme.split("](docs/")[1:]]:
        assert (ROOT / "docs" / link).is_file(), link
