"""hw.store.record: the CRC, the ring of slots, saturation, and power cuts in the emulator's nvm model.

Power cuts: ``tools.emulate.nvm.FileNVM`` cuts the power after every byte of a save
(``bytes`` mode) and after every erase/program step of CircuitPython's RP2040 nvm
write (``rp2040`` mode); each time the board "reboots" (a new record, and the real
firmware's ``App`` on the nvm) and the loaded record must be the old or the new one.
"""

import random
import zlib

import pytest
from hypothesis import given, settings, strategies as st

from hw.store import record as rec
from hw.menu import DEFAULTS, Menu
from tools.emulate.nvm import FileNVM, PowerCut


RING_BYTES = (rec.RING - 1) * rec.SPACING + rec.SLOT  # the bytes the ring covers


def played(r, rnd, n=30):
    """Feed ``r`` a random history of games (what the app reports between games)."""
    for _ in range(n):
        seat = rnd.randrange(2)
        level = rnd.choice((-1, 0, 1, 2))
        r.game_won(seat, rnd.randrange(8000, 90000), level)
        if rnd.random() < 0.3:
            r.match_won(seat, level)
        if rnd.random() < 0.2:
            r.tie(rnd.randrange(2))
        r.reaction(rnd.randrange(2), rnd.randrange(150, 2000))


def image(r):
    """What a record holds: the menu and the stats (not the magic, version, sequence)."""
    return bytes(r.buf[rec.MENU:rec.CRC])


def loaded(nvm):
    r = rec.Record(DEFAULTS)
    slot = r.load(nvm)
    return slot, image(r)


def defaults_image():
    return image(rec.Record(DEFAULTS))


@given(st.binary(max_size=300))
def test_the_crc_is_zlibs_crc32(data):
    buf = bytearray(data) + bytearray(4)
    assert rec.crc_at(buf, 0, len(data), True)
    assert int.from_bytes(buf[len(data):], "little") == zlib.crc32(data)
    assert rec.crc_at(buf, 0, len(data), False)
    buf[len(data)] ^= 1
    assert not rec.crc_at(buf, 0, len(data), False)


def test_fresh_nvm_loads_defaults_and_first_save_uses_slot_0():
    nvm = bytearray(b"\xff" * 4096)
    r = rec.Record(DEFAULTS)
    assert r.load(nvm) == -1 and image(r) == defaults_image()
    assert r.fastest_ms(0) == -1 and r.reaction_ms(1) == -1 and r.streak(0) == 0
    assert r.save(nvm) == -1  # nothing changed: nothing written
    r.game_won(0, 12345)
    assert r.save(nvm) == 0
    second = rec.SPACING
    assert nvm[second:second + rec.SLOT] == b"\xff" * rec.SLOT  # the next slot untouched


def test_round_trip_around_the_ring():
    rnd = random.Random(3)
    nvm = FileNVM(None, mode="rp2040")
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    slots = []
    for _ in range(rec.RING + 3):
        played(r, rnd, 2)
        slots.append(r.save(nvm))
        again = rec.Record(DEFAULTS)
        assert again.load(nvm) == slots[-1]
        assert image(again) == image(r)
    assert slots == list(range(rec.RING)) + [0, 1, 2]
    assert nvm.erases == 1 and r.wraps == 1  # only the save that started the ring over erased
    for index in range(3, rec.RING):  # the old copies went with that erase
        off = index * rec.SPACING
        assert bytes(nvm[off:off + rec.SPACING]) == b"\xff" * rec.SPACING


def test_starting_over_without_memory_writes_slot_0_alone(monkeypatch):
    nvm = FileNVM(None, mode="rp2040")
    r = rec.Record(DEFAULTS)
    for _ in range(rec.RING):
        r.game_won(0, 1000)
        r.save(nvm)

    def no_memory(*args):  # the start-over image (a few KB) cannot be had
        if args and isinstance(args[0], int) and args[0] > rec.SLOT:
            raise MemoryError
        return bytearray(*args)

    monkeypatch.setattr(rec, "bytearray", no_memory, raising=False)
    r.game_won(1, 1000)
    assert r.save(nvm) == 0 and r.wraps == 0 and nvm.erases == 1
    assert loaded(nvm) == (0, image(r))  # the newest, though the older copies stay
    monkeypatch.undo()
    r.game_won(1, 1000)
    assert r.save(nvm) == 0 and r.wraps == 1  # slot 1 is not erased: the ring starts over
    assert loaded(nvm) == (0, image(r)) and nvm.erases == 2


