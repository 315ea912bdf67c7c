"""Board profiles, the one keypad scanner, the display drivers, boot.py and code.py."""

import runpy
import sys
from pathlib import Path

import pytest

from fw_rig import Rig
from hw.board import pads
from hw.board import profiles
from hw.board.pads import position
from tools.cpstubs import keypad, supervisor, usb_cdc

ROOT = Path(__file__).resolve().parent.parent


def test_pad_buttons_mirror_the_table_from_each_seat():
    assert [position(0, b) for b in range(8)] == [0, 1, 2, 3, 7, 6, 5, 4]
    assert [position(1, b) for b in range(8)] == [4, 5, 6, 7, 3, 2, 1, 0]
    for seat in range(2):
        assert sorted(position(seat, b) for b in range(8)) == list(range(8))


def test_one_scanner_for_every_button_active_low_fast_scan():
    rig = Rig()
    assert len(keypad.scanners) == 1
    scanner = rig.scanner
    assert isinstance(scanner, keypad.Keys)
    assert scanner.key_count == 17
    assert scanner.value_when_pressed is False and scanner.pull is True
    assert scanner.interval <= 0.002
    assert 1 < scanner.debounce_threshold <= 5
    assert [p.name for p in scanner.pins] == list(profiles.PROFILES["pico_ili9341"]["buttons"]["pins"])


def test_buttons_read_into_one_preallocated_event():
    rig = Rig()
    buttons = rig.app.buttons
    event = buttons.event
    t = rig.now
    rig.scanner.press(3, t)
    rig.scanner.press(12, t)
    assert not buttons.read()  # not debounced yet: the scan takes 3 samples
    supervisor.advance(10)
    assert buttons.read() and buttons.key == 3 and buttons.pressed
    assert 3 <= buttons.timestamp - t <= 6  # the scan that finished the debounce
    stamp = buttons.timestamp
    assert buttons.read() and buttons.key == 12 and buttons.timestamp == stamp  # same scan
    assert buttons.event is event
    assert not buttons.read()


def test_overflow_is_detected_once_and_cleared():
    rig = Rig()
    buttons = rig.app.buttons
    for i in range(70):
        rig.scanner.events.inject(0, i % 2 == 0, 5)
    assert rig.scanner.events.overflowed
    while buttons.read():
        pass
    assert buttons.check_overflow()
    assert not rig.scanner.events.overflowed
    assert not buttons.check_overflow()
    assert buttons.overflows == 1


def test_key_matrix_profile_on_a_board_with_a_display():
    rig = Rig(board_id="adafruit_feather_esp32s3_tft", builtin=(240, 135))
    assert rig.profile == "feather_esp32s3_tft"
    scanner = rig.scanner
    assert isinstance(scanner, keypad.KeyMatrix)
    assert scanner.key_count == 18
    start_key = scanner.row_column_to_key_number(2, 4)
    scanner.press(start_key, supervisor.now())
    supervisor.advance(10)  # past the debounce
    assert rig.app.buttons.read() and rig.app.buttons.key == profiles.KEY_START


def test_scanner_without_debounce_threshold_still_builds():
    class OldKeys(keypad.Keys):
        def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64):
            super().__init__(pins, value_when_pressed=value_when_pressed, pull=pull,
                             interval=interval, max_events=max_events)

    class OldKeypad:
        Keys = OldKeys
        Event = keypad.Event

    from tools.cpstubs import board
    buttons = pads.make_buttons(profiles.PROFILES["pico_ili9341"], board, OldKeypad)
    assert buttons.scanner.debounce_threshold == 1


