"""Start-up: pick the board profile, build display, buttons, piezo and app; run the loop.

``code.py`` calls :func:`run`. :func:`build` is separate so that tests and the
desktop emulator can build the same firmware on CPython (with the stand-ins of
``tools.cpstubs`` installed) and drive :meth:`hw.app.App.step` themselves.

Implementation Notes
--------------------

**Software and Dependencies:** ``board``, ``supervisor`` (``ticks_ms``), ``usb_cdc``
(``data``, enabled by ``boot.py``), ``microcontroller`` (``nvm``), ``os.getenv``
(``settings.toml``: the settings of ``hw.profiles``, ``CSPEED_ATTRACT_S``, the
idle seconds on the title before attract mode, 0 = never, and ``CSPEED_DIAG``, 1 =
print heap and frame figures on the console, see ``hw.diag``); ``hw.profiles``,
``hw.display``, ``hw.pads``, ``hw.buzzer``, ``hw.app``, ``hw.testmode`` (key events
injected over ``usb_cdc.data`` once a host turns the test mode on); ``hw.diag``
only when ``CSPEED_DIAG`` is on.
"""

import os

from hw.app import ATTRACT_MS, App
from hw.buzzer import make_buzzer
from hw.display import make_display
from hw.pads import make_buttons
from hw.profiles import choose, parse_int


def build(getenv=None, seed=None):
    """Return ``(profile name, App)`` for this board."""
    import board
    import microcontroller
    import usb_cdc

    if getenv is None:
        getenv = os.getenv
    name, profile = choose(getattr(board, "board_id", ""),
                           getattr(board, "DISPLAY", None) is not None, getenv)
    display = make_display(profile, board)
    buttons = make_buttons(profile, board)
    buzzer = make_buzzer(profile.get("piezo"), board)
    attract_s = parse_int(getenv("CSPEED_ATTRACT_S"), ATTRACT_MS // 1000)
    port = getattr(usb_cdc, "data", None)
    if port is not None:  # the key test mode of tools/hil --port (hw.testmode)
        from supervisor import ticks_ms

        buttons.port = port
        buttons.clock = ticks_ms
    app = App(display, buttons, port=port, seed=seed,
              buzzer=buzzer, nvm=getattr(microcontroller, "nvm", None),
              attract_ms=max(0, attract_s) * 1000)
    return name, app


def diag_enabled(getenv=None):
    """Return True if ``CSPEED_DIAG`` asks for diagnostics (``hw.diag``)."""
    return parse_int((getenv or os.getenv)("CSPEED_DIAG"), 0) > 0


def run(app=None, getenv=None):
    """Build the app (unless given) and run the main loop forever."""
    from supervisor import ticks_ms

    if app is None:
        app = build(getenv)[1]
    if diag_enabled(getenv):
        from hw import diag
        diag.run(app, ticks_ms)
    step = app.step
    while True:
        step(ticks_ms())
