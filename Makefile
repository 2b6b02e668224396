# Two commands for a fresh clone with only Python 3.11+ and make:
#   make serve   -> builds .venv, installs the locked dependencies, serves on :8080
#   make test    -> builds .venv the same way, runs lint, types and every test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum requirements.lock | cut -d' ' -f1)

.PHONY: serve test install lock openapi

$(STAMP): requirements.lock
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/gunicorn -c deploy/gunicorn.conf.py

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

# Regenerate the committed OpenAPI document from the code.
openapi: $(STAMP)
	FLASK_APP=service:create_app $(BIN)/flask openapi write --format=yaml openapi.yaml

# Re-pin every dependency (run after editing pyproject.toml).
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet --disable-pip-version-check '.[test]'
	.lock-venv/bin/pip freeze --exclude fire-control > requirements.lock
	rm -rf .lock-venv build *.egg-info
