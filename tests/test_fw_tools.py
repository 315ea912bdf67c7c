"""tools/deploy against a temporary folder; the builders' wiring table and picture."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tools import deploy, wiring

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.0 on 2025-01-01; Raspberry Pi Pico\n")
    (d / "code.py").write_text("print('hello')\n")
    (d / "hw").mkdir()
    (d / "hw" / "stale.py").write_text("# removed upstream\n")
    return d


def test_deploy_copies_the_firmware(drive):
    written = deploy.deploy(drive, out=open("/dev/null", "w"))
    assert (drive / "code.py").read_text() == (ROOT / "code.py").read_text()
    assert (drive / "boot.py").read_text() == (ROOT / "boot.py").read_text()
    for package in ("engine", "hw"):
        here = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / package).rglob("*.py"))
        there = sorted(p.relative_to(drive).as_posix() for p in (drive / package).rglob("*")
                       if p.is_file())
        assert here == there  # all modules, no __pycache__, no stale file
    assert not (drive / "hw" / "stale.py").exists()
    assert (drive / "settings.toml").read_text() == (ROOT / "tools" / "settings.toml").read_text()
    assert not (drive / "lib" / "requirements.txt").exists()
    assert written[-1] == drive / "code.py"  # written last


def test_deploy_fills_the_empty_settings_file_of_a_fresh_drive(drive):
    # A freshly formatted CIRCUITPY drive already has an empty settings.toml.
    (drive / "settings.toml").write_text("")
    deploy.deploy(drive, out=open("/dev/null", "w"))
    assert (drive / "settings.toml").read_text() == (ROOT / "tools" / "settings.toml").read_text()


def test_deploy_keeps_existing_settings_unless_asked(drive, tmp_path):
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "school"\n')
    deploy.deploy(drive, out=open("/dev/null", "w"))
    assert "school" in (drive / "settings.toml").read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text('CSPEED_ROTATION = "180"\n')
    deploy.deploy(drive, settings=mine, out=open("/dev/null", "w"))
    assert (drive / "settings.toml").read_text() == 'CSPEED_ROTATION = "180"\n'


def test_deploy_refuses_a_folder_that_is_not_circuitpython(tmp_path):
    plain = tmp_path / "USBSTICK"
    plain.mkdir()
    result = subprocess.run([sys.executable, "-m", "tools.deploy", str(plain)], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "not a CircuitPython drive" in result.stderr and "boot_out.txt" in result.stderr
    assert list(plain.iterdir()) == []
    result = subprocess.run([sys.executable, "-m", "tools.deploy", str(tmp_path / "nope")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and "not a folder" in result.stderr


def test_deploy_cli_lists_missing_libraries(drive):
    result = subprocess.run([sys.executable, "-m", "tools.deploy", str(drive)], cwd=ROOT,
                            capture_output=True, text=True, check=True)
    assert "circup --path" in result.stdout and "adafruit_ili9341" in result.stdout
    (drive / "lib").mkdir(exist_ok=True)
    for name in deploy.required_libraries():
        (drive / "lib" / (deploy.module_name(name) + ".mpy")).write_bytes(b"")
    assert deploy.missing_libraries(drive) == []


def test_dry_run_writes_nothing(drive):
    before = sorted(p.name for p in drive.rglob("*"))
    deploy.deploy(drive, dry_run=True, out=open("/dev/null", "w"))
    assert sorted(p.name for p in drive.rglob("*")) == before


def test_build_doc_wiring_table_is_generated_from_the_profile():
    text = (ROOT / "docs" / "BUILD.md").read_text()
    match = re.search(r"<!-- wiring:begin -->\n(.*?)\n<!-- wiring:end -->", text, re.S)
    assert match, "docs/BUILD.md lost its wiring markers"
    assert match.group(1) == wiring.markdown()


def test_wiring_table_matches_the_firmware_pins():
    from hw.board.profiles import PROFILES, REFERENCE

    rows = wiring.rows()
    prof = PROFILES[REFERENCE]
    button_pins = [r[2] for r in rows if "button" in r[0]]
    assert button_pins == list(prof["buttons"]["pins"])
    pico_numbers = [int(r[3]) for r in rows if r[3] != "-"]
    assert all(1 <= n <= 40 for n in pico_numbers)
    assert len({r[2] for r in rows if r[2].startswith("GP")}) == \
        len([r for r in rows if r[2].startswith("GP")])  # no GPIO used twice


def test_every_ground_wire_goes_to_a_pico_ground_pin():
    rows = wiring.rows()
    grounds = [int(r[3]) for r in rows if r[2] == "GND"]
    # display, pad A bus, pad B bus, START, piezo, FRAM, link: one wire each, on real GND pins
    assert len(grounds) == 7
    assert set(grounds) <= set(wiring.PICO_GROUNDS)
    for pad in "AB":  # each pad's ground wire sits beside that pad's own pins
        pins = [int(r[3]) for r in rows if r[0].startswith("Pad " + pad)]
        assert len(pins) == 9 and max(pins) - min(pins) <= 9


def test_wiring_table_follows_the_link_pins_of_the_profile():
    """Issue 22: the link cable on the profile's UART pins, the piezo and the display's
    RESET where the profile (not the table) says; the classic wiring has no link rows."""
    from hw.board.profiles import PROFILES, REFERENCE

    prof = PROFILES[REFERENCE]
    rows = wiring.rows()
    link = {r[1]: r[2] for r in rows if r[0].startswith("Link")}
    assert (link["TX"], link["RX"]) == prof["link"] == ("GP20", "GP21")
    assert link["GND"] == "GND"
    piezo = {r[1]: r[2] for r in rows if r[0].startswith("Piezo")}
    assert piezo["+"] == prof["piezo"] == "GP28"
    reset = [r for r in rows if r[0].startswith("Display") and r[1] == "RESET"][0]
    assert prof["display"]["reset"] is None and reset[2] == "3V3(OUT)"


def test_wire_count_adds_up():
    from hw.board.profiles import PROFILES, REFERENCE

    rows = wiring.rows()
    wires = [r for r in rows if r[2] != "-"]
    counts = dict(wiring.wire_counts())
    assert sum(counts.values()) == len(wires) == 37
    assert counts == {"display": 8, "pad A": 9, "pad B": 9, "START": 2, "piezo": 2, "FRAM": 4,
                      "link": 3}
    assert "Wires to the Pico: 37" in wiring.summary()
    assert "39 pieces of wire" in wiring.summary()
    fram = {r[1]: r[2] for r in rows if r[0].startswith("FRAM")}  # the pins hw.store.fram opens
    assert (fram["SCL"], fram["SDA"]) == PROFILES[REFERENCE]["fram"]


def test_wiring_table_heading_names_the_board():
    assert "| Pico pin | Pico pin no. |" in wiring.markdown("pico_st7789_135")
    feather = wiring.markdown("feather_esp32s3_tft")
    assert "Pico" not in feather and "| Feather pin |" in feather
    # every row of the Feather table has as many cells as its heading
    lines = [line for line in feather.splitlines() if line.startswith("|")]
    assert {line.count("|") for line in lines} == {5}
    assert "| Board pin |" in wiring.markdown("builtin")


def test_wiring_png(tmp_path):
    from PIL import Image

    out = tmp_path / "w.png"
    wiring.draw_png(out)
    image = Image.open(out).convert("RGB")
    assert image.size == (wiring.WIDTH, wiring.HEIGHT)
    # the pads' wires are drawn in their colours, the ground buses in black
    colors = {color for _, color in image.getcolors(1 << 16)}
    assert wiring.COLORS["Pad A"] in colors and wiring.COLORS["Pad B"] in colors
    assert (ROOT / "docs" / "wiring.png").exists()


def test_wiring_png_refuses_a_board_it_cannot_draw(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tools.wiring", "--profile",
                             "feather_esp32s3_tft", "--png", str(tmp_path / "f.png")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Pico profiles only" in result.stderr
    assert not (tmp_path / "f.png").exists()


def test_wiring_doc_option_rewrites_only_the_marked_table(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("intro\n<!-- wiring:begin -->\nold table\n<!-- wiring:end -->\nrest\n")
    assert wiring.update_doc(doc)
    assert doc.read_text() == ("intro\n<!-- wiring:begin -->\n" + wiring.markdown() +
                               "\n<!-- wiring:end -->\nrest\n")
    assert not wiring.update_doc(doc)  # already current: nothing written
    (tmp_path / "plain.md").write_text("no markers\n")
    result = subprocess.run([sys.executable, "-m", "tools.wiring", "--doc",
                             str(tmp_path / "plain.md")], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 2 and "markers" in result.stderr


def test_layout_png(tmp_path):
    from PIL import Image

    out = tmp_path / "layout.png"
    wiring.draw_layout(out)
    image = Image.open(out).convert("RGB")
    assert image.size == (wiring.LAYOUT_WIDTH, wiring.LAYOUT_HEIGHT)
    colors = {color for _, color in image.getcolors(1 << 16)}
    assert wiring.COLORS["Pad A"] in colors and wiring.COLORS["Pad B"] in colors
    assert (ROOT / "docs" / "layout.png").exists()
    with pytest.raises(ValueError):
        wiring.draw_layout(out, "feather_esp32s3_tft")
