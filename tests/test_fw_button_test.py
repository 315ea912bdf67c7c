"""The button test mode: from the menu and from START held at power-on; lights, pins,
counts, bounces, console lines; leaving; the screen at every panel size."""

import sys

import pytest

from fw_rig import Rig
from hw import menu as menu_mod
from hw.app.modes import BUTTONS, MENU, TITLE
from hw.board.profiles import KEY_COUNT, KEY_START, PROFILES
from tools.cpstubs import keypad

A_N1 = 0  # pad A near 1 (GP0)
B_F4 = 15  # pad B far 4 (GP15)


def console_lines(capsys):
    """The ``btn`` lines printed on the console since the last call."""
    return [l for l in capsys.readouterr().out.splitlines() if l.startswith("btn ")]


def fields(line):
    """``btn KEY PIN down|up t=N presses=N bounces=N`` -> dict."""
    words = line.split()
    out = {"key": words[1], "pin": words[2], "state": words[3]}
    for word in words[4:]:
        name, _, value = word.partition("=")
        out[name] = int(value)
    return out


def open_from_menu(rig):
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == MENU
    menu = rig.app.menu
    for _ in range(10):
        if menu.cursor == menu_mod.BUTTON_TEST:
            break
        rig.tap(0)  # A near 1: up (wraps to the last item)
        rig.run(40)
    assert menu.cursor == menu_mod.BUTTON_TEST
    assert "Button test: START" in rig.app.menu_view.shown_lines()
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == BUTTONS and rig.app.button_view is not None


def hold_start(rig, ms):
    rig.scanner.press(KEY_START, rig.now)
    rig.run(ms, dt=10)


def test_menu_item_opens_it_keys_light_count_print_and_start_held_2s_leaves(capsys):
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    console_lines(capsys)
    open_from_menu(rig)
    app = rig.app
    test, view = app.button_test, app.button_view
    assert "hw.views.button_view" in sys.modules
    head = console_lines(capsys)
    assert head[0].startswith("btn test on") and "hold START 2 s" in head[0] and \
        "bounce <= 6 ms" in head[0]
    cell = view.cells[A_N1]
    assert cell.name.text == "n1 GP0" and cell.fill[0] == 0x3A3A3A  # grey: untested
    t_down = rig.now
    rig.scanner.press(A_N1, t_down)
    rig.run(30)
    assert test.down[A_N1] and cell.fill[0] == 0xFFD23F  # lit while held
    assert cell.count.text == "1 b0"
    t_up = rig.now
    rig.scanner.release(A_N1, t_up)
    rig.run(30)
    assert not test.down[A_N1] and cell.fill[0] == 0x1F7A3F  # green: tested, released
    lines = [fields(l) for l in console_lines(capsys)]
    assert [(l["key"], l["pin"], l["state"]) for l in lines] == \
        [("An1", "GP0", "down"), ("An1", "GP0", "up")]
    assert 3 <= lines[0]["t"] - t_down <= 7 and 3 <= lines[1]["t"] - t_up <= 7  # scan stamps
    assert lines[0]["presses"] == 1 and lines[1]["bounces"] == 0
    # nothing reaches the game or the menu while testing
    menu_before = app.menu.changes
    rig.tap(1)
    rig.run(40)
    assert app.mode == BUTTONS and app.menu.changes == menu_before and app.presses == 0
    # START: a tap is counted; held 2 s leaves (the screen counts down first)
    rig.tap(KEY_START)
    rig.run(40)
    assert app.mode == BUTTONS and test.presses[KEY_START] == 1
    hold_start(rig, 100)
    assert app.mode == BUTTONS and view.help.text == "Keep holding START: 2"
    rig.run(1000, dt=10)
    assert app.mode == BUTTONS and view.help.text == "Keep holding START: 1"
    rig.run(1000, dt=10)
    assert app.mode == MENU and app.button_test is None and app.button_view is None
    assert "hw.views.button_view" not in sys.modules and "hw.views.button_check" not in sys.modules
    rig.scanner.release(KEY_START, rig.now)
    rig.run(100)
    assert app.mode == MENU  # START's release after leaving does not start a match
    out = console_lines(capsys)
    assert out[-1] == "btn test off"


