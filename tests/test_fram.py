"""hw.store.fram: the record on an I2C FRAM, power cuts after every byte, and falling back to flash.

The FRAM is ``tools.emulate.fram.FileFRAM`` on the ``busio.I2C`` stand-in, which
behaves as CircuitPython 10.2.1's on an RP2040 (no pull-ups: ``RuntimeError``; an
address that does not answer: ``OSError``). Each cut "reboots": a new store and
record on the bytes the cut left, and the real firmware's ``App`` on them.
"""

import random
import sys

import pytest
from hypothesis import given, settings, strategies as st

from fw_rig import Rig
from hw.store import record as rec
from hw.app import App
from hw.app.modes import TITLE
from hw.games import forget
from hw.main import record_store
from hw.menu import DEFAULTS, Menu
from hw.board.profiles import PROFILES, SettingError, choose
from test_fw_stats import open_stats
from test_record import defaults_image, image, played
from tools.cpstubs import board
from tools.emulate.fram import FileFRAM
from tools.emulate.nvm import FileNVM, PowerCut

busio = sys.modules["busio"]
PROFILE = PROFILES["pico_ili9341"]


@pytest.fixture(autouse=True)
def no_devices():
    busio.detach_all()
    yield
    busio.detach_all()


def fitted(chip, nvm=None):
    """The store the firmware opens at boot with ``chip`` on GP27/GP26."""
    busio.detach_all()
    busio.attach("GP27", "GP26", chip)
    sys.modules["microcontroller"].release_all()  # a boot: the last store's bus is gone
    store = record_store(PROFILE, board, nvm if nvm is not None else FileNVM(None))
    assert isinstance(store, rec.ByteStore)
    return store


def loaded(store):
    r = rec.Record(DEFAULTS)
    return r.load(store), image(r)


def prepared(rnd, saves, nvm=None):
    """A FRAM after ``saves`` saves, and the record."""
    chip = FileFRAM()
    store = fitted(chip, nvm)
    r = rec.Record(DEFAULTS)
    r.load(store)
    for _ in range(saves):
        played(r, rnd, 3)
        assert r.save(store) >= 0
    return chip, r


def firmware_starts(chip):
    """The real firmware boots with this FRAM to the title, with valid menu values."""
    rig = firmware_starts.rig = getattr(firmware_starts, "rig", None) or Rig()
    store = fitted(FileFRAM())
    store.data[:] = chip.data[:rec.NVM_BYTES]
    app = App(rig.app.display, rig.app.buttons, nvm=store, levels=("a", "b", "c"))
    assert app.mode == TITLE
    for item, value in enumerate(app.menu.values):
        assert value < len(app.menu.choices(item))
    return image(app.menu.record)


def test_saves_alternate_between_two_slots_and_never_touch_the_newest():
    chip = FileFRAM()
    store = fitted(chip)
    r = rec.Record(DEFAULTS)
    assert r.load(store) == -1
    slots = []
    for n in range(5):
        r.game_won(n % 2, 9000)
        before = bytes(chip.data[r.slot * rec.SPACING:r.slot * rec.SPACING + rec.SLOT])
        newest = r.slot
        slots.append(r.save(store))
        if newest >= 0:  # the slot that was the newest is untouched
            off = newest * rec.SPACING
            assert bytes(chip.data[off:off + rec.SLOT]) == before
        again = rec.Record(DEFAULTS)
        assert again.load(fitted(chip)) == slots[-1]
        assert image(again) == image(r)
    assert slots == [0, 1, 0, 1, 0]
    assert chip.data[2 * rec.SPACING:] == bytes(len(chip.data) - 2 * rec.SPACING)  # nothing else


