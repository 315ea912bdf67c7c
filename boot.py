"""Boot: enable the second USB serial port (``usb_cdc.data``) for the match log.

The REPL/console stays on the first port; the firmware streams every match's log
(LOG.md) on the data port so a desktop can replay it with ``tools/replay``.
CircuitPython 10 API: ``usb_cdc.enable(console=True, data=True)`` (keyword-only).
Changes here take effect after a hard reset (power cycle or the RESET button).

Implementation Notes
--------------------

**Software and Dependencies:** ``usb_cdc`` (boot.py only).
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
