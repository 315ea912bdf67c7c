"""Bad settings.toml values: a readable message naming the setting and the value,
on the display and the console; a safe default where there is one (the piezo),
a clear stop where there is not (rotation, pins)."""

from pathlib import Path

import pytest

from fw_rig import Rig

from hw import main as hw_main
from hw.app import App
from hw.board import profiles
from hw.board.buzzer import Buzzer, Silent
from hw.board.profiles import SettingError

PICO = "raspberry_pi_pico"


def power_on():
    """Every pin free again, as after a reset: the rig's build took the display's pins."""
    import microcontroller

    microcontroller.release_all()


@pytest.mark.parametrize("raw", ["180.0", "abc", "1e2", "45", "-90", ""])
def test_a_bad_rotation_is_an_error_naming_the_value(raw):
    with pytest.raises(SettingError) as caught:
        profiles.choose(PICO, False, {"CSPEED_ROTATION": raw}.get)
    assert str(caught.value).startswith("CSPEED_ROTATION=%s:" % raw)


def test_a_key_pin_list_with_an_empty_name_says_which():
    pins = ",".join("GP%d" % i for i in range(16)).split(",")
    text = ",".join(pins[:5] + [""] + pins[5:])  # 17 names, the 6th empty
    with pytest.raises(SettingError, match=r"CSPEED_KEY_PINS=.*pin name 6 \(A far 2\) is empty"):
        profiles.choose(PICO, False, {"CSPEED_KEY_PINS": text}.get)


@pytest.mark.parametrize("env, shared", [
    ({"CSPEED_PIEZO": "GP3"}, "GP3"),  # the piezo on a button's pin
    ({"CSPEED_KEY_PINS": ",".join(["GP%d" % i for i in range(16)] + ["GP18"])}, "GP18"),  # SCK
    ({"CSPEED_KEY_PINS": ",".join(["GP%d" % i for i in range(16)] + ["GP0"])}, "GP0"),
])
def test_a_pin_used_twice_is_refused(env, shared):
    with pytest.raises(SettingError, match="pin %s is used twice" % shared):
        profiles.choose(PICO, False, env.get)


def test_the_classic_wiring_keeps_an_old_kit_as_it_was():
    """CSPEED_WIRING=classic: display RESET on GP20 and the piezo on GP21, no link."""
    _, new = profiles.choose(PICO, False, {}.get)
    assert new["display"]["reset"] is None and new["piezo"] == "GP28"
    assert new["link"] == ("GP20", "GP21")
    _, old = profiles.choose(PICO, False, {"CSPEED_WIRING": "classic"}.get)
    assert old["display"]["reset"] == "GP20" and old["piezo"] == "GP21"
    assert old["link"] is None
    assert profiles.PROFILES[profiles.REFERENCE]["display"]["reset"] is None  # not mutated
    _, same = profiles.choose(PICO, False, {"CSPEED_WIRING": "link"}.get)
    assert same == new
    _, both = profiles.choose(PICO, False, {"CSPEED_WIRING": "classic",
                                            "CSPEED_PIEZO": "none"}.get)
    assert both["piezo"] is None and both["display"]["reset"] == "GP20"


@pytest.mark.parametrize("env, message", [
    ({"CSPEED_WIRING": "old"}, "CSPEED_WIRING=old: must be link or classic"),
    ({"CSPEED_WIRING": "classic", "CSPEED_PROFILE": "builtin"},
     "only a Pico profile has the classic wiring"),
    ({"CSPEED_PIEZO": "GP21"}, "pin GP21 is used twice: piezo and link cable RX"),
])
def test_a_bad_wiring_setting_is_named(env, message):
    with pytest.raises(SettingError, match=message):
        profiles.choose(PICO, True, env.get)


def test_every_profile_uses_each_pin_once():
    for name in profiles.PROFILES:
        profiles.check_pins(profiles.PROFILES[name])


