# `make run` and `make test` do all set-up themselves (see scripts/setup.sh).
PY := .venv/bin/python
export ANONYMIZED_TELEMETRY := false

.PHONY: setup run test clean

setup:
	@bash scripts/setup.sh

run: setup
	$(PY) -m asuka.cli validate
	$(PY) -m asuka.cli run $(RUN_ARGS)

test: setup
	$(PY) -m pytest -q -ra $(PYTEST_ARGS)

clean:
	rm -rf .venv .pytest_cache runs