def test_a_small_nvm_holds_two_slots():
    nvm = bytearray(b"\xff" * rec.NVM_BYTES)
    r = rec.Record(DEFAULTS)
    got = []
    for _ in range(4):
        r.game_won(0, 1000)
        got.append(r.save(nvm))
    assert got == [0, 1, 0, 1] and loaded(nvm) == (1, image(r))
    assert r.load(bytearray(b"\xff" * (rec.NVM_BYTES - 1))) == -1  # too small: defaults


def test_stats_values():
    r = rec.Record(DEFAULTS)
    r.game_won(0, 30000, level=1)
    r.game_won(0, 20004, level=1)
    r.game_won(1, 25000, level=1)
    r.game_won(1, 40000)
    r.game_won(1, 41000)
    r.game_won(1, 42000)
    r.match_won(1, level=2)
    r.tie(0)
    r.tie(0)
    r.reaction(0, 300)
    r.reaction(0, 500)
    # vs the CPU, seat B (the CPU) has no games, matches, streak or fastest of its own
    assert (r.games(0), r.games(1), r.matches(1)) == (2, 3, 0)
    assert r.vs(1, rec.VS_GAMES_WON) == 2 and r.vs(1, rec.VS_GAMES_LOST) == 1
    assert r.vs(2, rec.VS_MATCHES_LOST) == 1 and r.vs(2, rec.VS_MATCHES_WON) == 0
    assert r.best_streak(0) == 2 and r.best_streak(1) == 3
    assert r.streak(1) == 3 and r.streak(0) == 0
    assert r.fastest_ms(0) == 20000 and r.fastest_ms(1) == 40000
    assert (r.ties_won(0), r.ties_lost(1), r.ties_won(1)) == (2, 2, 0)
    assert r.reaction_ms(0) == 400 and r.reactions(0) == 2 and r.reaction_ms(1) == -1
    r.reset_stats()
    assert r.games(1) == 0 and r.fastest_ms(0) == -1 and r.streak(1) == 0 and r.dirty


def test_counters_saturate():
    r = rec.Record(DEFAULTS)
    r._put16(rec.GAMES, 0xFFFE)
    r._put16(rec.TIES_LOST + 2, 0xFFFF)
    for _ in range(3):
        r.game_won(0, 5000)
        r.tie(0)
    assert r.games(0) == 0xFFFF and r.ties_lost(1) == 0xFFFF and r.ties_won(0) == 3
    r._put32(rec.REACT_SUM, rec.REACT_MAX - 100)
    r._put16(rec.REACT_N, 1000)
    for _ in range(5):
        r.reaction(0, 1000)
    assert r._get32(rec.REACT_SUM) <= rec.REACT_MAX
    assert 0 < r.reactions(0) < 1005
    r._put16(rec.REACT_N + 2, 0xFFFF)
    r._put32(rec.REACT_SUM + 4, 0xFFFF * 200)
    r.reaction(1, 200)
    assert r.reactions(1) == 0xFFFF // 2 + 1 and r.reaction_ms(1) == 200
    r.game_won(1, 10 ** 9)  # a very long game still fits (as the largest time)
    assert r.fastest_ms(1) == (rec.U16_MAX - 1) * rec.FASTEST_UNIT_MS


def test_sequence_wraps():
    nvm = bytearray(b"\xff" * 4096)
    r = rec.Record(DEFAULTS)
    r._put16(rec._SEQ, 0xFFFE)
    r.game_won(0, 1000)
    assert r.save(nvm) == 0  # seq 0xFFFF
    r.game_won(1, 1000)
    assert r.save(nvm) == 1  # seq 0x0000: newer across the wrap
    assert rec.Record(DEFAULTS).load(nvm) == 1


