# make run: set everything up and start the app. make test: set everything up and run every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: setup browser qemu run serve-models test lint format bench bench-venvs clean

# llama.cpp is built from source for a portable x86-64 (AVX2, FMA, F16C), not with
# -march=native: a venv or a cached wheel built on a CPU with AVX-512 must not die
# with SIGILL on one without it (tests/test_portability.py proves it under QEMU). The
# multimodal library (mtmd, "llava") is not built: the product runs text models only, and
# llama-cpp-python loads it only for an image chat handler (194 s against 244 s on 2 cores).
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF

$(STAMP): requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)
	$(BIN)/python -m engine prepare

# Debian's Chromium for the browser test (Playwright drives it; nothing is downloaded).
browser:
	@command -v chromium >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

# Debian's QEMU user-mode emulator: tests/test_portability.py runs the native libraries
# and the test PostgreSQL on an emulated CPU without AVX-512.
qemu:
	@command -v qemu-x86_64 >/dev/null 2>&1 || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null)

run: setup
	$(BIN)/streamlit run app.py

# One model server for a team: the chat and the embedding model loaded once (README, "Running for a team").
MODELS_HOST ?= 127.0.0.1
MODELS_PORT ?= 8765
serve-models: $(STAMP)
	$(BIN)/python -m engine.models_server --host $(MODELS_HOST) --port $(MODELS_PORT)

test: setup browser qemu
	$(BIN)/python -m pytest -q

# Figures for BENCHMARKS.md; baseline-only packages come from requirements-bench.txt.
# bench_reports asks the first 4 held-out TAT-QA contexts (~15 min on 2 cores), then the scripted
# strong model on them; the whole held-out part: make bench REPORTS_FLAGS=--all
REPORTS_FLAGS ?=
bench: setup
	$(BIN)/pip install -q -r requirements-bench.txt
	@for name in parser engine_overhead embedded retrieval render concurrency grounding tables html store first_question idle report_tables pgvector qa ingest reports; do \
		flags=""; [ $$name = reports ] && flags="$(REPORTS_FLAGS)"; \
		echo "== bench/bench_$$name.py $$flags"; $(BIN)/python bench/bench_$$name.py $$flags 2>&1 | grep -v ScriptRunContext || exit 1; \
	done
	@echo "== bench/bench_reports.py --strong $(REPORTS_FLAGS)"; $(BIN)/python bench/bench_reports.py --strong --quiet $(REPORTS_FLAGS)

# The bench-only venvs of sentence-transformers' ONNX and OpenVINO backends (bench/bench_ingest.py runs
# them in a subprocess): their exporters pin transformers below the app's (bench/requirements-st-*.txt).
BENCH_VENVS ?= .venv-bench
bench-venvs:
	@for b in onnx openvino; do \
		[ -x $(BENCH_VENVS)/st-$$b/bin/python ] || $(PYTHON) -m venv $(BENCH_VENVS)/st-$$b; \
		$(BENCH_VENVS)/st-$$b/bin/pip install -q -r bench/requirements-st-$$b.txt || exit 1; \
	done
	$(BENCH_VENVS)/st-openvino/bin/pip install -q --no-deps optimum-intel==2.2.0

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) data/indexes