def test_start_held_at_power_on_opens_it_and_that_hold_does_not_leave(capsys):
    rig = Rig(held=(KEY_START,), settings={"CSPEED_ATTRACT_S": "0"})
    app = rig.app
    assert app.mode == TITLE
    rig.run(900, dt=10)
    assert app.mode == TITLE  # the long press (1 s) is not over yet
    rig.run(200, dt=10)
    assert app.mode == BUTTONS
    test = app.button_test
    assert test.down[KEY_START] and test.presses[KEY_START] == 1
    rig.run(4000, dt=10)  # still the power-on hold: not a request to leave
    assert app.mode == BUTTONS and app.button_view.help.text == "Hold START 2 s to leave"
    rig.scanner.release(KEY_START, rig.now)
    rig.run(50)
    assert not test.down[KEY_START]
    lines = console_lines(capsys)
    assert lines[0].startswith("btn test on")
    start = [fields(l) for l in lines[1:]]
    assert [(l["key"], l["pin"], l["state"]) for l in start] == \
        [("START", "GP22", "down"), ("START", "GP22", "up")]
    assert 0 <= start[0]["t"] - 1000 <= 10  # the rescan at the first pass (t=1000) saw it
    hold_start(rig, 2100)
    assert app.mode == MENU


def test_a_key_held_at_power_on_is_silent_until_the_rescan():
    """Why the first pass rescans (as CircuitPython's keypad does, see tools.cpstubs)."""
    from tools import cpstubs

    cpstubs.reset()
    keypad.held_at_start.add(KEY_START)
    from tools.cpstubs import board, supervisor

    scanner = keypad.Keys([getattr(board, "GP%d" % n) for n in range(17)],
                          value_when_pressed=False, interval=0.002, debounce_threshold=3)
    supervisor.advance(50)
    assert len(scanner.events) == 0
    scanner.reset()
    supervisor.advance(10)
    event = scanner.events.get()
    assert event.key_number == KEY_START and event.pressed
    cpstubs.reset()


def test_a_quick_start_tap_at_power_on_still_opens_the_menu():
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    rig.tap(KEY_START)
    rig.run(1500)
    assert rig.app.mode == MENU


def test_bounces_are_transitions_within_the_debounce_of_the_last(capsys):
    from hw.views.button_check import BOUNCE_MS
    from hw.board.pads import DEBOUNCE, SCAN_INTERVAL

    assert BOUNCE_MS == 6 and BOUNCE_MS >= DEBOUNCE * SCAN_INTERVAL * 1000
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    open_from_menu(rig)
    test = rig.app.button_test
    view = rig.app.button_view
    # Through the scanner: a 40 ms tap is no bounce. A contact closed for 6 ms passes the
    # 3-scan debounce (or not at all, by its phase against the 1.953 ms scans) and its
    # press and release come 3 scans (5-6 ms) apart: a bounce; so does a re-touch 6 ms
    # after letting go.
    rig.scanner.tap(B_F4, rig.now, hold=40)
    rig.run(100)
    assert test.presses[B_F4] == 1 and test.bounces[B_F4] == 0
    for i in range(6):
        rig.scanner.tap(B_F4, rig.now + i % 3, hold=6)
        rig.run(60)
    rig.scanner.press(B_F4, rig.now)
    rig.scanner.release(B_F4, rig.now + 30)
    rig.scanner.press(B_F4, rig.now + 36)
    rig.scanner.release(B_F4, rig.now + 90)
    rig.run(150)
    b_f4 = [fields(l) for l in console_lines(capsys) if l.startswith("btn Bf4")]
    gaps = [b["t"] - a["t"] for a, b in zip(b_f4, b_f4[1:])]
    expected = sum(1 for gap in gaps if gap <= BOUNCE_MS)
    assert expected >= 3 and min(gaps) >= 5  # the keypad never reports closer than 3 scans
    assert test.bounces[B_F4] == expected == b_f4[-1]["bounces"]
    assert test.presses[B_F4] == sum(1 for l in b_f4 if l["state"] == "down")
    assert all(l["pin"] == "GP15" for l in b_f4)
    cell = view.cells[B_F4]
    assert cell.count.text == "%d b%d" % (test.presses[B_F4], expected)
    assert cell.count.palette[1] == 0xFF7070  # red once bounced
    # Timed events straight into the queue: the threshold itself.
    events = rig.scanner.events
    t = rig.now + 500
    for key, gaps in ((2, (BOUNCE_MS, 40)), (3, (BOUNCE_MS + 1, 40))):
        events.inject(key, True, t)
        events.inject(key, False, t + gaps[0])
        events.inject(key, True, t + gaps[0] + gaps[1])
        events.inject(key, False, t + 200)
    rig.run(20)
    assert test.bounces[2] == 1 and test.bounces[3] == 0
    assert test.presses[2] == test.presses[3] == 2
    lines = [fields(l) for l in console_lines(capsys) if not l.startswith("btn test")]
    assert [l["t"] for l in lines if l["key"] == "An3"] == [t, t + 6, t + 46, t + 200]


