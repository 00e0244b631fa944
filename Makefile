# `make run` and `make test` do all set-up themselves (see scripts/setup.sh).
PY := .venv/bin/python
# the suite on every core (one worker per core, a test file's tests on one worker: they share
# module fixtures); PYTEST_ARGS= runs it in one process
PYTEST_ARGS ?= -n auto --dist loadfile
export ANONYMIZED_TELEMETRY := false

.PHONY: setup run test clean

setup:
	@bash scripts/setup.sh

run: setup
	$(PY) -m asuka.cli validate
	$(PY) -m asuka.cli run $(RUN_ARGS)

test: setup
	@# the real agent CLIs at their pinned releases (a tool that fails to install is skipped
	@# by its test, with the installer's reason)
	-$(PY) -m asuka.codeagents.install claude-code codex aider opencode
	@# a Docker engine (docker.io, no bridge) and the images its tests use, built here
	-bash scripts/docker.sh
	$(PY) -m pytest -q -ra $(PYTEST_ARGS)

clean:
	rm -rf .venv .pytest_cache runs
