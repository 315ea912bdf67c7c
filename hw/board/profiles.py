"""Board profiles: which pins drive the display, the two pads, START and the piezo.

A profile is plain data (dicts, tuples and pin *names*), so the desktop tools can read
it without any hardware: ``tools/wiring.py`` prints the builders' wiring table from it.

Buttons are numbered by *logical key*:

* ``0..7``  pad A, ``8..15`` pad B: ``seat * 8 + button``, where a pad's buttons are
  ``0..3`` its near row and ``4..7`` its far row, each left to right as seen from
  that seat (``hw.board.pads`` turns a button into a table position);
* ``16`` START/MENU.

A ``"keys"`` pad set lists one pin per logical key (key number = logical key); a
``"matrix"`` set lists row and column pins and a ``keymap`` giving the logical key of
each matrix key (``row * columns + column``; 255 = no button there). Either way ONE
``keypad`` scanner serves every button, so both players' presses reach the game
through one queue and are ordered by their timestamps only.

Choosing a profile: ``CSPEED_PROFILE`` in ``settings.toml`` wins; otherwise the
first profile listing ``board.board_id``; otherwise ``"builtin"`` if the board has
``board.DISPLAY``. Other settings: ``CSPEED_ROTATION`` (0/90/180/270),
``CSPEED_PIEZO`` (a pin name or ``none``), ``CSPEED_WIRING`` (``link``, the default:
the display's RESET tied to 3V3, the piezo on GP28 and the link cable on UART1 GP20
TX / GP21 RX; ``classic``: a kit built before the link cable, display RESET on GP20
and piezo on GP21, no link), ``CSPEED_FRAM`` (the optional record FRAM's
SCL and SDA pins, ``GP27,GP26``, or ``none``), ``CSPEED_KEY_PINS`` (17 comma-separated
pin names, pad A near 1-4, far 1-4, pad B likewise, START: direct buttons); and, read by
``hw.main`` with :func:`setting_int`, ``CSPEED_ATTRACT_S`` (0 to
:data:`ATTRACT_S_MAX`) and ``CSPEED_DIAG`` (0 or 1). ``os.getenv`` returns strings on
CircuitPython 10.2 and later (and may return ints on older versions): everything is
parsed here, as strictly on the desktop as on the device (ASCII digits and blanks).

A bad value raises :class:`SettingError` naming the setting and the value
(``CSPEED_ROTATION=180.0: must be 0, 90, 180 or 270``), and so does a pin used twice
(two buttons, a button and the display or the piezo); a pin the board lacks is named
with the setting that chose it (:func:`source`): ``hw.main.start`` shows the message on
the display (``hw.views.error_view``) and stops there.

Implementation Notes
--------------------

**Hardware:** Raspberry Pi Pico / Pico 2 (reference), 2.8" ILI9341 320x240 SPI TFT;
ST7789 240x240 / 240x135 alternatives; boards with a built-in display.

**Software and Dependencies:** none (pure data); used by ``hw.board.display``, ``hw.board.pads``
and ``tools/wiring.py``.
"""

from hw.board import SettingError  # (defined there: it outlives this module, see hw.board)

KEY_START = 16
KEY_COUNT = 17
NO_KEY = 255

# The display's RESET is tied to 3V3 (None: no reset pin; the driver resets it by
# command), which frees GP20 for the link cable.
_SPI_DISPLAY = {
    "sck": "GP18", "mosi": "GP19", "cs": "GP17", "dc": "GP16", "reset": None,
    "baudrate": 24000000,
}

_PICO_BUTTONS = {
    "kind": "keys",
    # Pad A: near row GP0-GP3, far row GP4-GP7; pad B: near GP8-GP11, far GP12-GP15.
    "pins": (
        "GP0", "GP1", "GP2", "GP3", "GP4", "GP5", "GP6", "GP7",
        "GP8", "GP9", "GP10", "GP11", "GP12", "GP13", "GP14", "GP15",
        "GP22",
    ),
}