def test_every_key_has_its_box_pin_and_count_and_pads_sit_as_on_the_table(capsys):
    rig = Rig(settings={"CSPEED_ATTRACT_S": "0"})
    open_from_menu(rig)
    test, view = rig.app.button_test, rig.app.button_view
    pins = PROFILES["pico_ili9341"]["buttons"]["pins"]
    for key in range(KEY_COUNT):
        if key != KEY_START:
            rig.tap(key)
            rig.run(40)
        name = view.cells[key].name.text
        assert name.endswith(" " + pins[key]), (key, name)
    assert all(test.tested[k] for k in range(16)) and not test.tested[KEY_START]
    assert all(test.presses[k] == 1 for k in range(16))
    lines = [fields(l) for l in console_lines(capsys) if not l.startswith("btn test")]
    assert [(l["key"], l["pin"]) for l in lines[::2]] == \
        [("%s%s%d" % ("AB"[k >> 3], "nf"[(k & 7) >= 4], (k & 3) + 1), pins[k])
         for k in range(16)]

    def box(key):
        group = view.cells[key].name.group
        return group.x, group.y

    # A at the bottom (near row lowest), B at the top (near row highest), upside down.
    assert box(0)[1] > box(4)[1] > box(KEY_START)[1] > box(12)[1] > box(8)[1]
    assert box(0)[0] < box(1)[0] < box(2)[0] < box(3)[0]  # A near 1-4: left to right
    assert box(4)[0] < box(7)[0]  # A far 1 on A's left
    assert box(8)[0] > box(11)[0] and box(12)[0] > box(15)[0]  # B's left is A's right
    assert view.cells[8].name.grid.flip_y and not view.cells[0].name.grid.flip_y
    assert box(KEY_START)[0] > box(2)[0]  # START on the right, as on the kit


@pytest.mark.parametrize("size", [(320, 240), (240, 240), (240, 135)])
def test_screen_fits_every_panel(size):
    rig = Rig(builtin=size, settings={"CSPEED_PROFILE": "builtin", "CSPEED_ATTRACT_S": "0"})
    open_from_menu(rig)
    view = rig.app.button_view
    boxes = []
    for cell in view.cells:
        for text in (cell.name, cell.count):
            g = text.group
            assert 0 <= g.x and g.x + text.pixel_width <= size[0]
            assert 0 <= g.y and g.y + text.pixel_height <= size[1]
            boxes.append((g.x, g.y, g.x + text.pixel_width, g.y + text.pixel_height))
    for text in (view.title, view.legend, view.help):
        g = text.group
        boxes.append((g.x, g.y, g.x + len(text.text) * 6, g.y + text.pixel_height))
    for i, a in enumerate(boxes):  # no two texts overlap
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_matrix_profile_names_rows_and_columns():
    from hw.views.button_check import ButtonTest

    written = []
    test = ButtonTest(PROFILES["feather_esp32s3_tft"]["buttons"],
                      write=lambda data, n: written.append(bytes(data[:n])))
    assert test.pins[0] == b"A0/D5" and test.pins[KEY_START] == b"A2/D11"
    test.key(KEY_START, True, 123456)
    assert written[-1] == b"btn START A2/D11 down t=123456 presses=1 bounces=0\n"


def test_emulator_button_test_option_holds_start_from_power_on(tmp_path):
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    script = tmp_path / "keys.txt"
    script.write_text("2000 tap A0\n")  # A's key over table position 0: pad A near 1
    env = dict(os.environ, PYTHONPATH=str(root), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy")
    run = subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", "none",
                          "--button-test", "--script", str(script), "--until", "2500"],
                         cwd=str(root), env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = [fields(l) for l in run.stdout.splitlines()
             if l.startswith("btn ") and not l.startswith("btn test")]
    assert "btn test on" in run.stdout
    assert [(l["key"], l["state"]) for l in lines] == \
        [("START", "down"), ("START", "up"), ("An1", "down"), ("An1", "up")]
    assert 1400 <= lines[1]["t"] - lines[0]["t"] <= 1600  # held 1.5 s from power-on
