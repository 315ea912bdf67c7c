# Dev entry points. Needs only python3 (with venv), node >= 20, npm and make.
#   make test   - bootstrap .venv and node_modules if stale, then run pytest
#   make play   - desktop emulator        make bench - engine benchmark
#   make picosim - the firmware on real CircuitPython in an emulated Pico (headless demo)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: venv node_modules test play bench picosim

# Stamp files make both bootstraps idempotent: redone only when the pins change.
venv: $(VENV)/.stamp
$(VENV)/.stamp: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -r requirements-dev.txt
	touch $@

node_modules: node_modules/.stamp
node_modules/.stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# dummy SDL drivers: pygame-based tests need no display or sound card.
test: export SDL_VIDEODRIVER = dummy
test: export SDL_AUDIODRIVER = dummy
test: export PYTHONDONTWRITEBYTECODE = 1
test: venv node_modules
	$(VENV)/bin/pytest -q -p no:cacheprovider tests

play: venv
	@if [ -e tools/emulate.py ] || [ -e tools/emulate/__main__.py ]; then \
		$(PY) -m tools.emulate; \
	else \
		echo "make play: no tools/emulate yet - the emulator arrives with the firmware issue"; \
	fi

bench: venv
	@if [ -e tools/bench_engine.py ] || [ -e tools/bench_engine/__main__.py ]; then \
		$(PY) -m tools.bench_engine; \
	else \
		echo "make bench: no tools/bench_engine yet"; \
	fi

# The real CircuitPython 10.2.1 Pico UF2 in rp2040js: attract demo, 30 s emulated
# (a few minutes of wall time); needs ../shared/circuitpython/ (docs/EMULATOR.md).
picosim: venv node_modules
	$(PY) -m tools.picosim --demo --quiet
