# vm-timeout: 60
# vm-dirs: hw tests
"""Proves in MicroPython that hw.store.record's updates, CRC, save and load allocate nothing.

The record is changed between games (a game won, a match won, a tie, a reaction)
and saved into a ``bytearray`` standing in for ``microcontroller.nvm`` (CircuitPython's
nvm is native: its slice assignment copies into flash). Each is measured with
``gc.mem_alloc()`` growth with the collector off and under ``heap_lock()``. The
record's values are checked too, so a call that did nothing would fail.

Run: node tests/mpy/vm.mjs --dir hw --dir tests tests/mpy/vm_record_alloc.py
"""

import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])

from mpyharness import Report  # noqa: E402

from hw.store import record as rec  # noqa: E402

report = Report("vm_record_alloc")
nvm = bytearray(b"\xff" * 4096)
r = rec.Record(bytes((0, 0, 1, 0, 2, 0)))
r.load(nvm)


def updates():
    r.game_won(0, 23456, 1)
    r.match_won(0, 1)
    r.tie(1)
    r.reaction(0, 420)


def save():
    r.dirty = True
    r.save(nvm)


def load():
    r.load(nvm)


def crc():
    rec.crc_at(r.buf, 0, rec.CRC, False)


report.free("game/match/tie/reaction updates (x10)", updates, n=10)
report.check(r.games(0) >= 11 and r.ties_won(1) >= 11 and r.reaction_ms(0) == 420,
             "the updates counted", (r.games(0), r.ties_won(1), r.reaction_ms(0)))
report.free("save into the ring: seq, CRC-32 in 16-bit halves, one slice assignment, the"
            " newest checked (x4)", save, n=4)
slot = r.slot
off = slot * rec.SPACING
report.check(rec._header_ok(nvm, off) and rec.crc_at(nvm, off, off + rec.CRC, False),
             "the saved slot's CRC holds")
report.free("load: the end of the chain found, its CRC checked, copied (x4)", load, n=4)
report.free("CRC-32 check of one slot (x4)", crc, n=4)
report.check(r.slot == slot and r.games(0) >= 11, "load found the newest slot")
check = bytearray(b"123456789") + bytearray(4)
rec.crc_at(check, 0, 9, True)
report.check(bytes(check[9:]) == b"\x26\x39\xf4\xcb", "CRC-32 check value of '123456789'",
             bytes(check[9:]))
report.done()
