"""boot.py turns on only the USB devices a board has endpoints for (no safe mode).

CircuitPython 10.2.1 builds its USB configuration from what boot.py left enabled and
resets into safe mode (USB_TOO_MANY_ENDPOINTS) when the board's endpoints run out
(``supervisor/shared/usb/usb_desc.c``). :func:`endpoints` redoes that count: it starts
at EP0 (one endpoint number, one IN, one OUT), then each serial port takes two IN
(notification + data) and one OUT on two endpoint numbers, and the drive, HID and
MIDI one IN and one OUT on one number each. Limits per chip come from each port's
``mpconfigport.mk`` (USB_NUM_ENDPOINT_PAIRS / USB_NUM_IN_ENDPOINTS).
"""

import runpy
import sys
import types
from pathlib import Path

import pytest

from hw.board import profiles
from tools.cpstubs import usb_cdc

ROOT = Path(__file__).resolve().parent.parent

# sys.platform -> (endpoint pairs, IN endpoints), CircuitPython 10.2.1.
CHIPS = {"RP2040": (8, 8), "RP2350": (8, 8), "Espressif": (7, 5), "MicroChip SAMD51": (8, 8),
         "nRF52840": (8, 8)}
# The chip of each listed profile's boards ("builtin": the boards its docs name).
PROFILE_CHIPS = {"pico_ili9341": ("RP2040", "RP2350"), "pico_st7789_240": ("RP2040",),
                 "pico_st7789_135": ("RP2040",), "feather_esp32s3_tft": ("Espressif",),
                 "builtin": ("MicroChip SAMD51", "nRF52840", "Espressif")}
# Enabled by default in 10.2.1 (circuitpy_mpconfig.mk): HID with >= 5 pairs, MIDI with >= 8.
DEFAULT_HID_PAIRS, DEFAULT_MIDI_PAIRS = 5, 8


def endpoints(console, data, drive=True, hid=False, midi=False):
    """Return (endpoint numbers used, IN endpoints, OUT endpoints), as usb_desc.c counts."""
    number, ins, outs = 1, 1, 1
    for on, n_numbers, n_in in ((console, 2, 2), (data, 2, 2), (drive, 1, 1), (hid, 1, 1),
                                (midi, 1, 1)):
        if on:
            number, ins, outs = number + n_numbers, ins + n_in, outs + 1
    return number, ins, outs


def fits(chip, **devices):
    pairs, max_in = CHIPS[chip]
    number, ins, outs = endpoints(**devices)
    return number <= pairs and ins <= max_in and outs <= pairs


class Toggle(types.ModuleType):
    """A usb_hid / usb_midi stand-in that records disable()."""

    def __init__(self, name):
        super().__init__(name)
        self.disabled = False

    def disable(self):
        self.disabled = True


def run_boot(monkeypatch, platform, with_hid_midi=True):
    """Run boot.py as a board of ``platform`` would; return what it left enabled."""
    usb_cdc.reset()
    monkeypatch.setattr(sys, "platform", platform)
    monkeypatch.setitem(sys.modules, "usb_cdc", usb_cdc)
    fakes = {}
    for name in ("usb_hid", "usb_midi"):
        if with_hid_midi:
            fakes[name] = Toggle(name)
            monkeypatch.setitem(sys.modules, name, fakes[name])
        else:
            monkeypatch.setitem(sys.modules, name, None)  # import raises ImportError
    runpy.run_path(str(ROOT / "boot.py"))
    pairs = CHIPS[platform][0]
    return {
        "console": usb_cdc.enabled["console"], "data": usb_cdc.enabled["data"],
        "hid": not fakes["usb_hid"].disabled if fakes else pairs >= DEFAULT_HID_PAIRS,
        "midi": not fakes["usb_midi"].disabled if fakes else pairs >= DEFAULT_MIDI_PAIRS,
    }


def test_the_endpoint_count_reproduces_the_esp32s3_safe_mode():
    # The old boot.py (data port on, HID and MIDI left at their defaults) on each chip.
    assert not fits("Espressif", console=True, data=True, hid=True)  # 7 IN > 5
    assert endpoints(console=True, data=True, hid=True)[1] == 7
    assert not fits("Espressif", console=True, data=True)  # 6 IN, even without HID
    assert fits("Espressif", console=True, data=False, hid=True)  # CircuitPython's default
    assert fits("RP2040", console=True, data=True, hid=True, midi=True)  # exactly 8 + 8


@pytest.mark.parametrize("chip", sorted(CHIPS))
def test_boot_py_fits_every_chip_and_keeps_the_console(monkeypatch, chip):
    enabled = run_boot(monkeypatch, chip)
    assert enabled["console"]
    assert not enabled["hid"] and not enabled["midi"]  # the handheld uses neither
    assert fits(chip, **enabled), (chip, enabled, endpoints(**enabled))


def test_every_listed_profile_boots_without_safe_mode(monkeypatch):
    assert set(PROFILE_CHIPS) == set(profiles.PROFILES)
    for name, chips in PROFILE_CHIPS.items():
        for chip in chips:
            assert fits(chip, **run_boot(monkeypatch, chip)), (name, chip)


def test_data_port_on_where_it_fits_off_on_esp32s2_s3(monkeypatch):
    assert run_boot(monkeypatch, "RP2040")["data"] is True
    assert run_boot(monkeypatch, "RP2350")["data"] is True
    assert run_boot(monkeypatch, "Espressif")["data"] is False


def test_boot_py_without_hid_or_midi_modules(monkeypatch):
    enabled = run_boot(monkeypatch, "RP2040", with_hid_midi=False)
    assert enabled["console"] and enabled["data"]


def test_boot_py_on_a_board_without_native_usb(monkeypatch):
    usb_cdc.reset()
    monkeypatch.setitem(sys.modules, "usb_cdc", None)
    monkeypatch.setitem(sys.modules, "usb_hid", None)
    monkeypatch.setitem(sys.modules, "usb_midi", None)
    runpy.run_path(str(ROOT / "boot.py"))  # no ImportError
    assert usb_cdc.enabled is None
