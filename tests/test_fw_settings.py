"""Bad settings.toml values: a readable message naming the setting and the value,
on the display and the console; a safe default where there is one (the piezo),
a clear stop where there is not (rotation, pins)."""

import pytest

from fw_rig import Rig

from hw import main as hw_main
from hw.board import profiles
from hw.board.buzzer import Buzzer, Silent
from hw.board.profiles import SettingError

PICO = "raspberry_pi_pico"


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
