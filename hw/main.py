"""Start-up: pick the board profile, build display, buttons, piezo and app.

``code.py`` calls :func:`start`, forgets this module (nothing built refers back to
it, so its code leaves the heap) and runs the loop :func:`start` returned
(:meth:`hw.app.App.run`); :func:`run` does both, for tools. :func:`build` is
separate so that tests and the desktop emulator can build the same firmware on
CPython (with the stand-ins of ``tools.cpstubs`` installed) and drive
:meth:`hw.app.App.step` themselves.

Implementation Notes
--------------------

**Software and Dependencies:** ``board``, ``supervisor`` (``ticks_ms``), ``usb_cdc``
(``data``, enabled by ``boot.py``), ``microcontroller`` (``nvm``), ``os.getenv``
(``settings.toml``: the settings of ``hw.board.profiles``, ``CSPEED_ATTRACT_S``, the
idle seconds on the title before attract mode, 0 = never, and ``CSPEED_DIAG``, 1 =
print heap and frame figures on the console, 2 = the same after every game's code was
loaded once, see ``hw.diag``); ``hw.board.profiles`` and ``hw.board.display`` (build
time only: forgotten once the app is built), ``hw.board.pads``, ``hw.board.buzzer``,
``hw.app``, ``hw.store.fram`` (the record's optional FRAM, forgotten when none is
fitted), ``hw.board.hil_keys`` (key events injected over ``usb_cdc.data`` once a host
turns the test mode on); ``hw.diag`` only when ``CSPEED_DIAG`` is on.

A bad setting never ends in a bare traceback: an optional piezo that cannot be used
(``CSPEED_PIEZO=GP99``) is printed and shown on the title, and the firmware runs
silent; anything else (a bad rotation, attract time or diag switch, key pins, a pin
used twice, a pin the board lacks, FRAM pins that cannot be an I2C bus; or an error
of any other type raised while building from the settings) is printed and shown on
the display by :func:`fail` (``hw.views.error_view``), naming the setting and its value,
and the firmware stops there.
"""

import os

from engine.compat import const
from hw.app import ATTRACT_MS, App
from hw.board.buzzer import Silent, make_buzzer
from hw.board.pads import make_buttons
from hw.games import forget

# Needed only to build: forgotten once the app is built (their code leaves the heap).
_BUILD_ONLY = const(("hw.board.profiles", "hw.board.display"))


_display = None  # the display build() made: the error screen reuses it (its pins are taken)


def build(getenv=None, seed=None):
    """Return ``(profile name, App)`` for this board."""
    import board
    import microcontroller
    import usb_cdc

    from hw.board.display import make_display
    from hw.board.profiles import ATTRACT_S_MAX, choose, setting_int

    global _display  # pylint: disable=global-statement
    _display = None
    if getenv is None:
        getenv = os.getenv
    name, profile = choose(getattr(board, "board_id", ""),
                           getattr(board, "DISPLAY", None) is not None, getenv)
    attract_s = setting_int("CSPEED_ATTRACT_S", getenv("CSPEED_ATTRACT_S"), ATTRACT_MS // 1000,
                            0, ATTRACT_S_MAX)
    display = _display = make_display(profile, board)
    buttons = make_buttons(profile, board)
    warning = None
    try:
        buzzer = make_buzzer(profile.get("piezo"), board)
    except ValueError as err:  # the piezo is optional: run silent, and say why
        print("warning: %s; running without sound" % err)
        warning = ("%s - no sound" % err).encode()
        buzzer = Silent()
    port = getattr(usb_cdc, "data", None)
    if port is not None:  # the key test mode of tools/hil --port (hw.board.hil_keys)
        from supervisor import ticks_ms

        buttons.port = port
        buttons.clock = ticks_ms
    link, clock = link_opener(profile, board)
    app = App(display, buttons, port=port, seed=seed,
              buzzer=buzzer, nvm=record_store(profile, board, getattr(microcontroller, "nvm", None)),
              attract_ms=attract_s * 1000, warning=warning, link=link, clock=clock)
    for module in _BUILD_ONLY:
        forget(module)
    return name, app


