"""Link play: two handhelds on one UART cable (docs/LINK.md).

* :mod:`hw.link.frame`: frames on the wire (byte-stuffed, CRC-16), a byte-at-a-time decoder;
* :mod:`hw.link.sync`: the host's estimate of a guest's clock (offset and drift);
* :mod:`hw.link.fair`: the fairness rule (judge time T only once every guest has passed T);
* :mod:`hw.link.link`: one end of the cable: seats, resends, sync exchanges, watermarks.

Implementation Notes
--------------------

Pure Python for CPython, MicroPython and CircuitPython alike: no hardware module is
imported; the caller hands in the port's ``write``, the clock and the buffers. After
set-up, encoding, decoding and a sync update allocate nothing (tests/mpy/vm_link_alloc.py).
"""
