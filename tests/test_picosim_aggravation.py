"""Aggravation on the real CircuitPython 10.2.1 Pico UF2 (tools/picosim, as tests/test_picosim.py).

One emulated session (about 18.5 s of emulated time, a few minutes of wall time): the
Pico boots with Aggravation remembered in its nvm (as after it was chosen in the menu)
and ``CSPEED_DIAG=1``; after 1 s idle the firmware demos Aggravation (CPU vs CPU);
START ends the demo, START opens the menu, START begins a two-player match; both
players press through the Pico profile's GPIO pins, each turn a column's button and
then a button of the same pad row (the second picks a line when the first selected a
column, else it is a press of its own); the session ends after two quiet seconds.

Checked: the demo and the match logs replay, the scripted presses reached the engine
(fewer presses than buttons: a selecting button presses nothing), the Pico's last frame
is, pixel for pixel, the desktop's drawing (Blinka's displayio) of the table the log
replays to, and no frame allocated a byte.
"""

import io
import json
import os

import numpy as np
import pytest

from tools.picosim import analyze
from tools.picosim.run import missing

REASON = missing()
needs_pico = pytest.mark.skipif(REASON is not None, reason=REASON or "")

SEED = 2121
SETTINGS = {"CSPEED_ATTRACT_S": "1", "CSPEED_DIAG": "1"}
MENU_MS = (9000, 9500, 10000)  # stop the demo; title -> menu; menu -> match
PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS = 12200, 16400, 150
RUN_S = 18.5
# Script keys are 2x4 table positions (tools/emulate): A's buttons 0-3 are A0-A3 and
# 4-7 are A7 A6 A5 A4; B's 0-3 are B4-B7 and 4-7 are B3 B2 B1 B0.
BUTTON_KEYS = (("A0", "A1", "A2", "A3", "A7", "A6", "A5", "A4"),
               ("B4", "B5", "B6", "B7", "B3", "B2", "B1", "B0"))


