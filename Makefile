# Dev entry points. Needs only python3 (with venv), node >= 20, npm and make.
#   make test   - bootstrap .venv and node_modules if stale, then run every test (all cores)
#   make check  - the edit-test loop in about a minute: rules, properties, firmware, VM allocation
#   make play   - desktop emulator        make bench - engine benchmark
#   make picosim                                 the firmware on real CircuitPython in an emulated Pico (headless demo)
#   make cpstack                                 fetch and check the real CircuitPython 10.2.1 files (tools/cpstack)
#   make cpstack-unix                            build CircuitPython 10.2.1's unix interpreter (git, gcc-multilib)
#   make hil                                     tests/hil scenarios on both emulators, logs compared
#   make powercut                                power cut at every flash step / FRAM byte of a record save (emulated Pico)
#   make link LINK_SECONDS=300                   link sync figures on two emulated Picos (docs/LINK.md)
#   make simulate ARGS="--games 2000 --jobs 2"   bot-vs-bot statistics
#   make capture PORT=/dev/ttyACM1               match logs from a board (or /dev/pts/N)
#   make replay LOG=matches/match-001.log        what the engine decided
#   make wiring                                  redraw docs/wiring.png, layout.png, BUILD.md's table
#   make pictures                                redraw the docs' pictures of the code and the screens
#   make deploy DRIVE=/media/$USER/CIRCUITPY     copy the firmware to a board (python3 only)
#   make fuzz FUZZ_CASES=200000 FUZZ_SEED=7      long bad-input campaign (replay, capture, tool
#                                                arguments, settings, deploys)
#   make soak SOAK_CYCLES=200                    the firmware left on for emulated months (emulator)
# Every target bootstraps what it runs (deploy needs only python3's standard library).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: soak venv node_modules test check play bench fuzz simulate capture replay wiring deploy picosim hil powercut pictures heap libcost \
	cpstack cpstack-unix link

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
# The CircuitPython stack is fetched first; without it (offline) the tests that need
# a file skip, each saying which and `make cpstack`.
# On every core (pytest-xdist): tests/conftest.py keeps the tests that share an emulated
# Pico or a copy of the repository on one worker, the longest first. JOBS=0: one process.
JOBS ?= auto
PYTEST := $(VENV)/bin/pytest -q -p no:cacheprovider -n $(JOBS) --dist loadgroup --no-loadscope-reorder
test: venv node_modules
	@$(CPSTACK) fetch --quiet || echo "make test: going on; the tests that need what is missing skip"
	$(PYTEST) --durations=15 tests

# The edit-test loop: the engine's rules and properties, the firmware on the stand-ins
# (tools/cpstubs), the engine's zero-allocation proofs (tests/mpy, heap_lock).
# Everything else (emulators, tools, docs, the emulated Pico, power cuts) is make test's.
CHECK_TESTS := tests/test_*rules.py tests/test_*properties.py tests/test_fw_*.py \
	tests/test_micropython.py
# The VM proofs run in CircuitPython's interpreter here (native: seconds); make test runs
# them in MicroPython's too (the npm VM: five times slower). The screens are checked at
# 320x240 here; make test checks the 240x240 and 240x135 panels too (size1, size2).
CHECK_K := (not test_micropython or circuitpython and (vm_alloc.py or vm_row_alloc.py \
	or vm_speed_alloc.py or vm_aggravation_alloc.py or vm_bot_alloc.py or vm_refused_start.py \
	or vm_linked_alloc.py)) and not size1 and not size2
check: export SDL_VIDEODRIVER = dummy
check: export SDL_AUDIODRIVER = dummy
check: export PYTHONDONTWRITEBYTECODE = 1
check: venv node_modules
	$(PYTEST) $(CHECK_TESTS) -k "$(CHECK_K)"

# The same fuzz tests `make test` runs (3000 logs, 400 streams, 16 over a pty; 400 tool
# command lines, 30 settings boots, 60 deploys, 2 on real tmpfs drives), longer.
FUZZ_CASES ?= 100000
FUZZ_SEED ?= 1
FUZZ_CAPTURE_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 10 )))
FUZZ_PTY_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 1000 + 16 )))
FUZZ_TOOL_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 5 )))
FUZZ_SETTINGS_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 100 + 30 )))
FUZZ_DRIVE_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 20 )))
FUZZ_MOUNT_CASES ?= $(shell echo $$(( $(FUZZ_CASES) / 2000 + 2 )))
fuzz: export SDL_VIDEODRIVER = dummy
fuzz: export SDL_AUDIODRIVER = dummy
fuzz: export PYTHONDONTWRITEBYTECODE = 1
fuzz: venv
	FUZZ_CASES=$(FUZZ_CASES) FUZZ_SEED=$(FUZZ_SEED) FUZZ_CAPTURE_CASES=$(FUZZ_CAPTURE_CASES) \
	FUZZ_PTY_CASES=$(FUZZ_PTY_CASES) FUZZ_TOOL_CASES=$(FUZZ_TOOL_CASES) \
	FUZZ_SETTINGS_CASES=$(FUZZ_SETTINGS_CASES) FUZZ_DRIVE_CASES=$(FUZZ_DRIVE_CASES) \
	FUZZ_MOUNT_CASES=$(FUZZ_MOUNT_CASES) $(VENV)/bin/pytest -q -s -p no:cacheprovider tests/fuzz

play: venv
	$(PY) -m tools.emulate

# The benchmark runs the MicroPython VM too, so it needs node_modules as well.
bench: venv node_modules
	$(PY) -m tools.bench_engine

# Desktop tools. Options go in ARGS="..." (or PORT/OUT, LOG, DRIVE as shown).
simulate: venv
	$(PY) -m tools.simulate $(ARGS)

