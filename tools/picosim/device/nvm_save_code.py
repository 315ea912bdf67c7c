"""code.py for the picosim's power-cut runs: one save of the record, as the firmware saves.

Loads ``hw.store.record.Record`` from ``microcontroller.nvm`` exactly as the firmware's
menu does (``hw.menu.DEFAULTS``), applies :func:`change` (what a game between two
saves adds) and saves once, printing ``cutsave`` lines: the slot loaded, the slot
written, whether the save started the ring over, and the save's length on
CircuitPython's own clock. ``tools.picosim.powercut`` imports this file on CPython
to apply the same :func:`change` and know the new record.
"""

import time


def change(r):
    """What one game adds to the record (the same on the Pico and on CPython)."""
    r.game_won(0, 23450, 1)
    r.match_won(0, 1)
    r.tie(1)
    r.reaction(0, 333)
    r.reaction(1, 444)


def main():
    import microcontroller
    from supervisor import ticks_ms

    from hw.menu import DEFAULTS
    from hw.store.record import Record

    time.sleep(0.3)  # the console must be open before anything is printed
    nvm = microcontroller.nvm
    r = Record(DEFAULTS)
    print("cutsave loaded=%d" % r.load(nvm))
    change(r)
    t = ticks_ms()
    slot = r.save(nvm)
    print("cutsave saved=%d wraps=%d ms=%d" % (slot, r.wraps, ticks_ms() - t))
    while True:
        time.sleep(1)


if __name__ == "__main__":
    main()