# The optional I2C FRAM that keeps the record safe from power cuts (hw.store.fram):
# (SCL, SDA) on the Pico's I2C1.
_PICO_FRAM = ("GP27", "GP26")

# The link cable (docs/LINK.md): UART1, (TX, RX), crossed to the other kit's, and GND.
# CSPEED_WIRING=classic, a kit built before the link cable, has the display's RESET
# on TX's pin and the piezo on RX's, and no link.
_PICO_LINK = ("GP20", "GP21")

_PICO_BOARDS = (
    "raspberry_pi_pico", "raspberry_pi_pico_w",
    "raspberry_pi_pico2", "raspberry_pi_pico2_w",
)


def _with(base, **extra):
    merged = dict(base)
    merged.update(extra)
    return merged


PROFILES = {
    # The reference kit.
    "pico_ili9341": {
        "title": "Raspberry Pi Pico / Pico 2 + 2.8in ILI9341 320x240",
        "boards": _PICO_BOARDS,
        "display": _with(_SPI_DISPLAY, driver="ili9341", width=320, height=240, rotation=0),
        "buttons": _PICO_BUTTONS,
        "piezo": "GP28",
        "fram": _PICO_FRAM,
        "link": _PICO_LINK,
    },
    "pico_st7789_240": {
        "title": "Raspberry Pi Pico + 1.3/1.54in ST7789 240x240",
        "boards": (),
        "display": _with(_SPI_DISPLAY, driver="st7789", width=240, height=240, rotation=0,
                         rowstart=80, colstart=0),
        "buttons": _PICO_BUTTONS,
        "piezo": "GP28",
        "fram": _PICO_FRAM,
        "link": _PICO_LINK,
    },
    "pico_st7789_135": {
        "title": "Raspberry Pi Pico + 1.14in ST7789 240x135",
        "boards": (),
        "display": _with(_SPI_DISPLAY, driver="st7789", width=240, height=135, rotation=270,
                         rowstart=40, colstart=53),
        "buttons": _PICO_BUTTONS,
        "piezo": "GP28",
        "fram": _PICO_FRAM,
        "link": _PICO_LINK,
    },
    # Feather ESP32-S3 TFT: built-in 240x135 display, too few pins for 17 buttons, so
    # all buttons sit on one 3x6 key matrix (9 pins, diodes on each button).
    "feather_esp32s3_tft": {
        "title": "Adafruit Feather ESP32-S3 TFT (built-in 240x135), buttons as a key matrix",
        "boards": ("adafruit_feather_esp32s3_tft",),
        "display": {"driver": "builtin", "rotation": None},
        "buttons": {
            "kind": "matrix",
            "rows": ("A0", "A1", "A2"),
            "columns": ("D5", "D6", "D9", "D10", "D11", "D12"),
            "columns_to_anodes": True,
            "keymap": (
                0, 1, 2, 3, 4, 5,
                6, 7, 8, 9, 10, 11,
                12, 13, 14, 15, KEY_START, NO_KEY,
            ),
        },
        "piezo": "D13",
    },
    # Any board with board.DISPLAY (PyPortal, CLUE, the desktop emulator, ...). Its
    # buttons default to the Pico's pin names; name 17 pins in settings.toml
    # (CSPEED_KEY_PINS) for another board.
    "builtin": {
        "title": "A board with a built-in display (board.DISPLAY)",
        "boards": (),
        "display": {"driver": "builtin", "rotation": None},
        "buttons": _PICO_BUTTONS,
        "piezo": None,
        "link": _PICO_LINK,
    },
}

REFERENCE = "pico_ili9341"

_ROTATIONS = (0, 90, 180, 270)
ATTRACT_S_MAX = 3600  # CSPEED_ATTRACT_S: idle seconds on the title before attract mode (0 = never)


