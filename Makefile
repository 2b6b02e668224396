# Two commands for a fresh clone with only Python 3.11+ and make:
#   make serve   -> builds .venv with what serving needs (requirements/runtime.lock), serves
#                   on http://127.0.0.1:8080 (HOST=0.0.0.0 or PORT=... to change it)
#   make test    -> builds .venv with everything (requirements.lock), runs lint, types and
#                   every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One venv, two stamps: the runtime lock is the full lock's runtime part at the same
# versions (`make lock-runtime`), so the full install completes a runtime one in place and
# a venv with the full lock installed serves as it is.
STAMP := $(VENV)/.installed-$(shell cksum requirements.lock | cut -d' ' -f1)
RUNTIME_STAMP := $(VENV)/.runtime-$(shell cksum requirements/runtime.lock | cut -d' ' -f1)

.PHONY: test-packages serve test install install-runtime lock lock-runtime openapi rulings bench worst-case load

$(STAMP): requirements.lock
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	rm -f $(VENV)/.installed-*
	touch $@

$(RUNTIME_STAMP): requirements/runtime.lock
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/runtime.lock
	rm -f $(VENV)/.runtime-*
	touch $@

install: $(STAMP)

install-runtime: $(RUNTIME_STAMP)

# Debian packages the nginx, browser and walkthrough tests need (root or sudo).
test-packages:
	tools/install-test-packages.sh

# Loopback by default: HOST=0.0.0.0 make serve (or make serve HOST=0.0.0.0) listens on
# every interface, PORT=8081 elsewhere. The full install, when it is there, serves too.
serve: HOST ?= 127.0.0.1
serve: PORT ?= 8080
serve:
	@test -f $(STAMP) || $(MAKE) --no-print-directory install-runtime
	HOST=$(HOST) PORT=$(PORT) $(BIN)/gunicorn -c deploy/gunicorn.conf.py

# pytest on two workers (pytest-xdist): tests/conftest.py keeps the tests that share a server,
# a browser or clients/node_modules together on one worker (docs/testing.md).
# PYTEST_WORKERS=0 runs them in one process.
PYTEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup

# Regenerate the committed OpenAPI document from the code.
openapi: $(STAMP)
	FLASK_APP=service:create_app $(BIN)/flask openapi write --format=yaml openapi.yaml

# Regenerate docs/rulings.md from the rulings the service serves.
rulings: $(STAMP)
	$(BIN)/python tools/rulings_doc.py

# Re-pin every dependency (run after editing pyproject.toml).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --disable-pip-version-check '.[test]'
	.lock-venv/bin/pip freeze --exclude fire-control > requirements.lock
	rm -rf .lock-venv build *.egg-info
	$(MAKE) lock-runtime

# The container's lock: runtime dependencies only (no test tools), at the versions of
# requirements.lock. `make lock` runs it too.
lock-runtime:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --disable-pip-version-check -c requirements.lock .
	mkdir -p requirements
	.lock-venv/bin/pip freeze --exclude fire-control > requirements/runtime.lock
	rm -rf .lock-venv build *.egg-info

# Not part of `make test`: throughput against a bare Flask ceiling, by kind of endpoint,
# exit 1 past a target, and a 60 s soak (both need wrk: make test-packages installs it).
# See docs/performance.md.
bench: $(STAMP)
	$(BIN)/python bench/run.py

# Every endpoint's worst case at its limits, CPU per request; fails if any passes 50 ms.
worst-case: $(STAMP)
	$(BIN)/python bench/worst_case.py

load: $(STAMP)
	$(BIN)/python bench/load.py

# Not part of `make test`: mutation testing with mutmut, one module at a time, each in its
# own folder under var/mutation/ so a second run resumes where the first stopped
# (docs/testing.md). MODULE=salvo-solo for one module; `.venv/bin/python -m tests.mutation
# --list` names them, `--scores` prints the scores so far. MUTATION_JOBS=2 to use two cores.
.PHONY: mutation
mutation: $(STAMP)
	nice -n 19 $(BIN)/python -m tests.mutation $(MODULE)
