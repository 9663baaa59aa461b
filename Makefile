# The book's commands. `make help` lists them.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
PAPER ?=
SCALE ?= ci
SEED ?= 0
# make sweep: seeds as 0-9 or 0,3,5-7; SCHEDULER: a running Dask scheduler (default: a LocalCluster here)
SEEDS ?= 0-9
SCHEDULER ?=
JOBS ?= 2
# make test re-executes the pages under numerics other than those that wrote them (make book uses the
# machine's defaults): torch without its SIMD kernels and OpenBLAS on another core type stand in for a
# second machine. `make test NUMERICS=` checks under the defaults instead.
FOREIGN_CORETYPE := $(if $(filter Sandybridge,$(OPENBLAS_CORETYPE)),Haswell,Sandybridge)
NUMERICS ?= ATEN_CPU_CAPABILITY=default OPENBLAS_CORETYPE=$(FOREIGN_CORETYPE)
# one thread per notebook: two notebooks run side by side on two cores
export OMP_NUM_THREADS := 1
export MKL_NUM_THREADS := 1
export OPENBLAS_NUM_THREADS := 1
export PYDEVD_DISABLE_FILE_VALIDATION := 1
# glibc malloc keeps freed memory instead of faulting fresh pages in for every temporary (see RUN_ENV in
# src/repro/pipeline.py: about a quarter of a page's time otherwise)
export MALLOC_MMAP_THRESHOLD_ := 33554432
export MALLOC_TRIM_THRESHOLD_ := 4294967296
JB_BUILD := $(VENV)/bin/jupyter-book build . --config book/_config.yml --toc _toc.yml --path-output book -W --keep-going

.PHONY: help install lab-install lab book test unit check nbval html run serve clean sweep confirm bench-sweep

help: ## list the targets
	@echo "make book                            create .venv if missing, execute the notebooks whose inputs changed, build the site"
	@echo "make book FORCE=1                    re-execute every notebook"
	@echo "make test                            unit tests, re-execution with claim checks, nbval, book build (what CI runs)"
	@echo "make test NUMERICS=                  the same, re-executing under this machine's default numerics"
	@echo "make run PAPER=<slug> [SCALE=full] [SEED=n]   execute one notebook (written to book/_build/runs/)"
	@echo "make new PAPER=<slug>                scaffold a catalogued paper's notebook, kernel module and tests (no PAPER: list the slugs)"
	@echo "make sweep [SCALE=ci|full] [SEEDS=0-9] [PAPER=\"slug ...\"] [SCHEDULER=tcp://host:8786]"
	@echo "                                     every (notebook, seed) on Dask -> book/sweeps/<scale>/<slug>.json (resumable)"
	@echo "make confirm PAPER=\"slug ...\"     post-hoc tests on the held-out ci seeds 10-19, from the current (committed) commit"
	@echo "make bench-sweep [PAPER=\"slug ...\"]  ci sweep over seeds 0-1 through a Dask LocalCluster and the two-process pool"
	@echo "make lab                             JupyterLab on the notebooks (optional group: installs JupyterLab on first use)"
	@echo "make serve                           serve the built site on http://127.0.0.1:8000 (or open book/_build/html/index.html)"
	@echo "make clean                           remove build outputs (keeps .venv and the committed pages)"

$(STAMP): pyproject.toml requirements-lock.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "Installing pinned dependencies into $(VENV) ..."
	@time ( $(PY) -m pip install -q --disable-pip-version-check -c requirements-lock.txt -e . )
	@touch $(STAMP)

install: $(STAMP) ## create the virtual environment

# the optional lab group: JupyterLab with jupytext (make book and make test do not need it)
LAB_STAMP := $(VENV)/.lab-installed
$(LAB_STAMP): $(STAMP) pyproject.toml requirements-lock.txt
	@echo "Installing the optional lab group (JupyterLab, pinned) into $(VENV) ..."
	@$(PY) -m pip install -q --disable-pip-version-check -c requirements-lock.txt -e ".[lab]"
	@touch $(LAB_STAMP)

lab-install: $(LAB_STAMP)

