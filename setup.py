"""The wheel carries the benchmark: the repository keeps tasks/, prds/, dags/, subsets.yaml,
evaluators/, feedback_templates/ and experiments/ at its root, as users know them, and the build
copies them into the package as ``asuka/_bench`` (``asuka.benchmark.loading.bundled_dir`` finds
them there; in a checkout it finds them at the root)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BENCH = ["tasks", "prds", "dags", "subsets.yaml", "evaluators", "feedback_templates",
         "experiments"]


class BuildWithBenchmark(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout, where the folders already are
        dest = Path(self.build_lib) / "asuka" / "_bench"
        for name in BENCH:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(src, dest / name, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
            elif src.is_file():
                dest.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / name)


setup(cmdclass={"build_py": BuildWithBenchmark})
