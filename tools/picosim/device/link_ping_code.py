"""A ``code.py`` for the two-Pico rig: ping and echo over ``busio.UART`` (UART1, GP20/GP21).

``LINK_ROLE`` (settings.toml) picks the side: ``ping`` sends ``LINK_PINGS`` lines
``P<seq> <t1>`` every ``LINK_EVERY_MS`` and prints ``rtt SEQ T1 T2 T4`` (µs from
``time.monotonic_ns``: its send, the echo's receive, its receive) for each reply, or
``lost SEQ`` after 100 ms without one, then ``done``; ``echo`` answers each whole line
``P...`` with ``R<seq> <t2>`` padded to 21 bytes and prints any other line as ``bad``.
With ``LINK_BURST`` = N the ping side first writes a line of N ``#`` and prints
``write N bytes took US`` (``busio.UART.write`` returns once the TX FIFO holds the rest).
The stream is framed by hand (``readline`` with ``timeout=0`` returns part lines).

Implementation Notes
--------------------

Test code for tools/picosim/link.py (tests/test_picosim_link.py); it allocates freely.
"""

import os
import time

import board
import busio

ROLE = os.getenv("LINK_ROLE") or "ping"
PINGS = int(os.getenv("LINK_PINGS") or 20)
EVERY_MS = int(os.getenv("LINK_EVERY_MS") or 50)
BURST = int(os.getenv("LINK_BURST") or 0)
TIMEOUT_NS = 100_000_000

uart = busio.UART(board.GP20, board.GP21, baudrate=115200, timeout=0, receiver_buffer_size=512)
pending = bytearray()


def us():
    return time.monotonic_ns() // 1000


def lines():
    """Whole lines received so far (without their newline)."""
    global pending
    data = uart.read(uart.in_waiting or 1)
    if data:
        pending += data
    out = []
    while True:
        i = pending.find(b"\n")
        if i < 0:
            return out
        out.append(bytes(pending[:i]))
        pending = pending[i + 1:]


print("link ping: role %s" % ROLE)
if ROLE == "ping":
    if BURST:
        line = b"#" * BURST + b"\n"
        t = us()
        uart.write(line)
        print("write %d bytes took %d us" % (len(line), us() - t))
        time.sleep(0.05)
    lost = 0
    for seq in range(PINGS):
        t1 = us()
        uart.write(b"P%05d %d\n" % (seq, t1 % 1000))
        deadline = time.monotonic_ns() + TIMEOUT_NS
        answered = False
        while not answered and time.monotonic_ns() < deadline:
            for line in lines():
                t4 = us()
                parts = line.split()
                if len(parts) == 2 and parts[0] == b"R%05d" % seq:
                    print("rtt %d %d %s %d" % (seq, t1, parts[1].decode(), t4))
                    answered = True
                else:
                    print("bad %r" % line)
        if not answered:
            lost += 1
            print("lost %d" % seq)
        while time.monotonic_ns() < t1 * 1000 + EVERY_MS * 1_000_000:
            pass
    print("done %d lost" % lost)
else:
    while True:
        for line in lines():
            t2 = us()
            if line.startswith(b"P") and len(line) >= 6:
                reply = b"R%s %d" % (line[1:6], t2)
                uart.write(reply + b" " * (20 - len(reply)) + b"\n")
            else:
                print("bad %r" % line)