PORT ?= /dev/ttyACM1
OUT  ?= matches
capture: venv
	$(PY) -m tools.capture $(PORT) --out $(OUT) --trace $(ARGS)

replay: venv
	@test -n "$(LOG)" || { echo "make replay: name the log, e.g. make replay LOG=tests/golden/rules.log" >&2; exit 2; }
	$(PY) -m tools.replay $(LOG) $(ARGS)

# The docs' pictures, redrawn from the code: the layout, and the firmware's screens in
# the desktop emulator (tools/pictures.py lists them; tests/test_pictures.py checks them).
pictures: venv
	$(PY) -m tools.architecture --png docs/img/architecture.png
	$(PY) -m tools.pictures

# Heap per game, with and without the record FRAM, on the emulated Pico (minutes a run).
heap: venv node_modules cpstack
	$(PY) -m tools.picosim.heap $(ARGS)

# What adafruit_display_text / adafruit_displayio_layout would cost a kit's heap (emulated Pico).
libcost: venv node_modules cpstack
	$(PY) -m tools.picosim.libcost

wiring: venv
	$(PY) -m tools.wiring --png docs/wiring.png --layout docs/layout.png --doc docs/BUILD.md $(ARGS)

deploy:
	@test -n "$(DRIVE)" || { echo "make deploy: say where the board is mounted, e.g. make deploy DRIVE=/media/$$USER/CIRCUITPY" >&2; exit 2; }
	@$(CPSTACK) fetch --quiet mpy-cross || echo "make deploy: going on; the firmware goes as .py"
	$(PYTHON) -m tools.deploy "$(DRIVE)" $(ARGS)

# The real CircuitPython 10.2.1 stack (tools/cpstack, docs/EMULATOR.md): the Pico UF2,
# the RP2040 bootrom and CircuitPython's mpy-cross are fetched into ~/.cache (or
# $CSPEED_CIRCUITPYTHON) and checked; the unix interpreter is built from source.
# Standard library only: no venv needed.
CPSTACK := $(PYTHON) -m tools.cpstack
PICO_FILES := uf2 bootrom mpy-cross
cpstack:
	$(CPSTACK) fetch

cpstack-unix:
	PYTHON=$(PYTHON) tools/cpstack/build_unix.sh

# The real CircuitPython 10.2.1 Pico UF2 in rp2040js: attract demo, 30 s emulated
# (a few minutes of wall time).
picosim: venv node_modules
	@$(CPSTACK) fetch --quiet $(PICO_FILES)
	$(PY) -m tools.picosim --demo --quiet

# A power cut at every erase/program step (whole and half done) of a record save on
# the emulated Pico, the firmware booted on what each cut left (36 cut points, 40-odd
# minutes of wall time); make test tries 3 (tools/picosim/powercut.py, SHORT).
# TIMING=max uses the flash's datasheet maximum busy times. Then the same for the
# record's optional I2C FRAM: a cut after every data byte of the slot write and in its
# address bytes, three scenarios (tools/picosim/framcut.py; make test tries a few).
TIMING ?= typ
powercut: venv node_modules
	@$(CPSTACK) fetch --quiet $(PICO_FILES)
	$(PY) -m tools.picosim.powercut --all --timing $(TIMING)
	$(PY) -m tools.picosim.framcut --all

# Link figures on two emulated Picos (docs/LINK.md): the guest's presses mapped to the
# host's clock with the guest 0 and 100 ppm fast, LINK_SECONDS of presses each (about
# 5-10 minutes of wall time per emulated minute); make test runs a 12 s one. Then the
# firmware linked on both (--firmware): its mapping error and presses 3-6 ms apart
# with press-to-pixel as a player sees it (--no-diag), then with CSPEED_DIAG its heap
# and bytes per frame for every game, each measured even when one fails (LINK_FW_SECONDS
# of play each: about 12 min of wall time an emulated minute).
LINK_SECONDS ?= 60
LINK_FW_SECONDS ?= 20
link: export SDL_VIDEODRIVER = dummy
link: export SDL_AUDIODRIVER = dummy
link: venv node_modules
	@$(CPSTACK) fetch --quiet $(PICO_FILES)
	CSPEED_LINK=all $(VENV)/bin/pytest -q -p no:cacheprovider tests/test_picosim_link.py
	$(PY) -m tools.picosim.linkbench --seconds $(LINK_SECONDS) --json build/linkbench.json $(ARGS)
	$(PY) -m tools.picosim.linkbench --firmware --no-diag --seconds $(LINK_FW_SECONDS) \
		--json build/linkbench-fw.json $(ARGS)
	failed=0; for game in grid row speed aggravation; do \
		$(PY) -m tools.picosim.linkbench --firmware --game $$game --ppm 100 \
			--seconds $(LINK_FW_SECONDS) --json build/linkbench-fw-$$game.json || failed=1; \
	done; exit $$failed

# Every scenario of tests/hil on the Blinka emulator and the emulated Pico: the
# match logs must agree with each other and with the scenario's .expected trace.
hil: export SDL_VIDEODRIVER = dummy
hil: export SDL_AUDIODRIVER = dummy
hil: venv node_modules
	@$(CPSTACK) fetch --quiet $(PICO_FILES)
	$(PY) -m tools.hil --emulate --picosim tests/hil/*.script $(ARGS)

# The firmware in the desktop emulator left on for emulated days per cycle (attract
# mode, a match paused past 2**28 ms, the wrap crossed); make test runs 2 cycles.
SOAK_CYCLES ?= 200
soak: export SDL_VIDEODRIVER = dummy
soak: export PYTHONDONTWRITEBYTECODE = 1
soak: venv
	SOAK_CYCLES=$(SOAK_CYCLES) $(VENV)/bin/pytest -q -p no:cacheprovider tests/test_soak.py