def script_text():
    """Each turn one player presses a column's button, then a button of the same row."""
    lines = ["%d tap START" % ms for ms in MENU_MS]
    for i, ms in enumerate(range(PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS)):
        seat, turn = (i // 2) % 2, i // 4
        row = 4 if turn % 3 == 2 else 0  # now and then the far row
        button = row + (turn % 4 if i % 2 == 0 else (turn + 1) % 4)
        lines.append("%d tap %s" % (ms, BUTTON_KEYS[seat][button]))
    return "\n".join(lines) + "\n"


class Session:
    """The picosim run and what was read from it."""


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    from tools.emulate import script as scripts
    from tools.emulate.keys import logical_keys
    from tools.picosim.__main__ import game_nvm, seeded_code
    from tools.picosim.run import run

    tmp = tmp_path_factory.mktemp("picosim_aggravation")
    names = logical_keys()
    out = Session()
    out.events = [(ms, names[n], down) for ms, n, down in scripts.parse(script_text())]
    out.result = run(tmp / "run", seconds=RUN_S, events=out.events, settings=SETTINGS,
                     code=seeded_code(tmp, SEED), flash={"nvm": game_nvm("aggravation")})
    out.matches = analyze.split_matches(out.result.data)
    out.diag = analyze.diag_records(out.result)
    return out


def _trace(text):
    from tools.replay import replay

    out = io.StringIO()
    assert replay(io.StringIO(text), out) == 0, text
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _replayed(text):
    """The engine the log leaves (its last tick judged), replayed on the desktop."""
    from engine.grid import GridGame
    from engine.log import play_lines

    games = [GridGame()]
    play_lines(games[0], text.split("\n"), games.append)
    game = games[-1]
    game.finish()
    return game


@needs_pico
def test_aggravation_on_the_pico_demo_and_match_replay(session):
    result = session.result
    assert analyze.console_problems(result.console) == [], result.console
    data = result.data.decode()
    assert "# attract\nCSLOG 1\nrules game=aggravation frustration=0 " in data  # its demo
    demo, match = session.matches[0], session.matches[-1]
    assert demo != match and match.splitlines()[1].startswith(
        "rules game=aggravation frustration=0 target=10 call=400 ")
    assert any(e["ev"] == "press" for e in _trace(demo))  # the CPUs played
    presses = [e for e in _trace(match) if e["ev"] == "press"]
    assert {e["p"] for e in presses} == {"A", "B"} and any(e["r"] == "cover" for e in presses)
    scripted = len(range(PRESS_FROM_MS, PRESS_TO_MS, PRESS_EVERY_MS))
    # A column of several stacks (none or several of them legal) is selected by its
    # button: that button presses nothing, the next one of its row picks the line.
    assert 0 < len(presses) < scripted


@needs_pico
def test_aggravation_screen_on_the_pico_is_the_desktops_drawing_of_the_log(session):
    """The Pico's last frame, pixel for pixel, is the desktop's AggravationView (Blinka's
    displayio) of the table the match log replays to: the session ends quiet (no note,
    lock, selection or held tap left), so the log holds everything on the screen."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tools import cpstubs

    cpstubs.install()
    from engine.family import DEALING, PLAY, STUCK
    from hw import messages
    from hw.draw import gfx
    from hw.games.aggravation.keys import Controls
    from hw.games.aggravation.scene import card_sheets
    from hw.games.aggravation.table import AggravationView
    from tools.cpstubs.screen import make_display, snapshot

    game = _replayed(session.matches[-1])
    assert game.GAME == "aggravation" and game.phase in (DEALING, PLAY, STUCK)
    # The device ran on for 2 s after its last press and logged nothing more (a deal or
    # a pause's end would have been logged): its locks and holds ended by time alone.
    before = (game.phase, game.deals, game.stucks, list(game.tops))
    game.advance((game.clock + 1000) % (1 << 29))
    assert (game.phase, game.deals, game.stucks, list(game.tops)) == before  # time alone
    game.controls = Controls()
    display = make_display(320, 240)
    view = AggravationView(320, 240, gfx.glyph_sheet(), card_sheets(320, 240))
    display.root_group = view.group
    msg = messages.MSG_DEAL if game.phase == DEALING else \
        messages.MSG_STUCK if game.phase == STUCK else messages.MSG_NONE
    for _ in range(2):  # cards first, the message a frame later (as on the device)
        view.update(game, game.clock, msg, False)
    desktop = np.asarray(snapshot(display), dtype=np.uint8)
    device = session.result.frame
    assert device.shape == desktop.shape
    shift = np.array([3, 2, 3], dtype=np.uint8)  # RGB565 on the wire
    diff = np.argwhere(((device >> shift) != (desktop >> shift)).any(axis=2))
    assert len(diff) == 0, "%d pixels differ, e.g. (y, x) %s" % (len(diff), diff[:5].tolist())


@needs_pico
def test_aggravation_allocates_nothing_per_frame_on_the_pico(session):
    """CSPEED_DIAG on the real CircuitPython: 0 B per idle and per press frame in the
    demo and the match; the heap after build and at its lowest, for the record."""
    build = [r for r in session.diag if r["tag"] == "build"]
    stats = [r for r in session.diag if r["tag"] == "stats"]
    assert build and build[0]["free"] > 40000, session.diag
    last = stats[-1]
    assert last["press_n"] > 0 and last["idle_n"] > 0, stats
    assert all(r["press_alloc"] == 0 and r["idle_alloc"] == 0 for r in stats), stats
    assert last["low"] > 15000, stats
    for record in session.diag:  # the figures, for the record (pytest -s)
        print("Aggravation on the Pico: " + " ".join("%s=%s" % kv for kv in record.items()))


def test_a_logged_press_is_put_back_on_its_column_button():
    """``tools.picosim.analyze`` finds the pin of an Aggravation press with the kind's
    ``press_button`` (its ``target`` keeps state: no stand-in table answers it)."""
    log = b"CSLOG 1\nrules game=aggravation\nseed 1\nstart 0\npress 100 A 14\npress 200 B 5\n" \
          b"press 300 A 4\npress 400 B 25\n"
    assert analyze.press_buttons(log) == [7, 6, 0, 3]