def test_profile_choice_and_settings_parsing():
    env = {}
    name, prof = profiles.choose("raspberry_pi_pico2", False, env.get)
    assert name == "pico_ili9341" and prof["display"]["rotation"] == 0
    env = {"CSPEED_ROTATION": " 180 ", "CSPEED_PIEZO": "none"}
    name, prof = profiles.choose("raspberry_pi_pico", False, env.get)
    assert prof["display"]["rotation"] == 180 and prof["piezo"] is None
    assert profiles.PROFILES["pico_ili9341"]["display"]["rotation"] == 0  # not mutated
    name, prof = profiles.choose("raspberry_pi_pico", False,
                                 {"CSPEED_PROFILE": "pico_st7789_135"}.get)
    assert name == "pico_st7789_135" and prof["display"]["height"] == 135
    assert profiles.choose("some_board", True, {}.get)[0] == "builtin"
    with pytest.raises(ValueError, match="CSPEED_PROFILE"):
        profiles.choose("some_board", False, {}.get)
    with pytest.raises(ValueError, match="not one of"):
        profiles.choose("raspberry_pi_pico", False, {"CSPEED_PROFILE": "nope"}.get)
    with pytest.raises(ValueError, match="ROTATION"):
        profiles.choose("raspberry_pi_pico", False, {"CSPEED_ROTATION": "45"}.get)
    pins = ",".join("D%d" % i for i in range(14)) + ",A0,A1,A2"
    prof = profiles.choose("x", True, {"CSPEED_KEY_PINS": pins}.get)[1]
    assert prof["buttons"]["pins"][16] == "A2"
    with pytest.raises(ValueError, match="17"):
        profiles.choose("x", True, {"CSPEED_KEY_PINS": "D1,D2"}.get)
    assert profiles.setting_int("CSPEED_DIAG", 1, 0, 0, 1) == 1
    with pytest.raises(profiles.SettingError, match="CSPEED_DIAG=x: must be a whole number"):
        profiles.setting_int("CSPEED_DIAG", "x", 0, 0, 1)


def test_ili9341_reference_display_on_spi():
    import adafruit_ili9341

    rig = Rig()
    display = rig.app.display
    assert isinstance(display, adafruit_ili9341.ILI9341)
    assert (display.width, display.height) == (320, 240)
    assert display.auto_refresh is False
    bus = display._core._bus  # pylint: disable=protected-access
    assert bus.command.name == "GP16" and bus.chip_select.name == "GP17"
    sent = bus.bytes_sent
    rig.step(5)
    assert bus.bytes_sent >= sent  # one refresh per loop, over the stand-in bus
    assert display.root_group is rig.app.title_view.group


def test_st7789_profiles_build():
    import adafruit_st7789

    for name, size in (("pico_st7789_240", (240, 240)), ("pico_st7789_135", (240, 135))):
        rig = Rig(settings={"CSPEED_PROFILE": name})
        assert isinstance(rig.app.display, adafruit_st7789.ST7789)
        assert (rig.app.display.width, rig.app.display.height) == size


def test_piezo_beeps_on_cover_and_illegal():
    rig = Rig()
    pwm = rig.app.buzzer.pwm
    rig.start_match()
    cov = rig.coverable()
    rig.press_pos(0, cov[0])
    rig.run(30)
    assert (1760, 0x8000) in pwm.history
    assert pwm.duty_cycle == 0  # 15 ms tone is over
    bad = [p for p in range(8) if p not in rig.coverable()][0]
    rig.press_pos(1, bad)
    rig.step(5)
    rig.step(5)
    assert (220, 0x8000) in pwm.history


def test_code_py_runs_the_firmware_loop():
    """code.py as the board runs it; the fake clock stops it after 1000 loops."""
    Rig()  # reset the stand-ins, no display in use
    import displayio
    import microcontroller
    displayio.release_displays()
    keypad.scanners.clear()
    microcontroller.release_all()  # a power-on: the rig's buses and scanner held their pins
    supervisor.set_ticks((1 << 29) - 200)
    calls = []

    class Stop(Exception):
        pass

    def hook(now):
        calls.append(now)
        if len(calls) == 5:
            keypad.scanners[-1].tap(16, now)  # title -> menu
        if len(calls) == 100:
            keypad.scanners[-1].tap(16, now)  # menu -> match
        if len(calls) > 1000:
            raise Stop
        supervisor.advance(3)

    supervisor.set_hook(hook)
    try:
        with pytest.raises(Stop):
            runpy.run_path(str(ROOT / "code.py"))
    finally:
        supervisor.set_hook(None)
    text = bytes(usb_cdc.data.written).decode()
    assert text.startswith("CSLOG 1\nrules ")
    assert "\nstart " in text  # the first game started, across the 2**29 wrap
    assert any(t < 1000 for t in calls) and any(t > 1000 for t in calls)
    assert "code" not in sys.modules or sys.modules["code"].__file__ != str(ROOT / "code.py")
