"""code.py for the picosim's FRAM model check: ``busio.I2C`` on GP27/GP26, nothing of the firmware.

Prints ``framprobe`` lines: the constructor's error (no pull-ups: no FRAM fitted)
or, with the FRAM fitted, the device-ID bytes, what the memory held at 0 and at
the top (wrapping), a write of 98 bytes then its read-back (with each transfer's
length on CircuitPython's clock), and the error a read from an address nothing
answers (0x51) gives. ``tests/test_picosim_fram.py`` checks them against the model.
"""

import time


def hexs(buf):
    return "".join("%02x" % b for b in buf)


def main():
    import board
    import busio
    from supervisor import ticks_ms

    time.sleep(0.3)  # the console must be open before anything is printed
    try:
        i2c = busio.I2C(board.GP27, board.GP26, frequency=400000)
    except RuntimeError as err:
        print("framprobe none error=%s" % str(err).replace(" ", "_"))
        return
    while not i2c.try_lock():
        pass
    ident = bytearray(3)
    i2c.writeto_then_readfrom(0x7C, bytes((0xA0,)), ident)
    print("framprobe id=%s" % hexs(ident))
    head = bytearray(8)
    i2c.writeto_then_readfrom(0x50, bytes((0, 0)), head)
    wrap = bytearray(4)
    i2c.writeto_then_readfrom(0x50, bytes((0x7F, 0xFE)), wrap)  # 7FFE, 7FFF, 0000, 0001
    print("framprobe head=%s wrap=%s" % (hexs(head), hexs(wrap)))
    out = bytearray(2 + 98)
    out[0], out[1] = 0x00, 0x80
    for i in range(98):
        out[2 + i] = (i * 7 + 3) & 0xFF
    t = ticks_ms()
    i2c.writeto(0x50, out)
    t1 = ticks_ms()
    back = bytearray(98)
    i2c.writeto_then_readfrom(0x50, bytes((0x00, 0x80)), back)
    t2 = ticks_ms()
    print("framprobe wrote=%d same=%d write_ms=%d read_ms=%d" % (
        98, back == out[2:], t1 - t, t2 - t1))
    try:
        i2c.writeto_then_readfrom(0x51, bytes((0, 0)), head)
        print("framprobe nack=none")
    except OSError as err:
        print("framprobe nack=%s" % (err.args[0] if err.args else "?"))
    i2c.unlock()
    print("framprobe done")


main()
while True:
    time.sleep(1)