def test_a_missing_piezo_pin_runs_silent_with_a_warning_on_the_title(capsys):
    rig = Rig(settings={"CSPEED_PIEZO": "GP99"})
    app = rig.app
    assert isinstance(app.buzzer, Silent)
    out = capsys.readouterr().out
    assert "CSPEED_PIEZO=GP99" in out
    warning = app.title_view.warning
    assert warning is not None and "CSPEED_PIEZO=GP99" in warning.text
    rig.start_match()  # and the firmware plays on
    assert Rig(settings={}).app.title_view.warning is None
    assert isinstance(Rig(settings={}).app.buzzer, Buzzer)


@pytest.mark.parametrize("env, named", [
    ({"CSPEED_ROTATION": "180.0"}, "CSPEED_ROTATION=180.0"),
    ({"CSPEED_KEY_PINS": "GP0,GP1"}, "CSPEED_KEY_PINS=GP0,GP1"),
    ({"CSPEED_PIEZO": "GP5"}, "pin GP5 is used twice"),
    ({"CSPEED_KEY_PINS": ",".join(["GP%d" % i for i in range(16)] + ["GP77"])}, "GP77"),
])
def test_a_fatal_setting_is_shown_on_the_display_and_the_firmware_stops(env, named, capsys,
                                                                          monkeypatch):
    Rig()  # a board, as the rig configures it
    power_on()
    stopped = []
    real_fail = hw_main.fail

    def stop(err, getenv=None, forever=True):
        assert forever  # the firmware stops on the message
        stopped.append(real_fail(err, getenv, forever=False))
        raise SystemExit(3)  # where the real one waits forever

    monkeypatch.setattr(hw_main, "fail", stop)
    with pytest.raises(SystemExit):
        hw_main.run(getenv=env.get)
    view = stopped[0]
    shown = " ".join(view.shown_lines())
    assert view.shown_lines()[0] == "SETTINGS ERROR" and named in shown
    out = capsys.readouterr().out
    assert named in out and "Traceback" not in out


# ------------------------------------- issue 23 items 13-14: every setting, every value

def run_to_error_screen(env, monkeypatch, capsys, board_ready=False):
    """``hw.main.run`` with ``env``: the error view it stopped on and the console."""
    if not board_ready:
        Rig()  # a board, as the rig configures it
    power_on()
    stopped = []
    real_fail = hw_main.fail

    def stop(err, getenv=None, forever=True):
        stopped.append(real_fail(err, getenv, forever=False))
        raise SystemExit(3)

    def ran(self, now):
        raise SystemExit(4)  # the firmware started: no error screen

    monkeypatch.setattr(hw_main, "fail", stop)
    monkeypatch.setattr(App, "step", ran)
    with pytest.raises(SystemExit) as caught:
        hw_main.run(getenv=env.get)
    assert caught.value.code == 3, "the firmware started instead of stopping on its error screen"
    return stopped[0], capsys.readouterr().out


BAD_NUMBERS = ["abc", "3.5", "1e3", "-1", "+5", "3_0", "0x10", "\u0661\u0662", "\uff13",
               "\u00a07", "7\u3000", "99999999999999999999", "", "3 0"]


@pytest.mark.parametrize("key, raw", [("CSPEED_ATTRACT_S", v) for v in BAD_NUMBERS + ["3601"]]
                         + [("CSPEED_DIAG", v) for v in BAD_NUMBERS + ["yes", "3", "on"]])
def test_a_bad_number_setting_is_named_on_the_display_and_the_console(key, raw, monkeypatch,
                                                                      capsys):
    view, out = run_to_error_screen({key: raw}, monkeypatch, capsys)
    shown = " ".join(view.shown_lines())
    named = "%s=%s:" % (key, raw.strip(" "))
    assert view.shown_lines()[0] == "SETTINGS ERROR"
    assert named in out and "Traceback" not in out
    assert " ".join(named.split()) in shown  # drawn with "?" for what the glyphs lack


@pytest.mark.parametrize("raw, seconds", [("0", 0), ("7", 7), (" 7 ", 7), ('"7"', 7), (7, 7),
                                          ("7 # idle", 7), ("3600", 3600), ("007", 7)])