lab: $(LAB_STAMP) ## JupyterLab on the book: notebooks/<slug>.py open as notebooks and save back to the .py
	@echo "JupyterLab on notebooks/ (jupytext.toml pairs each .py with its notebook view; Ctrl-C stops it)"
	@$(VENV)/bin/jupyter lab --ServerApp.ip=127.0.0.1 --ServerApp.root_dir=$(CURDIR) notebooks

book: $(STAMP) ## execute what changed, build the site
	@status=0; $(PY) -m repro.pipeline execute $(if $(FORCE),--force) --jobs $(JOBS) || status=$$?; \
	$(MAKE) --no-print-directory html || status=$$?; \
	echo "Open: $(CURDIR)/book/_build/html/index.html"; exit $$status

# incremental: Sphinx re-reads only the pages whose sources or records changed (repro.bookext notes the records
# as dependencies and always rebuilds the landing and status pages); a failed build forgets its saved state, so
# the next one reads every page again and shows every warning
html: $(STAMP)
	@$(PY) -m repro.pipeline toc
	@mkdir -p book/_build; $(JB_BUILD) > book/_build/build.log 2>&1 || { rm -rf book/_build/.doctrees; cat book/_build/build.log; exit 1; }
	@grep -E "build succeeded|WARNING:|ERROR:" book/_build/build.log | tail -20

test: $(STAMP) ## everything CI checks
	@echo "== unit tests (network blocked)"; $(PY) -m pytest -q -n $(JOBS) --dist loadgroup tests --ignore=tests/site
	@echo "== re-executing every notebook at ci scale under $(if $(NUMERICS),foreign numerics ($(NUMERICS)),this machine's default numerics), comparing claims records"
	@env $(NUMERICS) $(PY) -m repro.pipeline check --jobs $(JOBS)
	@echo "== nbval on the committed executed notebooks (same numerics)"; env $(NUMERICS) $(MAKE) --no-print-directory nbval
	@echo "== building the book (warnings are errors)"; $(MAKE) --no-print-directory html
	@echo "== the built site in headless Chromium (skipped, and said so, without /usr/bin/chromium)"
	@$(PY) -m pytest -q -rs tests/site
	@echo "make test: all passed"

nbval: $(STAMP)
	@if ls book/papers/*.ipynb >/dev/null 2>&1; then \
	  REPRO_CLAIMS_DIR=$(CURDIR)/build/nbval-claims $(PY) -m pytest -q --nbval-lax --nbval-cell-timeout=300 \
	    --nbval-sanitize-with tests/nbval-sanitize.cfg \
	    -n $(JOBS) --dist loadfile -p no:randomly book/papers; \
	else echo "no executed notebooks yet"; fi

run: $(STAMP) ## execute one notebook with papermill
	@test -n "$(PAPER)" || { echo "usage: make run PAPER=<slug> [SCALE=ci|full] [SEED=n]"; exit 2; }
	@$(PY) -m repro.pipeline run $(PAPER) --scale $(SCALE) --seed $(SEED)

.PHONY: new
new: $(STAMP) ## scaffold a new page (see CONTRIBUTING.md); refuses a slug not in book/catalog.yml or with a page
	@$(PY) -m repro.scaffold $(PAPER)

sweep: $(STAMP) ## every (notebook, seed) pair on Dask, one record per scale and paper in book/sweeps/
	@$(PY) -m repro.sweep run --scale $(SCALE) --seeds $(SEEDS) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(PAPER)

confirm: $(STAMP) ## post-hoc tests: ci scale on the held-out seeds 10-19, from a commit with the inputs frozen
	@test -n "$(PAPER)" || { echo "usage: make confirm PAPER=\"<slug> ...\" (commit the page first)"; exit 2; }
	@$(PY) -m repro.sweep confirm $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(PAPER)

bench-sweep: $(STAMP) ## the ci sweep over seeds 0-1 through a LocalCluster and through the two-process pool
	@$(PY) -m repro.sweep bench --seeds 0-1 --jobs $(JOBS) $(PAPER)

serve: ## serve the built site on loopback
	@$(PY) -m http.server 8000 --bind 127.0.0.1 --directory book/_build/html

clean:
	rm -rf book/_build build
