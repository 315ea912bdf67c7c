"""Start-up on CPython as ``code.py`` runs it: what is left in memory once the loop runs.

``code.py`` calls ``hw.main.start`` and then forgets ``hw.main``: start-up's code (the
profiles' choice, the build, the error screen) must then be garbage, so nothing the
app keeps may refer back to it (the link cable's opener once did, a closure inside
``hw.main``). The CPU player's shared code, read for the menu's level names, is let go
again until a CPU player needs it. On the Pico each is kilobytes of heap
(docs/FIRMWARE.md); here a fresh interpreter shows what is still referenced.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = r"""
import gc, sys
from tools import cpstubs
cpstubs.install()
from tools.cpstubs import board, supervisor
board.configure("raspberry_pi_pico", None)
sys.modules["busio"].UART = object  # (the stubs have none: a Pico has, so Link is offered)
supervisor.set_ticks(1000)

from hw.games import forget
from hw.main import start

loop, args = start(getenv={}.get, seed=1)
forget("hw.main")
del start
gc.collect()
main_alive = any(isinstance(o, dict) and o.get("__name__") == "hw.main" for o in gc.get_objects())
app = loop.__self__
print("R", type(app).__name__, loop.__name__, main_alive, "engine.family_bot" in sys.modules,
      app.link is not None, app.menu.levels != ())
app.menu.choose(0)
from engine.family_bot import LEVEL_NAMES  # a CPU player's bot loads it again
print("R", LEVEL_NAMES[0])
"""


def run_script():
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin",
                                                       "SDL_VIDEODRIVER": "dummy"})
    assert done.returncode == 0, done.stderr
    return [line[2:] for line in done.stdout.split("\n") if line.startswith("R ")]


def test_start_up_code_is_garbage_once_the_loop_runs():
    first = run_script()[0].split()
    # the main loop is the App's; hw.main's globals are referenced by nothing (the
    # link's opener is there: the Pico profile has link pins)
    assert first[:3] == ["App", "run", "False"], first
    assert first[4] == "True"


def test_the_cpu_players_shared_code_is_let_go_after_the_menus_levels():
    first, second = run_script()[:2]
    fields = first.split()
    assert fields[3] == "False" and fields[5] == "True"  # let go, the levels kept
    assert second == "beginner"
