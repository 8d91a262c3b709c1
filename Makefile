# rlvr-grade — every target installs what it needs into .venv first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml rlvr_grade/sandbox/_child.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,beam]'
	$(PY) -m compileall -q rlvr_grade
	touch $(STAMP)

demo: install
	$(VENV)/bin/rlvr-grade score samples/rollouts.jsonl -o samples/scored.jsonl --group-col problem --timeout 2 --summary-json samples/summary.json

test: install
	$(PY) -m pytest -q tests

lint: install
	$(VENV)/bin/ruff check rlvr_grade tests

BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	touch $(BENCH_STAMP)

# BENCH_ARGS=--quick for a smoke run; bench/run.py installs bubblewrap/runsc with apt if missing.
bench: install $(BENCH_STAMP)
	$(PY) -m compileall -q rlvr_grade  # what a wheel install does: no module compiled per start
	$(PY) bench/run.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) samples/scored.jsonl samples/summary.json .pytest_cache