@pytest.mark.parametrize("saves", [0, 1, 2, 3])
def test_power_cut_after_every_byte(saves):
    rnd = random.Random(saves)
    chip, r = prepared(rnd, saves)
    old = loaded(fitted(chip))[1]
    played(r, rnd, 4)
    new = image(r)
    assert new != old
    for n in range(rec.SLOT + 1):
        copy = FileFRAM(cut_after=n)
        copy.data[:] = chip.data
        attempt = rec.Record(DEFAULTS)
        attempt.load(fitted(copy))
        attempt.buf[:] = r.buf
        attempt.dirty = True
        off = (1 if attempt.slot == 0 else 0) * rec.SPACING  # the slot a save writes
        try:
            assert attempt.save(fitted(copy)) >= 0
            assert n == rec.SLOT  # the last point lets the whole slot through
        except PowerCut:
            assert n < rec.SLOT
        copy.cut_after = -1
        got = loaded(fitted(copy))[1]
        # A cut before the last bytes leaves the new record whole if those bytes
        # already held the values being written (the chip is then in the written state).
        whole = bytes(copy.data[off:off + rec.SLOT]) == bytes(attempt.buf)
        assert whole == (n == rec.SLOT or bytes(chip.data[off + n:off + rec.SLOT])
                         == bytes(attempt.buf[n:]))
        assert got == (new if whole else old), "cut after %d bytes" % n
        assert firmware_starts(copy) == got


def test_a_new_fram_takes_over_the_flash_record_and_flash_is_never_written_again():
    rnd = random.Random(7)
    nvm = FileNVM(None, mode="rp2040")
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    for _ in range(3):
        played(r, rnd, 3)
        r.save(nvm)
    in_flash = image(r)
    flash = bytes(nvm._data)
    chip = FileFRAM()
    store = fitted(chip, nvm)
    moved = rec.Record(DEFAULTS)
    assert moved.load(store) == -1 and moved.dirty  # nothing on the FRAM yet
    assert image(moved) == in_flash
    assert moved.save(store) == 0
    played(moved, rnd, 3)
    assert moved.save(store) == 1
    assert bytes(nvm._data) == flash  # the flash stays as it was: no erase, no program
    assert loaded(fitted(chip, nvm))[1] == image(moved)


def test_no_fram_fitted_keeps_the_record_in_flash(capsys):
    forget("hw.store.fram")  # not loaded (not in sys.modules, not an attribute of hw.store)
    nvm = FileNVM(None)
    assert record_store(PROFILE, board, nvm) is nvm  # no pull-ups on GP27/GP26
    assert "no FRAM on SCL GP27, SDA GP26" in capsys.readouterr().out
    assert "hw.store.fram" not in sys.modules  # its code is not even loaded


class NotFram:
    """Something else on the bus at 0x50 (an EEPROM): no MB85RC device ID."""

    addresses = (0x50,)

    def i2c_write(self, address, data, stop):
        pass

    def i2c_read(self, address, n):
        return bytes(n)


def test_another_chip_at_0x50_is_not_used(capsys):
    busio.attach("GP27", "GP26", NotFram())
    nvm = FileNVM(None)
    assert record_store(PROFILE, board, nvm) is nvm
    assert "no FRAM at 0x50" in capsys.readouterr().out
    assert "hw.store.fram" not in sys.modules  # its code is dropped again


class Flaky(FileFRAM):
    """An FRAM on a loose wire: reads back one byte wrong while ``bad``."""

    bad = False

    def i2c_read(self, address, n):
        data = bytearray(super().i2c_read(address, n))
        if self.bad and address == 0x50 and n:
            data[-1] ^= 0x01
        return bytes(data)


def test_a_write_that_does_not_read_back_is_not_taken_as_saved(capsys):
    chip = Flaky()
    store = fitted(chip)
    r = rec.Record(DEFAULTS)
    r.load(store)
    r.game_won(0, 8000)
    assert r.save(store) == 0
    chip.bad = True
    r.game_won(0, 8000)
    assert r.save(store) == -1
    assert "FRAM write failed" in capsys.readouterr().out
    assert r.dirty  # tried again at the next save
    chip.bad = False
    assert r.save(store) == 1
    assert loaded(fitted(chip))[1] == image(r)


def test_the_fram_setting():
    env = {"CSPEED_FRAM": "none"}
    assert choose("raspberry_pi_pico", False, env.get)[1].get("fram") is None
    env = {"CSPEED_FRAM": "GP5,GP4", "CSPEED_KEY_PINS": None}
    with pytest.raises(SettingError, match="pin GP5 is used twice"):
        choose("raspberry_pi_pico", False, env.get)
    with pytest.raises(SettingError, match="CSPEED_FRAM=GP27: must be none or two pin names"):
        choose("raspberry_pi_pico", False, {"CSPEED_FRAM": "GP27"}.get)
    assert choose("raspberry_pi_pico", False, {}.get)[1]["fram"] == ("GP27", "GP26")


