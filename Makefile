# rlvr-grade — every target installs what it needs into .venv first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,beam]'
	touch $(STAMP)

demo: install
	$(VENV)/bin/rlvr-grade score samples/rollouts.jsonl -o samples/scored.jsonl --group-col problem --timeout 2 --summary-json samples/summary.json

test: install
	$(PY) -m pytest -q tests

lint: install
	$(VENV)/bin/ruff check rlvr_grade tests

bench: install
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) samples/scored.jsonl samples/summary.json .pytest_cache