def test_a_good_attract_setting_is_taken(raw, seconds):
    assert Rig(settings={"CSPEED_ATTRACT_S": raw}).app.attract_ms == seconds * 1000


def test_the_settings_parse_as_strictly_as_circuitpython_reads_them(tmp_path):
    """The same values through hw.board.profiles in CircuitPython 10.2.1's unix interpreter."""
    import json

    from mpy import cpvm  # tests/mpy/cpvm.py: CircuitPython's unix interpreter

    if cpvm.missing_reason():
        pytest.skip(cpvm.missing_reason())
    values = BAD_NUMBERS + ["0", "7", " 7 ", '"7"', "7 # x", "\t7\t", "3600", "3601"]
    script = Path(__file__).resolve().parent / "mpy" / "cp_settings.py"
    listed = tmp_path / "values.json"
    listed.write_text(json.dumps(values))
    done = cpvm.run(script, [listed], dirs=("hw", "tests"), timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    device = json.loads([line for line in done.stdout.split("\n") if line.strip()][-1])
    desktop = [outcome(v) for v in values]
    assert device == desktop


def outcome(value):
    try:
        return profiles.setting_int("CSPEED_ATTRACT_S", value, 20, 0, 3600)
    except SettingError as err:
        return str(err)


@pytest.mark.parametrize("env, words", [
    ({"CSPEED_KEY_PINS": ",".join(["GP%d" % i for i in range(16)] + ["GP99"])},
     "CSPEED_KEY_PINS=GP0,GP1,GP2,GP3,GP4,GP5,GP6,GP7,GP8,GP9,GP10,GP11,GP12,GP13,GP14,GP15,GP99:"
     " this board has no pin GP99 (button START)"),
    ({"CSPEED_PROFILE": "builtin"},
     "CSPEED_PROFILE=builtin: this board has no built-in display (board.DISPLAY)"),
    ({"CSPEED_PROFILE": "feather_esp32s3_tft"},
     "CSPEED_PROFILE=feather_esp32s3_tft: this board has no built-in display"),
    ({"CSPEED_FRAM": "GP99,GP98"}, "CSPEED_FRAM=GP99,GP98: this board has no pin GP99 (FRAM SCL)"),
])
def test_a_pin_or_display_message_names_the_setting_and_its_value(env, words, monkeypatch,
                                                                  capsys):
    view, out = run_to_error_screen(env, monkeypatch, capsys)
    assert "California Speed cannot start: %s" % words in out
    assert " ".join(words.split()) in " ".join(view.shown_lines()[1:]).replace("  ", " ") or \
        words.replace(" ", "") in "".join(view.shown_lines()[1:]).replace(" ", "")


def test_an_error_of_another_type_still_reaches_the_error_screen(monkeypatch, capsys):
    def broken(*args, **kwargs):
        raise RuntimeError("All timers in use")

    Rig()
    monkeypatch.setattr(hw_main, "make_buttons", broken)
    view, out = run_to_error_screen({}, monkeypatch, capsys, board_ready=True)
    assert "California Speed cannot start: RuntimeError: All timers in use" in out
    assert "RuntimeError: All timers in use" in " ".join(view.shown_lines())


def test_a_bad_profile_setting_still_gets_an_error_screen(monkeypatch, capsys):
    view, out = run_to_error_screen({"CSPEED_PROFILE": "nothing"}, monkeypatch, capsys)
    assert view is not None and view.shown_lines()[0] == "SETTINGS ERROR"
    assert "CSPEED_PROFILE=nothing" in " ".join(view.shown_lines())


def test_the_display_drivers_stay_on_the_emulated_picos_drive():
    """tools.picosim's drive follows the firmware's imports, not those inside a
    ``try`` that catches ImportError or Exception: the drivers must stay outside one."""
    from tools.picosim.drive import library_files

    taken = library_files()
    assert "adafruit_ili9341.py" in taken and "adafruit_st7789.py" in taken
