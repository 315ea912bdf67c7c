"""The unchanged firmware on the real CircuitPython 10.2.1 Pico UF2, in an emulated RP2040.

``python -m tools.picosim`` (``make picosim``; docs/EMULATOR.md). The parts:

* :mod:`.drive` and :mod:`.fat`: the CIRCUITPY drive (this repo's firmware, the
  Adafruit libraries it imports, ``settings.toml``) as a FAT12 image;
* ``pico.mjs``: Node glue on ``rp2040js`` running one chip; ``chip.mjs``: the chip
  and its board (bootrom, UF2, GPIO buttons, the ILI9341 SPI decoder, a USB host
  serving both CDC ports), shared with ``link.mjs``;
* :mod:`.run`: one run (job file in, JSON lines out) as a :class:`.run.Result`;
* :mod:`.analyze`: console checks, ``diag`` lines, press-to-pixel latency;
* :mod:`.mirror`: the same session played in ``tools/emulate`` for comparison;
* ``device/``: the ``code.py`` scripts that run on the emulated Pico instead of the
  firmware's (``heap_code.py`` prints free-heap ``diag`` lines; the rest serve the
  power-cut tools and the FRAM check below);
* ``flash.mjs``: the serial flash behind the SSI (erase, program, busy times, power
  cuts), so ``microcontroller.nvm`` and CIRCUITPY writes persist (``--nvm``);
* :mod:`.powercut`: a power cut at each erase/program step of a record save, the
  firmware booted on what it left (``nvm_save_code.py``, ``nvm_check_code.py``);
* ``fram.mjs``: the record's optional I2C FRAM (an MB85RC256V on I2C1, GP27/GP26:
  device ID, memory, power cuts after N data bytes, images served in turn), fitted
  with ``--fram FILE``; without it the pins have no pull-ups, as on a bare Pico;
  ``fram_probe_code.py`` checks it through ``busio.I2C`` alone;
* :mod:`.framcut`: power cuts at every byte of a record save to the FRAM, each cut
  image loaded on the Pico in one boot, a few with the whole firmware
  (``fram_save_code.py``, ``fram_load_code.py``, ``nvm_check_code.py``);
* :mod:`.link` (``link.mjs``, ``uart.mjs``): two chips on one UART cable, each on its
  own clock, bytes timed at the baud rate, faults on the wire (docs/LINK.md);
  :mod:`.linkbench`: hw.link's figures on the pair; ``device/``: their programs.

Implementation Notes
--------------------

**Software and Dependencies:** Node 20 and ``rp2040js`` 1.4.1 (``package.json``);
the real CircuitPython 10.2.1 stack's UF2, bootrom and ``mpy-cross``
(:mod:`tools.cpstack`: ``make cpstack`` fetches them); numpy and Pillow
(requirements-dev.txt).
"""
