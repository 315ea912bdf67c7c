"""The two pads and START: one background ``keypad`` scanner, read without allocating.

Every button of both pads and START is scanned by ONE ``keypad.Keys`` (or
``keypad.KeyMatrix``) object, so both players' presses arrive through one event
queue, each stamped by the scanner with ``supervisor.ticks_ms()`` time; the game
orders them by that timestamp only (never by key number or by when they were read).
The scan interval (2 ms) is the timestamp resolution: two presses in one scan carry
the same timestamp and are simultaneous for the rules.

:class:`Buttons` reads the queue with ``EventQueue.get_into()`` into one
preallocated ``keypad.Event`` and exposes the last event as plain attributes
(``key``, ``pressed``, ``timestamp``), so reading events allocates nothing. A full
queue sets ``overflowed``: :meth:`Buttons.check_overflow` clears it, counts it (the
caller logs it) and resynchronises: the presses that were lost are never played, but
a lost *release* would leave a key held for ever (START held abandons the match), so
the scanner is ``reset()``: keys down at that moment report a new press (a keypad
``reset()`` forgets every key's state), and the caller forgets what it held. A pad
key whose press was already read and is still down would then press twice: that
re-report (a press of a key read as down before the overflow, within
``RESYNC_MS`` of it) is swallowed here.

:func:`position` maps a pad button to a table position. A pad mirrors the table as
seen from its seat: buttons 0-3 are the near row (the player's own stacks), 4-7
the far row (the opponent's), each left to right from that seat. So both pads map
alike: A's near row is positions 0-3 and its far row, seen from A, is 7 6 5 4; B's
near row is 4-7 and its far row, seen from B, is 3 2 1 0.

Implementation Notes
--------------------

**Hardware:** buttons wired active-low to GPIO (internal pull-ups, no resistors;
RP2350's pull-down erratum rules out active-high), or a key matrix with diodes.

**Software and Dependencies:** CircuitPython 9/10 ``keypad`` (``Event.timestamp``, ``reset``,
``EventQueue.get_into``, ``overflowed``; ``debounce_threshold``, added in 9.0 by
adafruit/circuitpython#8855 -- the scanner is rebuilt without it on older firmware that
rejects the keyword), ``board``; ``hw.board.profiles``, ``engine.ticks``.
"""

from engine.ticks import ticks_diff
from hw.board.profiles import KEY_COUNT, KEY_START, NO_KEY

SCAN_INTERVAL = 0.002  # s: the scan period is the timestamp resolution
DEBOUNCE = 3  # scans a key must hold its new state (about 6 ms)
MAX_EVENTS = 64
# ms after the overflow check within which a re-reported press is the held key's own:
# reset() rescans at once, then debounce takes DEBOUNCE - 1 more scans (4 ms), plus
# the time the loop spent draining the full queue before the check.
RESYNC_MS = 40


def position(seat, button):
    """Return the table position (0-7) of ``button`` (0-7) on ``seat``'s pad."""
    if button < 4:
        return seat * 4 + button
    return (1 - seat) * 4 + 7 - button