def test_newest_bad_slot_falls_back_to_the_older():
    nvm = bytearray(b"\xff" * 4096)
    r = rec.Record(DEFAULTS)
    r.game_won(0, 1000)
    r.save(nvm)
    old = image(r)
    r.game_won(1, 1000)
    assert r.save(nvm) == 1
    nvm[rec.SPACING + rec.GAMES] ^= 0x40  # one bit flipped in the newer copy
    assert loaded(nvm) == (0, old)
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    r.game_won(0, 1000)
    assert r.save(nvm) == 0  # slot 1 holds the bad copy: not erased, so the ring starts over
    assert loaded(nvm) == (0, image(r))


def version2_slot(r, seq, more=b"\x01\x02\x02\x01\x01\x01\x01\x02"):
    """Record ``r``'s header, menu and stats as version 2 wrote them: then ``more`` (the
    game, the row's piles/match/redeal, Speed's cards/same/remake/points) and the CRC;
    ``more=None``: a version 2 slot written before those eight bytes existed."""
    slot = bytearray(r.buf[:rec.V2_MORE])
    slot[2] = 2
    slot[rec._SEQ] = seq & 0xFF
    slot[rec._SEQ + 1] = seq >> 8
    if more is not None:
        slot += more
    slot += bytearray(4)
    rec.crc_at(slot, 0, len(slot) - 4, True)
    return slot


@pytest.mark.parametrize("more", [b"\x01\x02\x02\x01\x01\x01\x01\x02", None])
def test_a_version_2_record_loads_with_its_game_options_and_stats(more):
    r = rec.Record(DEFAULTS)
    played(r, random.Random(4))
    old = version2_slot(r, 7, more)
    nvm = bytearray(b"\xff" * 4096)
    nvm[0:len(old)] = old
    menu = Menu(levels=("a", "b", "c"))
    menu.load(nvm)
    assert menu.record.slot == 0 and menu.record.dirty  # the next save writes version 3
    assert bytes(menu.record.buf[rec.MENU:rec.GAME]) == bytes(r.buf[rec.MENU:rec.GAME])
    if more is None:  # the 2x4 game, every option its default
        assert menu.game == 0 and menu.kind().KEY == "grid"
        assert all(menu.record.option(g, i) == rec.UNSET for g in range(rec.MAX_GAMES)
                   for i in range(rec.OPTION_BYTES))
    else:  # the shared row with 6 piles, rank or suit, two piles; Speed's house rules kept
        assert menu.kind().KEY == "row" and [menu.option(i) for i in range(3)] == [2, 2, 1]
        assert [menu.record.option(2, i) for i in range(4)] == [1, 1, 1, 2]
    menu.save(nvm)
    assert bytes(nvm[0:len(old)]) == bytes(old)  # the old slot stays until the ring starts over
    again = rec.Record(DEFAULTS)
    assert again.load(nvm) == 1 and again.buf[2] == rec.VERSION
    assert bytes(again.buf[rec.MENU:rec.CRC]) == bytes(menu.record.buf[rec.MENU:rec.CRC])


def test_a_version_2_ring_slot_then_version_3_saves_chain_on():
    r = rec.Record(DEFAULTS)
    nvm = bytearray(b"\xff" * 4096)
    for k in range(3):  # three version 2 saves, seq 40, 41, 42
        r.game_won(k % 2, 9000)
        slot = version2_slot(r, 40 + k)
        nvm[k * rec.SPACING:k * rec.SPACING + len(slot)] = slot
    menu = Menu(levels=())
    menu.load(nvm)
    assert menu.record.slot == 2 and menu.record.games(0) == 2
    menu.record.game_won(1, 5000)
    assert menu.record.save(nvm) == 3
    assert loaded(nvm) == (3, image(menu.record))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, rec.RING - 1), st.integers(0, 0xFFFF)), min_size=1,
                max_size=6),
       st.integers(1, 40))
