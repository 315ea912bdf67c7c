"""``tools/hil``: one key scenario, three targets, the same match log back.

A scenario is a ``tools/emulate --script`` file (key down/up at ms times) with
optional settings in comments (``# hil seed=7 seconds=20``) and an optional expected
trace beside it (``NAME.expected``: the JSON lines that :func:`tools.hil.compare.normalize`
makes of the match log). It runs on:

* ``--emulate``: the in-process Blinka emulator (``tools.emulate``, virtual time);
* ``--picosim``: the real CircuitPython 10.2.1 Pico UF2 in rp2040js, keys as GPIO
  edges (``tools.picosim``);
* ``--port /dev/ttyACM1``: a real board, keys injected over ``usb_cdc.data`` in the
  firmware's test mode (:mod:`tools.hil.port`).

Each run gives back the match log from the target's data port; :mod:`tools.hil.compare`
replays it (``tools.replay``), makes times relative to each game's first deal, and
compares it with the expected trace and across targets, printing the first
differing event.

Implementation Notes
--------------------

Times: scenario times are ms after the firmware is on its title screen with
attract mode off (``CSPEED_ATTRACT_S=0``). The picosim target adds
``BOOT_ALLOWANCE_MS`` for the emulated boot (checked: a key before the first frame
is an error); on a board the host waits for the test mode's reply. What the engine
decides from those keys does not depend on when the title appeared, so logs compare
with times relative to each game's first deal, within ``--tolerance`` ms (the key
scan stamps a press 0-6 ms after its edge).
"""