def test_the_firmware_keeps_its_stats_on_the_fram():
    chip = FileFRAM()
    rig = Rig(fram=chip)
    assert isinstance(rig.app.nvm, sys.modules["hw.store.fram"].FramStore)  # (re-imported at boot)
    rig.app.menu.record.game_won(0, 12000)
    rig.app.menu.save(rig.app.nvm)
    again = Rig(fram=chip)
    assert again.app.menu.record.games(0) == 1
    open_stats(again)  # title -> menu -> the stats screen
    assert again.app.stats_view.footer.text == "START: back    kept on the FRAM"
    assert again.app.stats_view.shown_lines()[1].split()[2] == "1"


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=rec.NVM_BYTES, max_size=rec.NVM_BYTES))
def test_any_fram_content_boots_to_defaults(data):
    chip = FileFRAM()
    chip.data[:rec.NVM_BYTES] = data
    slot, got = loaded(fitted(chip))
    assert slot == -1
    assert got[rec.STATS - rec.MENU:] == defaults_image()[rec.STATS - rec.MENU:]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 4),
       st.lists(st.tuples(st.integers(0, rec.NVM_BYTES - 1), st.integers(0, 255)), max_size=6))
def test_damaged_fram_boots_to_defaults_or_a_valid_record(saves, damage):
    chip, r = prepared(random.Random(saves), saves)
    for pos, value in damage:
        chip.data[pos] = value
    again = rec.Record(DEFAULTS)
    slot = again.load(fitted(chip))
    if slot >= 0:
        off = slot * rec.SPACING
        assert bytes(chip.data[off:off + rec.SLOT]) == bytes(again.buf)
    else:
        assert image(again)[rec.STATS - rec.MENU:] == defaults_image()[rec.STATS - rec.MENU:]


def test_the_emulator_keeps_the_record_in_its_fram_file(tmp_path):
    """``tools.emulate --fram FILE``: a menu change saved at the match start lands in FILE."""
    from tools.emulate import script
    from tools.emulate.main import Emulator

    path = tmp_path / "fram.bin"
    runs = []
    defaults = None
    for keys in ("300 tap START\n600 tap r\n1100 tap START\n", ""):
        emu = Emulator(virtual=True, seed=3, until_ms=1500, fram_path=str(path))
        emu.add_script(script.parse(keys))
        try:
            app = emu.run()
        finally:
            emu.close()
        assert isinstance(app.nvm, rec.ByteStore)
        runs.append(bytes(app.menu.values))
        defaults = bytes(Menu(levels=app.menu.levels).values)
    data = path.read_bytes()
    assert len(data) == 32768 and data[0:3] == b"CS\x03"  # slot 0, written once
    assert runs[0] != defaults  # pad A's "+" changed the first item
    assert runs[1] == runs[0]  # the next boot loaded it from the FRAM


def test_the_picosim_power_cut_tools_open_the_bus_as_the_firmware_does():
    from hw.main import FRAM_I2C_HZ
    from tools.picosim import framcut

    assert framcut.FREQUENCY == FRAM_I2C_HZ
    code = framcut.LOAD_CODE.read_text()
    assert "FREQUENCY = %d" % FRAM_I2C_HZ in code


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF), st.integers(1, 6))
def test_whatever_the_sequence_numbers_on_the_fram_every_save_is_the_one_loaded(seq0, seq1, saves):
    # Two valid slots with any sequence numbers (a damaged or foreign FRAM): the newest
    # is the end of the chain, and each save, to the other slot, is what loads next.
    chip = FileFRAM()
    for index, seq in ((0, seq0), (1, seq1)):
        other = rec.Record(DEFAULTS)
        other._put16(rec._SEQ, seq)
        other.game_won(index, 1000 + index)
        rec.crc_at(other.buf, 0, rec.CRC, True)
        chip.data[index * rec.SPACING:index * rec.SPACING + rec.SLOT] = other.buf
    r = rec.Record(DEFAULTS)
    assert r.load(fitted(chip)) in (0, 1)
    rnd = random.Random(seq0 ^ seq1)
    for _ in range(saves):
        played(r, rnd, 1)
        written = r.save(fitted(chip))
        assert loaded(fitted(chip)) == (written, image(r))