def test_whatever_the_sequence_numbers_every_save_is_the_one_loaded(slots, saves):
    # A damaged or foreign nvm: valid slots at any places with any sequence numbers
    # (e.g. 0 and 0x8000, which 16-bit serial arithmetic cannot order). Every save
    # after it must be what the next boot loads.
    nvm = bytearray(b"\xff" * 4096)
    for index, seq in slots:
        other = rec.Record(DEFAULTS)
        other._put16(rec._SEQ, seq)
        other.game_won(index % 2, 1000 + seq)
        rec.crc_at(other.buf, 0, rec.CRC, True)
        nvm[index * rec.SPACING:index * rec.SPACING + rec.SLOT] = other.buf
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    rnd = random.Random(saves)
    for _ in range(saves):
        played(r, rnd, 1)
        written = r.save(nvm)
        assert loaded(nvm) == (written, image(r))


def test_the_issue_example_0_and_0x8000_no_longer_shadows_later_saves():
    nvm = bytearray(b"\xff" * 4096)
    for index, seq in ((0, 0x8000), (1, 0)):
        other = rec.Record(DEFAULTS)
        other._put16(rec._SEQ, seq)
        rec.crc_at(other.buf, 0, rec.CRC, True)
        nvm[index * rec.SPACING:index * rec.SPACING + rec.SLOT] = other.buf
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    for n in range(5):
        r.game_won(0, 1000)
        r.save(nvm)
        assert loaded(nvm)[1] == image(r) and rec.Record(DEFAULTS).load(nvm) >= 0
    assert rec.Record(DEFAULTS).load(nvm) == r.slot


def test_old_menu_store_migrates_menu_only():
    nvm = bytearray(b"\xff" * 4096)
    nvm[0:7] = b"\xc5\x01\x02\x02\x01\x03\x01"
    menu = Menu(levels=("beginner", "normal", "expert"))
    menu.load(nvm)
    assert list(menu.values[:len(DEFAULTS)]) == [1, 2, 2, 1, 3, 1]  # then "Button test"
    assert menu.record.games(0) == 0 and menu.record.dirty  # written at the next save
    nvm[0:7] = b"\xc5\x09\x09\x09\x09\x09\x09"  # out of range: defaults
    menu.load(nvm)
    assert list(menu.values[:len(DEFAULTS)]) == list(DEFAULTS)


# ------------------------------------------------------------------- power cuts


def firmware_starts(nvm):
    """The real firmware boots on this nvm content to the title, with valid menu values."""
    from fw_rig import Rig

    from hw.app import App
    from hw.app.modes import TITLE

    rig = firmware_starts.rig = getattr(firmware_starts, "rig", None) or Rig()
    app = App(rig.app.display, rig.app.buttons, nvm=bytearray(bytes(nvm)), levels=("a", "b", "c"))
    assert app.mode == TITLE
    for item, value in enumerate(app.menu.values):
        assert value < len(app.menu.choices(item))
    return image(app.menu.record)


def menu_boots(nvm):
    """What ``App`` does with the nvm at boot, without a display: ``Menu.load``."""
    menu = Menu(levels=("a", "b", "c"))
    menu.load(nvm)
    for item, value in enumerate(menu.values):
        assert value < len(menu.choices(item))
    return image(menu.record)


def prepared(mode, rnd, saves):
    """An nvm after ``saves`` saves (0: fresh; RING: the ring full), and the record."""
    nvm = FileNVM(None, mode=mode)
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    for _ in range(saves):
        played(r, rnd, 3)
        r.save(nvm)
    return nvm, r


@pytest.mark.parametrize("saves", [0, 1, 2, 3, rec.RING])
def test_power_cut_after_every_byte(saves):
    rnd = random.Random(saves)
    nvm, r = prepared("bytes", rnd, saves)
    old = loaded(nvm)[1]
    played(r, rnd, 4)
    new = image(r)
    assert new != old
    # A save into the ring writes one slot: a cut after each of its bytes. Starting
    # the ring over writes the ring's image (slot 0 first, then 0xFF over the older
    # copies): each byte of slot 0, then every 61st byte and the last.
    written = rec.SLOT if saves % rec.RING or saves == 0 else RING_BYTES
    points = list(range(rec.SLOT + 1)) + list(range(rec.SLOT + 61, written, 61)) + [written]
    for n in points:
        copy = FileNVM(None, cut_after=n)
        copy._data[:] = nvm._data
        attempt = rec.Record(DEFAULTS)
        attempt.load(copy)
        attempt.buf[:] = r.buf
        attempt.dirty = True
        try:
            attempt.save(copy)
            assert n == written  # the last cut point lets the whole save through
        except PowerCut:
            assert n < written
        got = loaded(copy)[1]
        assert got == (new if n >= rec.SLOT else old), "cut after %d bytes" % n
        assert firmware_starts(copy) == got


