# The single entry point for people and CI. `make run` and `make test` set everything up themselves.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
PORT ?= 8080
CHROMIUM ?= /usr/bin/chromium
export PYTHONDONTWRITEBYTECODE := 1
export JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION := 1
# jsii marks Node 20 end-of-life since 2026-10-30 and prints a banner on every CDK call; Node 20 is what
# the build machines have, and synth and the infra tests pass on it.
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION := 20

.PHONY: help setup browser run reset serve test test-clock test-unit test-integration test-infra test-e2e lint typecheck fmt synth synth-offline deploy deploy-check bench cost clean

help:
	@echo "make run    - set up and chat with Memo on the local stack (moto, no AWS, no LLM key)"
	@echo "make test   - set up and run the whole suite (lint, types, tests)"
	@echo "make reset  - forget the chat's saved local data (data/local/state.json)"
	@echo "make serve  - the local HTTP server only (PORT=$(PORT), 127.0.0.1)"
	@echo "make synth  - synthesize the CDK stack into cdk.out, layers built (PyPI, Python 3.13; no Docker, no AWS credentials)"
	@echo "make synth-offline - the same without building the dependencies layer: for inspection only, cannot be deployed"
	@echo "make deploy - synthesize as cdk deploy does, refuse an unbuilt layer, then deploy (CDK_CONTEXT='-c key=value ...')"
	@echo "make deploy-check - synthesize as cdk deploy does and run every function as Lambda would (minutes)"
	@echo "make bench  - print the table of speed and AWS-call figures"
	@echo "make cost   - print what 1,000 conversations cost on AWS"
	@echo "make eval   - score the planner on the labelled English and Hebrew messages"

# The venv is exactly uv.lock (every group: runtime, dev, cdk; the project itself editable); a lock
# that no longer matches pyproject.toml stops here (`uv lock` updates it). pip bootstraps the locked uv.
UV_VERSION = $(shell sed -n '/^name = "uv"$$/{n;s/^version = "\(.*\)"$$/\1/p;}' uv.lock)
$(STAMP): pyproject.toml uv.lock
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"
	UV_PROJECT_ENVIRONMENT=$(VENV) $(VENV)/bin/uv sync --quiet --locked --all-groups
	touch $(STAMP)

setup: $(STAMP)

# The reviewer page's browser test drives Debian's chromium (Playwright's own browser download is not
# used). Installed when missing and this is a Debian machine we may administer; otherwise the test
# is skipped with its reason.
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's chromium for the browser test"; \
	    apt-get install -y -q chromium >/dev/null 2>&1 || \
	      (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1) || \
	      echo "could not install chromium: the browser test will be skipped"; \
	  else \
	    echo "chromium is not installed: the browser test will be skipped"; \
	  fi; \
	fi

run: $(STAMP)
	$(PY) -m memo.local.cli chat

reset: $(STAMP)
	$(PY) -m memo.local.cli reset

serve: $(STAMP)
	$(PY) -m memo.local.cli serve --port $(PORT)

# Style, then the shape: the import layers and adapters of pyproject.toml's [tool.importlinter]
# (no circles), the size limits (modules <= 500 lines, functions <= 60), and tests at the mirrored path.
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tools/check_sizes.py
	$(PY) tools/check_test_mirror.py

fmt: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

typecheck: $(STAMP)
	$(VENV)/bin/mypy layers/shared/python functions infra app.py benchmarks tools

# mypy (one process, minutes on a fresh clone with no cache) checks types beside pytest's two workers
# instead of before them; its output is printed after the tests and either failure fails `make test`.
# `--dist loadgroup` keeps the infra tests on one worker (one CDK synthesis per run, not per worker).
# Then `test-clock` runs the suite again with the clock years ahead and in another timezone.
test: lint browser
	@types_log=$$(mktemp); \
	$(VENV)/bin/mypy layers/shared/python functions infra app.py benchmarks tools >"$$types_log" 2>&1 & types_pid=$$!; \
	$(PY) -m pytest -n 2 --dist loadgroup --durations=25 -q; tests_rc=$$?; \
	wait $$types_pid; types_rc=$$?; \
	echo "mypy:"; cat "$$types_log"; rm -f "$$types_log"; \
	exit $$(( tests_rc != 0 || types_rc != 0 ))
	$(MAKE) --no-print-directory test-clock

# No test may depend on today's date: every test starts at the frozen TEST_NOW of
# tests/support/clock.py, and this run moves it years ahead, into another timezone (the machine's
# TZ as well as the users'), so a date written into a test fails here instead of on a later day.
# The CDK tests read no clock and are left out.
CLOCK_AHEAD ?= 2031-06-11T13:00:00+00:00
CLOCK_TZ ?= America/Los_Angeles
test-clock: $(STAMP)
	MEMO_TEST_NOW=$(CLOCK_AHEAD) TZ=$(CLOCK_TZ) $(PY) -m pytest -n 2 -q \
	  tests/unit tests/integration tests/faults tests/adversarial tests/e2e

test-unit: $(STAMP)
	$(PY) -m pytest -q tests/unit

test-integration: $(STAMP)
	$(PY) -m pytest -q tests/integration

test-infra: $(STAMP)
	$(PY) -m pytest -q tests/infra

test-e2e: $(STAMP)
	$(PY) -m pytest -q tests/e2e

# A deployable assembly: the dependencies layer built by pip (PyPI) and compiled by Python 3.13.
synth: $(STAMP)
	$(PY) app.py

# Offline, for reading the template: the dependencies layer is a placeholder, and the assembly carries
# a CloudFormation rule that fails any deployment of it.
synth-offline: $(STAMP)
	$(PY) app.py -c bundle=false -c placeholder_layer_for_tests=true

# Synthesize exactly as `cdk deploy` would (the CLI runs app.py: layers built), check that the assembly's
# dependencies layer is built (infra/deploy_guard.py), then deploy that assembly and nothing else.
# Settings: CDK_CONTEXT="-c alarm_email=ops@example.com ..."; CLI options: DEPLOY_ARGS="--require-approval never".
CDK ?= npx --yes aws-cdk@2
CDK_CONTEXT ?=
DEPLOY_ARGS ?=
deploy: $(STAMP)
	rm -rf cdk.out
	$(CDK) synth MemoStack --quiet $(CDK_CONTEXT)
	$(PY) -m infra.deploy_guard cdk.out MemoStack
	$(CDK) deploy MemoStack --app cdk.out $(DEPLOY_ARGS)

# The stack as `cdk deploy` ships it (layers built), each function run as Lambda runs it on a clean
# Python 3.13 against moto's server, cfn-lint, and the sizes against Lambda's quotas (docs/deploy.md).
# Needs PyPI and a Python 3.13; `ARGS=--keep` keeps its work directory.
deploy-check: $(STAMP)
	$(PY) -m tools.deploy_check $(ARGS)

bench: $(STAMP)
	$(PY) -m benchmarks

# What 1,000 conversations cost on AWS, from counts measured on the local stack (docs/cost.md).
cost: $(STAMP)
	$(PY) -m benchmarks.cost

# The rule planner (and the OpenAI planner when OPENAI_API_KEY is set) on benchmarks/eval/: the development set (utterances*.txt) and the held-out set (heldout.txt), apart.
eval: $(STAMP)
	$(PY) -m benchmarks.eval

clean:
	rm -rf $(VENV) cdk.out build .pytest_cache .mypy_cache .ruff_cache
