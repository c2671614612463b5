# Felt: `make run` serves the site, `make test` runs every test. See README.md.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --disable-pip-version-check --quiet
# uv installs the pinned packages several times faster than pip (8 s against
# 48 s for the test set from a warm cache on the 2-core VM); pip, which every
# venv has, installs uv itself. The bytecode is compiled at install time:
# where PYTHONDONTWRITEBYTECODE is set, as on these machines, every process
# would otherwise compile every module it imports from source, every time.
UV_VERSION := 0.13.9
UV_INSTALL := VIRTUAL_ENV=$(CURDIR)/$(VENV) $(BIN)/uv pip install --quiet --compile-bytecode

.PHONY: run test lint typecheck format clean-venv

run: $(VENV)/.runtime-installed
	$(BIN)/python scripts/run.py --started-by-make

# scripts/test.sh runs the type check (make typecheck) beside the tests.
test: $(VENV)/.dev-installed lint
	bash scripts/test.sh

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# mypy --strict over the engine and every Django app, with django-stubs
# ([tool.mypy] in pyproject.toml). The stubs' plugin loads the settings, which
# want a secret key: any value does for reading types.
typecheck: $(VENV)/.dev-installed
	SECRET_KEY=typecheck-only $(BIN)/mypy

format: $(VENV)/.dev-installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
		echo "Could not create $(VENV) with $(PYTHON); on Debian: apt-get install python3.11-venv" >&2; \
		exit 1; }

$(BIN)/uv: | $(BIN)/python
	$(PIP) install uv==$(UV_VERSION)

# PyICU (names that look alike: docs/accounts.md) has no Linux wheel: it is built
# against the system's ICU, whose headers the script installs where it can.
NEEDS_ICU := bash scripts/icu_build_needs.sh

# Stamp files: the packages are installed again only when a requirements file changes.
$(VENV)/.runtime-installed: requirements.txt | $(BIN)/uv
	@$(NEEDS_ICU)
	$(UV_INSTALL) -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(BIN)/uv
	@$(NEEDS_ICU)
	$(UV_INSTALL) -r requirements-dev.txt
	touch $(VENV)/.runtime-installed $@

clean-venv:
	rm -rf $(VENV)