@pytest.mark.parametrize("saves", [0, 1, 2, 3, rec.RING - 1, rec.RING, rec.RING + 1])
def test_power_cut_at_every_rp2040_flash_step(saves):
    """CircuitPython's RP2040 write: program-only into erased bytes, else erase + program.

    The old or the new record, or the defaults only when the cut fell between the
    sector erase and the program of page 0 when the ring starts over (one save in
    RING): the one window a single 4 KB sector cannot cover.
    """
    rnd = random.Random(10 + saves)
    nvm, r = prepared("rp2040", rnd, saves)
    old = loaded(nvm)[1]
    played(r, rnd, 4)
    new = image(r)
    outcomes = []
    n = 0
    while True:
        copy = FileNVM(None, cut_after=n, mode="rp2040")
        copy._data[:] = nvm._data
        attempt = rec.Record(DEFAULTS)
        attempt.load(copy)
        attempt.buf[:] = r.buf
        attempt.dirty = True
        done = True
        try:
            attempt.save(copy)
        except PowerCut:
            done = False
        got = loaded(copy)[1]
        assert firmware_starts(copy) == got
        if done:
            assert got == new
            break
        if got == old:
            outcomes.append("old")
        elif got == new:  # the page holding the new slot was programmed before the cut
            outcomes.append("new")
        elif got == defaults_image() and copy.erases:
            outcomes.append("defaults")
        else:
            raise AssertionError("cut after step %d: neither old nor new" % n)
        n += 1
    if saves % rec.RING or saves == 0:  # the next slot is erased: one page program
        assert outcomes == ["old"]
    else:  # the ring is full: 1 erase + 16 page programs; the new record sits in page 0
        assert outcomes == ["old", "defaults"] + ["new"] * 15


# ------------------------------------------------------------------------- fuzz


def valid_image(nvm, r):
    slot = r.slot
    if slot < 0:
        return False
    off = slot * rec.SPACING
    return bytes(nvm[off:off + rec.SLOT]) == bytes(r.buf)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=rec.NVM_BYTES, max_size=RING_BYTES))
def test_any_nvm_content_boots_to_defaults_or_a_valid_record(data):
    nvm = bytearray(data) + bytearray(b"\xff" * (4096 - len(data)))
    r = rec.Record(DEFAULTS)
    slot = r.load(nvm)
    assert slot == -1  # random bytes do not make a valid slot
    got = menu_boots(nvm)
    assert got[rec.STATS - rec.MENU:] == defaults_image()[rec.STATS - rec.MENU:]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from((0, 1, 2, 5, rec.RING, rec.RING + 3)),
       st.lists(st.tuples(st.integers(0, RING_BYTES - 1), st.integers(0, 255)), max_size=6))
def test_damaged_records_boot_to_defaults_or_a_valid_record(saves, damage):
    rnd = random.Random(saves)
    nvm, r = prepared("bytes", rnd, saves)
    for pos, value in damage:
        nvm._data[pos] = value
    again = rec.Record(DEFAULTS)
    slot = again.load(nvm)
    if slot >= 0:
        assert valid_image(nvm, again)
        assert zlib.crc32(bytes(again.buf[:rec.CRC])) == int.from_bytes(again.buf[rec.CRC:], "little")
    else:
        assert image(again)[rec.STATS - rec.MENU:] == defaults_image()[rec.STATS - rec.MENU:]
    assert menu_boots(nvm) == image(again)


@settings(max_examples=25, deadline=None)
@given(st.binary(min_size=rec.NVM_BYTES, max_size=rec.NVM_BYTES), st.integers(0, 4))
def test_the_firmware_starts_on_any_nvm_content(data, saves):
    nvm, _ = prepared("bytes", random.Random(saves), saves)
    cut = len(data) // (saves + 1)  # part random, part records
    nvm._data[0:cut] = data[:cut]
    assert firmware_starts(nvm) == loaded(nvm)[1] or loaded(nvm)[0] < 0
