"""code.py for the picosim's FRAM power-cut runs: one save of the record, as the firmware saves.

Finds the record's home the firmware's way (``hw.main.record_store``: the profile's
FRAM through ``hw.store.fram``, or ``microcontroller.nvm`` if none answers), loads
``hw.store.record.Record`` from it as the menu does (``hw.menu.DEFAULTS``), applies
:func:`change` (what a game between two saves adds) and saves once, printing
``fcutsave`` lines: the store, the slot loaded, the slot written and the save's
length on CircuitPython's clock. ``tools.picosim.framcut`` imports this file on
CPython to apply the same :func:`change` and know the new record.
"""

import time


def change(r):
    """What one game adds to the record (the same on the Pico and on CPython)."""
    r.game_won(1, 19870, 2)
    r.match_won(1, 2)
    r.tie(0)
    r.reaction(0, 281)
    r.reaction(1, 517)


def main():
    import os

    import board
    import microcontroller
    from supervisor import ticks_ms

    from hw.main import record_store
    from hw.menu import DEFAULTS
    from hw.board.profiles import choose
    from hw.store.record import Record

    time.sleep(0.3)  # the console must be open before anything is printed
    profile = choose(board.board_id, getattr(board, "DISPLAY", None) is not None, os.getenv)[1]
    store = record_store(profile, board, microcontroller.nvm)
    print("fcutsave store=%s" % type(store).__name__)
    r = Record(DEFAULTS)
    print("fcutsave loaded=%d" % r.load(store))
    change(r)
    t = ticks_ms()
    slot = r.save(store)
    print("fcutsave saved=%d ms=%d" % (slot, ticks_ms() - t))
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
