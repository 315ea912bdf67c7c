"""CRC-16/CCITT-FALSE three ways on the device: time per byte and heap (a code.py).

For docs/LINK.md (the CRC table's heap against its speed): the 256-entry table
``hw.link.frame`` uses, a 16-entry nibble table, and bit by bit, each over the same
200 bytes (a long log line) and a 14-byte PRESS frame, in the decoder's own loop
shape (one ``crc = ...`` per byte). Prints ``crc NAME us_per_byte=N heap=B check=X``
(``check``: the CRC of b"123456789", 0x29B1 for all three) and ``crc done``.
"""

import gc
from array import array

from supervisor import ticks_ms

ROUNDS = 20
data = bytearray(200)
for i in range(200):
    data[i] = (i * 37 + 11) & 0xFF
check = bytearray(b"123456789")

gc.collect()
free = gc.mem_free()
TABLE = array("H", bytes(512))
for i in range(256):
    c = i << 8
    for _ in range(8):
        c = ((c << 1) ^ 0x1021 if c & 0x8000 else c << 1) & 0xFFFF
    TABLE[i] = c
gc.collect()
table_heap = free - gc.mem_free()

free = gc.mem_free()
NIBBLE = array("H", bytes(32))
for i in range(16):
    c = i << 12
    for _ in range(4):
        c = ((c << 1) ^ 0x1021 if c & 0x8000 else c << 1) & 0xFFFF
    NIBBLE[i] = c
gc.collect()
nibble_heap = free - gc.mem_free()


def by_table(buf, n):
    table = TABLE
    crc = 0xFFFF
    for k in range(n):
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ buf[k]]
    return crc


def by_nibble(buf, n):
    table = NIBBLE
    crc = 0xFFFF
    for k in range(n):
        b = buf[k]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b & 15)]
    return crc


def by_bit(buf, n):
    crc = 0xFFFF
    for k in range(n):
        crc ^= buf[k] << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def timed(fn):
    t = ticks_ms()
    for _ in range(ROUNDS):
        fn(data, 200)
    return (ticks_ms() - t) * 1000 // (ROUNDS * 200)


for name, fn, heap in (("table256", by_table, table_heap), ("nibble16", by_nibble, nibble_heap),
                       ("bitwise", by_bit, 0)):
    print("crc %s us_per_byte=%d heap=%d check=%04X" % (name, timed(fn), heap, fn(check, 9)))
print("crc done")
