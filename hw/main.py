"""Start-up: pick the board profile, build display, buttons, piezo and app; run the loop.

``code.py`` calls :func:`run`. :func:`build` is separate so that tests and the
desktop emulator can build the same firmware on CPython (with the stand-ins of
``tools.cpstubs`` installed) and drive :meth:`hw.app.App.step` themselves.

Implementation Notes
--------------------

**Software and Dependencies:** ``board``, ``supervisor`` (``ticks_ms``), ``usb_cdc``
(``data``, enabled by ``boot.py``), ``microcontroller`` (``nvm``), ``os.getenv``
(``settings.toml``: the settings of ``hw.board.profiles``, ``CSPEED_ATTRACT_S``, the
idle seconds on the title before attract mode, 0 = never, and ``CSPEED_DIAG``, 1 =
print heap and frame figures on the console, see ``hw.diag``); ``hw.board.profiles``,
``hw.board.display``, ``hw.board.pads``, ``hw.board.buzzer``, ``hw.app``, ``hw.store.fram`` (the record's
optional FRAM, forgotten when none is fitted), ``hw.board.hil_keys`` (key events
injected over ``usb_cdc.data`` once a host turns the test mode on); ``hw.diag``
only when ``CSPEED_DIAG`` is on.

A bad setting never ends in a bare traceback: an optional piezo that cannot be used
(``CSPEED_PIEZO=GP99``) is printed and shown on the title, and the firmware runs
silent; anything else (a bad rotation, key pins, a pin used twice, a missing pin)
is printed and shown on the display by :func:`fail` (``hw.views.error_view``), and the
firmware stops there.
"""

import os

from hw.app import ATTRACT_MS, App
from hw.board.buzzer import Silent, make_buzzer
from hw.board.pads import make_buttons
from hw.games import forget

# Needed only to build: forgotten once the app is built (their code leaves the heap).
BUILD_ONLY = ("hw.board.profiles", "hw.board.display")


def build(getenv=None, seed=None):
    """Return ``(profile name, App)`` for this board."""
    import board
    import microcontroller
    import usb_cdc

    from hw.board.display import make_display
    from hw.board.profiles import choose, parse_int

    if getenv is None:
        getenv = os.getenv
    name, profile = choose(getattr(board, "board_id", ""),
                           getattr(board, "DISPLAY", None) is not None, getenv)
    display = make_display(profile, board)
    buttons = make_buttons(profile, board)
    warning = None
    try:
        buzzer = make_buzzer(profile.get("piezo"), board)
    except ValueError as err:  # the piezo is optional: run silent, and say why
        print("warning: %s; running without sound" % err)
        warning = ("%s - no sound" % err).encode()
        buzzer = Silent()
    attract_s = parse_int(getenv("CSPEED_ATTRACT_S"), ATTRACT_MS // 1000)
    port = getattr(usb_cdc, "data", None)
    if port is not None:  # the key test mode of tools/hil --port (hw.board.hil_keys)
        from supervisor import ticks_ms

        buttons.port = port
        buttons.clock = ticks_ms
    app = App(display, buttons, port=port, seed=seed,
              buzzer=buzzer, nvm=record_store(profile, board, getattr(microcontroller, "nvm", None)),
              attract_ms=max(0, attract_s) * 1000, warning=warning)
    for module in BUILD_ONLY:
        forget(module)
    return name, app


FRAM_I2C_HZ = 400000  # the record FRAM's bus clock (the MB85RC256V takes up to 1 MHz)


def record_store(profile, board, nvm):
    """Where the record lives: the profile's FRAM if one answers (``hw.store.fram``), else ``nvm``.

    With no pull-ups on the pins (nothing fitted) ``busio.I2C`` refuses at once, and
    ``hw.store.fram`` is not even imported; it is forgotten again if what answers is no FRAM.
    """
    pins = profile.get("fram")
    if pins is None:
        return nvm
    import busio

    where = "SCL %s, SDA %s" % pins
    try:
        i2c = busio.I2C(getattr(board, pins[0]), getattr(board, pins[1]), frequency=FRAM_I2C_HZ)
    except (RuntimeError, ValueError, AttributeError) as err:  # no pull-ups: nothing fitted
        print("record: in the Pico's flash (no FRAM on %s: %s)" % (where, err))
        return nvm
    from hw.store import fram

    store = fram.open_store(i2c, where, nvm)
    if store is None:
        forget("hw.store.fram")
        return nvm
    return store


def fail(err, getenv=None, forever=True):
    """A setting stops the firmware: print it, show it on the display, stop there.

    The display is built from the board's own profile (settings ignored but
    ``CSPEED_PROFILE``), as the bad setting may be the reason the real one failed.
    Returns the error view (``forever=False``, for tests), or None without a display.
    """
    import board

    from hw.board.display import make_display
    from hw.board.profiles import choose

    message = str(err)
    print("California Speed cannot start: %s" % message)
    view = None
    try:
        get = getenv or os.getenv
        profile = choose(getattr(board, "board_id", ""),
                         getattr(board, "DISPLAY", None) is not None,
                         lambda key: get(key) if key == "CSPEED_PROFILE" else None)[1]
        display = make_display(profile, board)
        from hw.views import error_view
        view = error_view.show(display, message)
    except Exception as second:  # pylint: disable=broad-except
        print("(not shown on the display: %s)" % second)  # the console still has it
    if not forever:
        return view
    import time
    while True:  # stay on the message (code.py ending would show the console)
        time.sleep(1)


def diag_level(getenv=None):
    """``CSPEED_DIAG``: 0 off, 1 diagnostics, 2 diagnostics after every game's code was
    loaded once (``hw.diag``)."""
    from hw.board.profiles import parse_int

    return max(0, parse_int((getenv or os.getenv)("CSPEED_DIAG"), 0))


def run(app=None, getenv=None):
    """Build the app (unless given) and run the main loop forever."""
    from supervisor import ticks_ms

    if app is None:
        try:
            app = build(getenv)[1]
        except ValueError as err:  # a bad setting or a missing pin: readable, no traceback
            fail(err, getenv)
    level = diag_level(getenv)
    if level:
        from hw import diag
        diag.run(app, ticks_ms, level)
    step = app.step
    while True:
        step(ticks_ms())