class Buttons:
    """Reads one scanner's events into one preallocated event (see module doc)."""

    def __init__(self, scanner, keymap, event):
        self.scanner = scanner
        self.events = scanner.events
        self.keymap = keymap  # bytes: scanner key number -> logical key
        self.event = event
        self.key = NO_KEY
        self.pressed = False
        self.timestamp = 0
        self.overflows = 0
        self.down = bytearray(KEY_COUNT)  # keys read as pressed and not yet released
        self.stale = bytearray(KEY_COUNT)  # down at the last overflow: re-report expected
        self.resync_at = 0  # time of the last overflow check
        self.resyncing = False  # stale keys may still be re-reported
        self.injector = None  # hw.board.hil_keys.KeyInjector: key events from the data port
        self.port = None  # usb_cdc.data: the injector is made when a host first writes
        self.clock = None  # ticks_ms, for the injector
        self.wiring = None  # the profile's "buttons" entry: the pins the builder wired

    def rescan(self):
        """Forget every key's state: keys held down now report a new press.

        A keypad scanner made while a key is held reports nothing for it (its debounce
        counter starts at 0 and settles, silently, on "pressed"); after ``reset()`` it
        does. ``hw.app`` calls this once, on its first pass, to see START held at
        power-on (the button test mode).
        """
        self.scanner.reset()
        down = self.down
        for key in range(KEY_COUNT):
            down[key] = 0
            self.stale[key] = 0
        self.resyncing = False

    def read(self):
        """Read the next event into ``key``/``pressed``/``timestamp``; False if none."""
        event = self.event
        events = self.events
        while events.get_into(event):
            number = event.key_number
            key = self.keymap[number] if number < len(self.keymap) else NO_KEY
            pressed = event.pressed
            if key < KEY_COUNT:
                if self.stale[key]:
                    self.stale[key] = 0
                    if pressed and ticks_diff(event.timestamp, self.resync_at) <= RESYNC_MS:
                        self.down[key] = 1
                        continue  # the reset's re-report of a press already read
                self.down[key] = 1 if pressed else 0
            self.key = key
            self.pressed = pressed
            self.timestamp = event.timestamp
            return True
        injector = self.injector
        if injector is None and self.port is not None and self.port.in_waiting:
            from hw.board.hil_keys import KeyInjector  # the first bytes from a host: listen

            injector = self.injector = KeyInjector(self.port, self.clock)
        if injector is not None and injector.next():  # test mode: the same path
            key = injector.key
            self.down[key] = 1 if injector.pressed else 0
            self.key = key
            self.pressed = injector.pressed
            self.timestamp = injector.timestamp
            return True
        return False

    def check_overflow(self, now=0):
        """Return True (once) if the queue overflowed since the last check.

        Call it after draining the queue, with the loop's time: ``clear()`` also drops
        queued events. Resynchronises the keys (see the module docstring): the caller
        must forget any key it holds as down (START).
        """
        if self.resyncing and ticks_diff(now, self.resync_at) > RESYNC_MS + RESYNC_MS:
            # The re-reports are long due: forget the stale marks, so a press days
            # later (the tick count wraps) is never taken for one.
            self.resyncing = False
            stale = self.stale
            for key in range(KEY_COUNT):
                stale[key] = 0
        if not self.events.overflowed:
            return False
        self.events.clear()
        self.scanner.reset()
        down = self.down
        stale = self.stale
        for key in range(KEY_START):  # pad keys; START's re-report is wanted
            stale[key] = down[key]
            down[key] = 0
        down[KEY_START] = 0
        self.resync_at = now
        self.resyncing = True
        self.overflows += 1
        return True


def make_buttons(profile, board_module=None, keypad_module=None):
    """Build the one scanner described by ``profile["buttons"]``; return Buttons."""
    if board_module is None:
        import board as board_module
    if keypad_module is None:
        import keypad as keypad_module
    from hw.board.profiles import SettingError, key_name, source  # (build time only)

    spec = profile["buttons"]
    kwargs = {"interval": SCAN_INTERVAL, "max_events": MAX_EVENTS,
              "debounce_threshold": DEBOUNCE}

    def pin(name, use):
        try:
            return getattr(board_module, name)
        except AttributeError:
            raise SettingError("%s: this board has no pin %s (%s)"
                               % (source(profile, "buttons"), name, use)) from None

    if spec["kind"] == "keys":
        pins = tuple(pin(name, "button " + key_name(key)) for key, name in enumerate(spec["pins"]))
        if len(pins) != KEY_COUNT:
            raise ValueError("a keys profile needs %d pins" % KEY_COUNT)
        keymap = bytes(range(KEY_COUNT))

        def build(**kw):
            return keypad_module.Keys(pins, value_when_pressed=False, pull=True, **kw)
    elif spec["kind"] == "matrix":
        rows = tuple(pin(name, "key matrix row") for name in spec["rows"])
        cols = tuple(pin(name, "key matrix column") for name in spec["columns"])
        keymap = bytes(spec["keymap"])
        if len(keymap) != len(rows) * len(cols):
            raise ValueError("the matrix keymap needs rows x columns entries")
        if sorted(k for k in keymap if k != NO_KEY) != list(range(KEY_COUNT)):
            raise ValueError("the matrix keymap must hold every logical key once")

        def build(**kw):
            return keypad_module.KeyMatrix(
                rows, cols, columns_to_anodes=spec.get("columns_to_anodes", True), **kw)
    else:
        raise ValueError("unknown buttons kind %r" % spec["kind"])
    try:
        scanner = build(**kwargs)
    except TypeError:  # CircuitPython 8.x: no debounce_threshold (added in 9.0)
        del kwargs["debounce_threshold"]
        scanner = build(**kwargs)
    buttons = Buttons(scanner, keymap, keypad_module.Event())
    buttons.wiring = spec
    return buttons


__all__ = ("Buttons", "KEY_START", "make_buttons", "position")