def _rotation(value):
    """``CSPEED_ROTATION`` as an int, or None if unset; anything else is an error."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    else:
        text = _setting_text(value)
    if text not in ("0", "90", "180", "270"):
        raise SettingError("CSPEED_ROTATION=%s: must be 0, 90, 180 or 270" % text)
    return int(text)


def _profile_pins(profile):
    """Return ``[(pin name, its use)]`` for every pin the profile uses."""
    used = []
    buttons = profile["buttons"]
    if buttons["kind"] == "keys":
        for key, pin in enumerate(buttons["pins"]):
            used.append((pin, "button " + key_name(key)))
    else:
        for pin in buttons["rows"]:
            used.append((pin, "key matrix row"))
        for pin in buttons["columns"]:
            used.append((pin, "key matrix column"))
    display = profile["display"]
    for part in ("sck", "mosi", "cs", "dc", "reset"):
        pin = display.get(part)
        if pin is not None:
            used.append((pin, "display " + part))
    if profile.get("piezo") is not None:
        used.append((profile["piezo"], "piezo"))
    if profile.get("fram") is not None:
        used.append((profile["fram"][0], "FRAM SCL"))
        used.append((profile["fram"][1], "FRAM SDA"))
    if profile.get("link") is not None:
        used.append((profile["link"][0], "link cable TX"))
        used.append((profile["link"][1], "link cable RX"))
    return used


def check_pins(profile):
    """Raise :class:`SettingError` if two uses share one pin."""
    seen = {}
    for pin, use in _profile_pins(profile):
        if pin in seen:
            raise SettingError("pin %s is used twice: %s and %s (check CSPEED_KEY_PINS, "
                               "CSPEED_PIEZO, CSPEED_FRAM, CSPEED_WIRING)" % (pin, seen[pin], use))
        seen[pin] = use


# What CircuitPython's str.strip() takes off: ASCII blanks only (CPython's also takes
# NBSP, U+3000 ..., which the device would leave in and refuse).
_BLANKS = " \t\n\r\x0b\x0c"


def _setting_text(value):
    """Return a settings value as plain text.

    From CircuitPython 10.2 ``os.getenv`` returns the raw right-hand side of
    ``KEY = value`` when that is not a quoted string (adafruit/circuitpython#10819), so
    be lenient: drop surrounding double quotes, or a trailing ``# comment`` after an
    unquoted value. No value used here contains ``"`` or ``#``.
    """
    text = str(value).strip(_BLANKS)
    if text.startswith('"'):
        end = text.find('"', 1)
        return (text[1:end] if end > 0 else text[1:]).strip(_BLANKS)
    hash_at = text.find("#")
    if hash_at >= 0:
        text = text[:hash_at].strip(_BLANKS)
    return text


def setting_int(name, value, default, low, high):
    """Return setting ``name``'s ``value`` (a settings string, an int or None) as an int.

    ``default`` when unset; a whole number from ``low`` to ``high`` in ASCII digits;
    anything else raises :class:`SettingError` naming the setting and the value. The
    digits are checked here, not left to ``int()``: CPython's reads Arabic-Indic and
    full-width digits, CircuitPython's does not, and the desktop must refuse what the
    device refuses (and ``3_0``, ``+5``, which CircuitPython's ``int()`` reads, are
    refused on both).
    """
    if value is None:
        return default
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)  # CircuitPython before 10.2 returned unquoted numbers as ints
    else:
        text = _setting_text(value)
    if 0 < len(text) <= 9 and all("0" <= c <= "9" for c in text):
        number = int(text)
        if low <= number <= high:
            return number
    raise SettingError("%s=%s: must be a whole number from %d to %d" % (name, text, low, high))


def parse_name(value):
    """Return a settings string stripped, or None for an empty value or ``none``."""
    if value is None:
        return None
    text = _setting_text(value)
    if not text or text.lower() == "none":
        return None
    return text


def choose(board_id, has_display, getenv):
    """Return ``(name, profile)`` for this board; ``getenv`` reads ``settings.toml``.

    Raises ``ValueError`` with a readable message if no profile fits.
    """
    name = parse_name(getenv("CSPEED_PROFILE"))
    chosen = None
    if name is not None:
        if name not in PROFILES:
            raise SettingError("CSPEED_PROFILE=%s: not one of %s"
                             % (name, ", ".join(sorted(PROFILES))))
        chosen = "CSPEED_PROFILE=%s" % name
    else:
        for key in sorted(PROFILES):
            if board_id in PROFILES[key]["boards"]:
                name = key
                break
        if name is None:
            if not has_display:
                raise ValueError("no profile for board %r: set CSPEED_PROFILE in settings.toml"
                                 % (board_id,))
            name = "builtin"
    chosen = chosen or "profile %s" % name
    profile = _with(PROFILES[name])
    # Which setting decided each part, for messages: "CSPEED_KEY_PINS=...: this board
    # has no pin GP99 (button START)" (see source()).
    profile["from"] = {"display": chosen, "buttons": chosen, "fram": chosen}
    display = _with(profile["display"])
    rotation = _rotation(getenv("CSPEED_ROTATION"))
    if rotation is not None:
        display["rotation"] = rotation
    profile["display"] = display
    pins = parse_name(getenv("CSPEED_KEY_PINS"))
    if pins is not None:
        names = tuple(p.strip() for p in pins.split(","))
        if len(names) != KEY_COUNT:
            raise SettingError("CSPEED_KEY_PINS=%s: needs %d comma-separated pin names, not %d"
                               % (pins, KEY_COUNT, len(names)))
        if "" in names:
            raise SettingError("CSPEED_KEY_PINS=%s: pin name %d (%s) is empty"
                               % (pins, names.index("") + 1, key_name(names.index(""))))
        profile["buttons"] = {"kind": "keys", "pins": names}
        profile["from"]["buttons"] = "CSPEED_KEY_PINS=%s" % pins
    wiring = parse_name(getenv("CSPEED_WIRING"))
    if wiring is not None and wiring != "link":
        pico = profile.get("link") is not None and "reset" in display  # a Pico profile
        if wiring != "classic" or not pico:
            raise SettingError("CSPEED_WIRING=%s: must be link or classic%s"
                               % (wiring, "" if pico else
                                  " (and only a Pico profile has the classic wiring)"))
        display["reset"], profile["piezo"] = profile["link"]  # (TX's pin, RX's pin)
        profile["link"] = None
    piezo = getenv("CSPEED_PIEZO")
    if piezo is not None:
        profile["piezo"] = parse_name(piezo)
    fram = getenv("CSPEED_FRAM")
    if fram is not None:
        profile["fram"] = _fram_pins(fram)
        profile["from"]["fram"] = "CSPEED_FRAM=%s" % parse_name(fram)
    check_pins(profile)
    return name, profile


def source(profile, part):
    """The setting that decided ``part`` of ``profile`` (``"CSPEED_KEY_PINS=..."``,
    ``"CSPEED_PROFILE=builtin"``), or ``"profile NAME"``: what a message names."""
    return profile.get("from", {}).get(part, "the profile")


def _fram_pins(value):
    """``CSPEED_FRAM``: ``none``, or the SCL and SDA pin names, comma-separated."""
    text = parse_name(value)
    if text is None:
        return None
    names = tuple(p.strip() for p in text.split(","))
    if len(names) != 2 or "" in names:
        raise SettingError("CSPEED_FRAM=%s: must be none or two pin names, SCL,SDA (GP27,GP26)"
                           % text)
    return names


def key_pins(profile):
    """Return ``[(logical key, pin name or (row, column) names)]`` in key order."""
    buttons = profile["buttons"]
    if buttons["kind"] == "keys":
        return [(k, pin) for k, pin in enumerate(buttons["pins"])]
    cols = buttons["columns"]
    out = []
    for i, key in enumerate(buttons["keymap"]):
        if key != NO_KEY:
            out.append((key, (buttons["rows"][i // len(cols)], cols[i % len(cols)])))
    out.sort()
    return out


def key_name(key):
    """Return a builder's name for a logical key, e.g. ``"A near 1"`` or ``"START"``."""
    if key == KEY_START:
        return "START"
    seat = "AB"[key >> 3]
    button = key & 7
    return "%s %s %d" % (seat, "near" if button < 4 else "far", (button & 3) + 1)
