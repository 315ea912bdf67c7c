"""code.py for the picosim's FRAM power-cut checks: the record loaded from many FRAM images.

The FRAM model serves the next of its images each time a read starts at address 0
(``fram.mjs``, ``images``); every :class:`hw.store.fram.FramStore` reads the record's two
slots from address 0 as it is made, as at boot. So this builds the store
``COUNT`` times on one ``busio.I2C`` (the firmware's pins and frequency, with
``microcontroller.nvm`` as the fallback, as ``hw.main.record_store`` makes it), loads
``hw.store.record.Record`` from each as the menu does, and prints one ``fcutload`` line
per image: its index, the slot loaded (-1: none valid) and the record's menu and
stats bytes in hex. ``tools.picosim.framcut`` writes ``COUNT`` in.
"""

import time

COUNT = 1  # images to load (tools.picosim.framcut sets it)
FREQUENCY = 400000  # hw.main.FRAM_I2C_HZ (not imported: hw.main brings the whole app;
# tests/test_fram.py keeps them equal)


def main():
    import gc

    import board
    import busio
    import microcontroller

    from hw.store import fram
    from hw.menu import DEFAULTS
    from hw.store.record import CRC, MENU, Record

    time.sleep(0.3)  # the console must be open before anything is printed
    i2c = busio.I2C(board.GP27, board.GP26, frequency=FREQUENCY)
    r = Record(DEFAULTS)
    for k in range(COUNT):
        store = fram.FramStore(i2c, microcontroller.nvm)
        slot = r.load(store)
        print("fcutload k=%d slot=%d image=%s" % (
            k, slot, "".join("%02x" % b for b in r.buf[MENU:CRC])))
        store = None
        gc.collect()
    print("fcutload done")
    while True:
        time.sleep(1)


main()
