"""Drive a real board over its ``usb_cdc.data`` port in the firmware's key test mode.

Protocol (lines, ASCII, ``\\n``): the host sends ``CSPEED TEST 1``; the firmware
answers ``# test mode on`` and from then on reads ``K <key> <1|0>`` lines (logical
key ``seat * 8 + button``, START = 16; 1 = down) into a preallocated buffer and
feeds them to the same path as its keypad's events, stamped with its own
``ticks_ms`` when read. The test mode ends on a reset. The host sends each event at
its scenario time after the reply, then collects the data port's output until the
scenario's end.
"""

import time

HELLO = b"CSPEED TEST 1\n"
REPLY = b"# test mode on"
REPLY_TIMEOUT_S = 3.0


def run_board(scenario, port_name):
    """Play ``scenario`` on the board at ``port_name``; return what its data port sent."""
    from tools.hil.targets import TargetError

    try:
        import serial
    except ImportError:
        raise TargetError("pyserial is missing: run `make venv`") from None
    try:
        port = serial.Serial(port_name, timeout=0)
    except (OSError, serial.SerialException) as err:
        raise TargetError("%s: %s" % (port_name, err)) from None
    received = bytearray()
    with port:
        port.reset_input_buffer()
        port.write(HELLO)
        deadline = time.monotonic() + REPLY_TIMEOUT_S
        while REPLY not in received:
            if time.monotonic() > deadline:
                raise TargetError("%s: no reply to the test-mode command (is the firmware "
                                  "new enough, and is this the data port, not the console?)"
                                  % port_name)
            received += port.read(4096)
            time.sleep(0.01)
        start = time.monotonic()
        received.clear()
        for ms, key, down in scenario.logical_events():
            while (time.monotonic() - start) * 1000 < ms:
                received += port.read(4096)
                time.sleep(0.001)
            port.write(b"K %d %d\n" % (key, 1 if down else 0))
        end = start + scenario.seconds
        while time.monotonic() < end:
            received += port.read(4096)
            time.sleep(0.01)
        received += port.read(4096)
    return bytes(received)
