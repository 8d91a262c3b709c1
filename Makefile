# rlvr-grade — every target installs what it needs into .venv first.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install demo test test-fast test-integrations lint bench fidelity clean

install: $(STAMP)

$(STAMP): pyproject.toml setup.py rlvr_grade/sandbox/_child.c rlvr_grade/sandbox/_linux.c rlvr_harness/_dictver.c rlvr_harness/_arrays.c
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,beam]'
	$(PY) -m compileall -q rlvr_grade rlvr_harness
	touch $(STAMP)

demo: install
	$(VENV)/bin/rlvr-grade score samples/rollouts.jsonl -o samples/scored.jsonl --group-col problem --timeout 2 --summary-json samples/summary.json

test: install
	$(PY) -m pytest -q tests

# The quick loop: the pipeline, scoring and CLI tests, the project's structure and docs checks,
# and one right and one wrong row of every style through the real sandbox; tests marked `slow`
# (the cache's SIGKILL/resume drills, 10,000 rows) are left to `make test`, the whole suite (the
# sandbox's, the styles', the harness's, environments). Measured (2 shared cores, nice 10): ~109 s
# of CPU, 323 tests (4e3c25b); the wall clock is what the load leaves (docs/architecture.md "Tests" has the figures).
FAST := tests/pipeline tests/scoring tests/cli tests/project/test_structure.py tests/project/test_docs.py tests/sandbox/test_smoke.py

test-fast: install
	$(PY) -m pytest -q -m "not slow" $(FAST)

# Optional, not part of `make test`: a real trl GRPOTrainer (torch CPU, a tiny model built in the
# test, no downloads) trains a few steps with our reward. Its own venv: torch is heavy.
INT_VENV ?= .venv-integrations
INT_PY := $(INT_VENV)/bin/python
INT_STAMP := $(INT_VENV)/.installed

$(INT_STAMP): pyproject.toml setup.py rlvr_grade/sandbox/_child.c rlvr_grade/sandbox/_linux.c rlvr_harness/_dictver.c rlvr_harness/_arrays.c tests/integrations/requirements.txt
	$(PYTHON) -m venv $(INT_VENV)
	$(INT_PY) -m pip install -q --upgrade pip
	$(INT_PY) -m pip install -q -r tests/integrations/requirements.txt
	$(INT_PY) -m pip install -q -e '.[dev]'
	$(INT_PY) -m compileall -q rlvr_grade rlvr_harness
	touch $(INT_STAMP)

test-integrations: $(INT_STAMP)
	RLVR_GRADE_INTEGRATIONS=1 $(INT_PY) -m pytest -q -p no:cacheprovider tests/integrations

lint: install
	$(VENV)/bin/ruff check rlvr_grade rlvr_harness tests fidelity

BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	touch $(BENCH_STAMP)

# BENCH_ARGS=--quick for a smoke run; bench/run.py installs bubblewrap/runsc with apt if missing.
bench: install $(BENCH_STAMP)
	$(PY) -m compileall -q rlvr_grade rlvr_harness  # what a wheel install does: no module compiled per start
	$(PY) bench/run.py $(BENCH_ARGS)

# rlvr-grade against the reference graders on ../shared/data (RLVR_FIDELITY_DATA elsewhere); skips
# with a reason where there is none. The references get their own .venv-fidelity. Report:
# build/fidelity/report.json. FIDELITY_ARGS=--full for all 16,400 CodeGen-16B samples; --help for
# the rest (--datasets, --limit, --grader-arg). See docs/fidelity.md, "make fidelity".
fidelity: install
	$(PY) -m fidelity $(FIDELITY_ARGS)

clean:
	rm -rf $(VENV) $(INT_VENV) .venv-fidelity build samples/scored.jsonl samples/summary.json .pytest_cache
