"""The menu on the pads, the rules it logs, vs CPU, pause/long START, saved choices."""

import json

from fw_rig import Rig, replay, split_matches
from hw import menu as menu_mod
from hw.app import App
from hw.app.modes import GAME, MENU, READY, TITLE
from hw.board.profiles import KEY_START
from tools.cpstubs import microcontroller


def open_menu(rig):
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == MENU


def menu_set(rig, item, value):
    """Move the cursor to ``item`` and step its value to ``value`` with pad A."""
    menu = rig.app.menu
    for _ in range(10):
        if menu.cursor == item:
            break
        rig.tap(1)  # A near 2: down
        rig.run(40)
    assert menu.cursor == item
    for _ in range(10):
        if menu.values[item] == value:
            break
        rig.tap(3)  # A near 4: next value
        rig.run(40)
    assert menu.values[item] == value


def test_menu_choices_become_the_logged_rules():
    rig = Rig()
    open_menu(rig)
    menu_set(rig, menu_mod.MATCH, 2)  # best of 5
    menu_set(rig, menu_mod.TIES, 1)  # coin
    menu_set(rig, menu_mod.PENALTY, 3)  # 1 s
    lines = rig.app.menu_view.shown_lines()
    assert "Match: best of 5" in lines and "Ties: coin toss" in lines
    assert "Penalty: 1 s" in lines
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.mode == READY
    rules = [l for l in rig.log_text().splitlines() if l.startswith("rules ")]
    assert rules == ["rules penalty=1000 stuck=1000 deal=300 tie=coin deadlock=13 "
                     "deadlock_result=draw rutter=0 wins=3"]
    assert rig.game.rules.wins == 3 and rig.game.penalty == 1000


def test_cpu_slot_hidden_without_engine_bot():
    menu = menu_mod.Menu(levels=())
    for _ in range(8):
        menu.move(1)
        assert menu.cursor not in (menu_mod.PLAYERS, menu_mod.LEVEL)
    assert not menu.vs_cpu()
    rig = Rig()
    app = App(rig.app.display, rig.app.buttons, levels=())
    app._show(MENU)  # pylint: disable=protected-access
    app.menu_view.update(0)
    shown = app.menu_view.shown_lines()
    assert not any(line.startswith("Players") or line.startswith("CPU") for line in shown)


def test_cpu_level_only_with_one_player():
    menu = menu_mod.Menu(levels=("slow", "fast"))
    assert menu.visible(menu_mod.PLAYERS) and not menu.visible(menu_mod.LEVEL)
    menu.cursor = menu_mod.PLAYERS
    menu.change(1)
    assert menu.vs_cpu() and menu.visible(menu_mod.LEVEL)


def test_one_player_vs_cpu_match_replays():
    from engine.family_bot import LEVEL_NAMES

    rig = Rig(start=(1 << 29) - 2000, seed=31)
    open_menu(rig)
    assert rig.app.menu.levels == ("beginner", "normal", "expert")  # perfect is for tests
    menu_set(rig, menu_mod.PLAYERS, 1)
    menu_set(rig, menu_mod.LEVEL, LEVEL_NAMES.index("expert"))
    menu_set(rig, menu_mod.MATCH, 0)  # best of 1
    rig.tap(KEY_START)
    rig.run_until(lambda: rig.app.mode == GAME)
    assert not rig.app.seats[1].human
    # B's pad is ignored: B mashes its buttons, nothing of it is logged as B's own.
    b_pressed = 0
    b_taps = set()
    spent = 0
    while rig.game.phase != 4:
        assert spent < 600000
        if spent % 200 == 0 and rig.game.phase == 2:
            rig.press_pos(1, 0)
            b_taps.add(rig.now)
            b_pressed += 1
            cov = rig.coverable()
            if cov and spent % 400 == 0:
                rig.press_pos(0, cov[0])
        rig.step(5)
        spent += 5
    rig.run(50)
    text = split_matches(rig.log_text())[0]
    b_lines = [l for l in text.splitlines() if l.startswith("press ") and l.split()[2] == "B"]
    assert b_lines  # the CPU played, through the same log path
    assert b_pressed > 0
    assert not [l for l in b_lines if int(l.split()[1]) in b_taps and l.split()[3] == "0"]
    assert replay(text) == rig.device_trace()
    over = [json.loads(l) for l in rig.device_trace() if '"over"' in l]
    assert over


def test_long_start_returns_to_menu_and_short_start_pauses():
    rig = Rig()
    rig.start_match()
    rig.tap(KEY_START, hold=200)
    rig.run(300)
    assert rig.app.paused and rig.app.mode == GAME
    rig.tap(KEY_START, hold=100)
    rig.run(200)
    assert not rig.app.paused
    rig.scanner.press(KEY_START, rig.now)
    rig.run(1100)
    assert rig.app.mode == MENU  # while still held
    rig.scanner.release(KEY_START, rig.now)
    rig.run(50)
    assert rig.app.mode == MENU
    assert "# match abandoned (START held)" in rig.log_text()
    # A new match starts a new log (its own header), which replays too.
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == READY
    rig.run_until(lambda: rig.app.mode == GAME and rig.game.phase == 2)
    matches = split_matches(rig.log_text())
    assert len(matches) == 2
    assert replay(matches[1])  # valid on its own


def test_menu_choices_survive_a_restart():
    rig = Rig()
    open_menu(rig)
    menu_set(rig, menu_mod.HINTS, 1)
    menu_set(rig, menu_mod.MATCH, 0)
    rig.tap(KEY_START)
    rig.run(30)
    assert bytes(microcontroller.nvm[0:3]) == b"CS\x03"  # hw.store.record, version 3
    assert rig.app.hints
    saved = bytearray(microcontroller.nvm)
    app = App(rig.app.display, rig.app.buttons, nvm=saved)
    assert app.menu.values[menu_mod.HINTS] == 1 and app.menu.values[menu_mod.MATCH] == 0
    assert app.mode == TITLE
    # the old 7-byte store (magic 0xC5, six choices) still gives its menu choices
    old = bytearray(b"\xc5\x00\x00\x00\x01\x01\x01") + bytearray(b"\xff" * 300)
    app = App(rig.app.display, rig.app.buttons, nvm=old)
    assert list(app.menu.values[menu_mod.MATCH:menu_mod.HINTS + 1]) == [0, 1, 1, 1]
    bad = menu_mod.Menu(levels=())
    bad.load(bytearray(b"\xc5\x09\x09\x09\x09\x09\x09"))  # out-of-range values ignored
    assert list(bad.values[:len(menu_mod.DEFAULTS)]) == list(menu_mod.DEFAULTS)
