# semantic-affinity: every developer and CI entry point. `make help` lists them.
PY      ?= python3
VENV    ?= .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: help install test lint bench eval eval-dev robust e2e demo cluster clean

help: ## this list
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with test extras

test: $(STAMP) ## unit and component tests (no control plane needed)
	$(BIN)/pytest -m 'not e2e' -q

lint: $(STAMP) ## ruff, then the layer contracts (import-linter, [tool.importlinter] in pyproject.toml)
	$(BIN)/ruff check shared observability webhook scorer semaff nodeagent localcluster tests certs hack charts
	$(BIN)/lint-imports

bench: $(STAMP) ## benchmarks: prints tables, last line one JSON object of figures
	$(BIN)/python -m tests.bench

eval: $(STAMP) ## score the embedded analyser on the held-out split (tests/data/eval/holdout/; figures only, no rows: never tune on it)
	$(BIN)/semaff eval tests/data/eval/holdout/textbook.jsonl --backend embedded --max-failures 0
	$(BIN)/semaff eval tests/data/eval/holdout/realworld.jsonl --backend embedded --max-failures 0
	$(BIN)/semaff eval tests/data/eval/holdout/fr.jsonl --backend embedded --max-failures 0
	$(BIN)/semaff eval tests/data/eval/holdout/textbook2.jsonl --backend embedded --max-failures 0
	$(BIN)/semaff eval tests/data/eval/holdout/realworld2.jsonl --backend embedded --max-failures 0
	$(BIN)/semaff eval tests/data/eval/holdout/fr2.jsonl --backend embedded --max-failures 0

eval-dev: $(STAMP) ## the same on the development splits (what the embedded analyser is tuned on)
	$(BIN)/semaff eval tests/data/eval/dev.jsonl --backend embedded
	$(BIN)/semaff eval tests/data/eval/dev2.jsonl --backend embedded
	$(BIN)/semaff eval tests/data/eval/dev3.jsonl --backend embedded
	$(BIN)/semaff eval tests/data/eval/dev4.jsonl --backend embedded
	$(BIN)/semaff eval tests/data/eval/dev-fr.jsonl --backend embedded
	$(BIN)/semaff eval tests/data/eval/dev-polarity.jsonl --backend embedded

robust: $(STAMP) ## the development rows typed differently (curly quotes, no accents, typos, ...): what changes
	$(BIN)/semaff robust tests/data/eval/dev*.jsonl tests/data/eval/tuning/*.jsonl --backend embedded --examples 5

e2e: $(STAMP) ## every real-control-plane test, incl. the node tier (real node + chart; root) and the six scenarios
	bash hack/build-control-plane.sh >/dev/null
	bash hack/node/install-runtime.sh
	bash hack/build-kwok.sh >/dev/null
	$(BIN)/pytest -m e2e -q tests

demo: $(STAMP) ## start a local control plane, webhook and scorer; apply examples/; Ctrl-C to stop
	$(BIN)/python -m hack.demo

cluster: $(STAMP) ## the chart on a local cluster: one real node (kubelet, containerd) + 8 KWOK nodes; Ctrl-C to stop (root)
	bash hack/node/install-runtime.sh
	bash hack/build-control-plane.sh >/dev/null
	bash hack/build-kwok.sh >/dev/null
	$(BIN)/python -m localcluster.cluster

clean: ## remove the virtualenv and caches (not the cached control-plane binaries)
	rm -rf $(VENV) .pytest_cache .ruff_cache .import_linter_cache