def link_opener(profile, board):
    """``(open, clock)`` for link play: ``open()`` makes the cable's UART on the profile's
    link pins (``hw.app.linked``); ``(None, None)`` if the profile or the board has none."""
    pins = profile.get("link")
    if pins is None:
        return None, None
    tx = getattr(board, pins[0], None)
    rx = getattr(board, pins[1], None)
    if tx is None or rx is None:
        return None, None
    try:
        import busio
    except ImportError:  # a port of CircuitPython without busio: no link
        return None, None
    if not hasattr(busio, "UART"):
        return None, None
    from supervisor import ticks_ms

    from hw.board import uart_opener

    return uart_opener(tx, rx), ticks_ms


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

    from hw.board.profiles import SettingError, source

    where = "SCL %s, SDA %s" % pins
    found = []
    for name, use in zip(pins, ("FRAM SCL", "FRAM SDA")):
        pin = getattr(board, name, None)
        if pin is None:
            raise SettingError("%s: this board has no pin %s (%s)"
                               % (source(profile, "fram"), name, use))
        found.append(pin)
    try:
        i2c = busio.I2C(found[0], found[1], frequency=FRAM_I2C_HZ)
    except RuntimeError as err:  # no pull-ups: nothing fitted
        print("record: in the Pico's flash (no FRAM on %s: %s)" % (where, err))
        return nvm
    except ValueError as err:  # pins that cannot be an I2C bus
        raise SettingError("%s: %s (%s)" % (source(profile, "fram"), err, where)) from None
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
    if not isinstance(err, ValueError):  # not a setting's own message: say what it is
        message = "%s: %s" % (type(err).__name__, message)
    print("California Speed cannot start: %s" % message)
    view = None
    get = getenv or os.getenv
    board_id = getattr(board, "board_id", "")
    has_display = getattr(board, "DISPLAY", None) is not None
    second = None
    # The display build() made, if it got that far (its pins stay taken: a second one
    # on them would fail), else CSPEED_PROFILE's if it builds, else the board's own
    # (the setting may be what is wrong: CSPEED_PROFILE=nothing, or builtin on a board
    # without one).
    made = _display
    for settings in (None, lambda key: get(key) if key == "CSPEED_PROFILE" else None,
                     lambda key: None):
        try:
            if settings is None:
                if made is None:
                    continue
                display = made
            else:
                display = make_display(choose(board_id, has_display, settings)[1], board)
            from hw.views import error_view
            view = error_view.show(display, message)
            break
        except Exception as problem:  # pylint: disable=broad-except
            second = problem
    if view is None:
        print("(not shown on the display: %s)" % second)  # the console still has it
    if not forever:
        return view
    import time
    while True:  # stay on the message (code.py ending would show the console)
        time.sleep(1)


def diag_level(getenv=None):
    """``CSPEED_DIAG``: 0 off, 1 diagnostics, 2 diagnostics after every game's code was
    loaded once (``hw.diag``)."""
    from hw.board.profiles import setting_int

    return setting_int("CSPEED_DIAG", (getenv or os.getenv)("CSPEED_DIAG"), 0, 0, 2)


def start(app=None, getenv=None, seed=None):
    """Build the app (unless given; ``seed`` seeds its shuffles); return ``(loop, args)``:
    ``loop(*args)`` runs the main loop forever (``hw.app.App.run``, or ``hw.diag.run``
    with ``CSPEED_DIAG`` on). Nothing built refers back to this module: ``code.py``
    forgets it then, and its code leaves the heap (only start-up needs it)."""
    from supervisor import ticks_ms

    try:
        level = diag_level(getenv)  # (before the build, which forgets the profiles' code)
        if app is None:
            app = build(getenv, seed)[1]
    except Exception as err:  # pylint: disable=broad-except
        # A bad setting, a missing pin, or anything else that building from the
        # settings raised: on the display and the console, never a bare traceback.
        fail(err, getenv)
    if level:
        from hw import diag
        return diag.run, (app, ticks_ms, level)
    return app.run, (ticks_ms,)


def run(app=None, getenv=None, seed=None):
    """:func:`start`, then its main loop, forever."""
    loop, args = start(app, getenv, seed)
    loop(*args)
