"""Wiring table and diagram of a board profile, generated from ``hw/board/profiles.py``.

Usage::

    .venv/bin/python -m tools.wiring                  # the reference kit's table (markdown)
    .venv/bin/python -m tools.wiring --png docs/wiring.png --layout docs/layout.png \
        --doc docs/BUILD.md                           # what make wiring runs
    .venv/bin/python -m tools.wiring --profile pico_st7789_240

``docs/BUILD.md`` holds the reference table between ``<!-- wiring:begin -->`` and
``<!-- wiring:end -->`` (``--doc`` rewrites it); a test checks that it equals this
tool's output, so the document cannot drift from the pins the firmware uses.

Implementation Notes
--------------------

Every wire of the kit is one row of the table: a pad's eight buttons share one
*ground bus* on the pad, so a pad is nine wires to the board (eight signals, one
ground), and the summary under the table counts them. The diagram places each part
beside the pins it uses so that every wire is a straight line to its pin: no two
wires cross, and a dot marks each place where wires join (a ground bus, the two
3.3 V wires of the display). It is drawn for the Pico profiles only.
"""

import os
import sys

from hw.board.pads import position
from hw.board.profiles import KEY_START, PROFILES, REFERENCE, key_name, key_pins
from tools import cli

# Raspberry Pi Pico / Pico 2 physical pin numbers (pin 1 = GP0, top left, USB up).
PICO_PINS = {
    "GP0": 1, "GP1": 2, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10,
    "GP8": 11, "GP9": 12, "GP10": 14, "GP11": 15, "GP12": 16, "GP13": 17, "GP14": 19,
    "GP15": 20, "GP16": 21, "GP17": 22, "GP18": 24, "GP19": 25, "GP20": 26, "GP21": 27,
    "GP22": 29, "GP26": 31, "GP27": 32, "GP28": 34, "3V3(OUT)": 36, "GND": 38,
}
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 33, 38)
PICO_OTHER = {30: "RUN", 35: "ADC_VREF", 37: "3V3_EN", 39: "VSYS", 40: "VBUS"}

# The ground pin each part's ground wire goes to: beside the part's signal pins, so
# the diagram needs no crossing (pad A uses pins 1-10, pad B 11-20).
GROUND_PIN = {"Pad A": 3, "Pad B": 18, "START": 33, "Piezo": 33, "FRAM": 38, "Link": 28}

DISPLAY_PINS = (  # (module pin, profile key or a fixed connection, note)
    ("VCC", "3V3(OUT)", "3.3 V supply"),
    ("GND", "GND", ""),
    ("CS", "cs", "chip select"),
    ("RESET", "reset", ""),
    ("DC", "dc", "data/command"),
    ("SDI (MOSI)", "mosi", "SPI0 TX"),
    ("SCK", "sck", "SPI0 SCK"),
    ("LED", "3V3(OUT)", "backlight always on"),
    ("SDO (MISO)", None, "not connected"),
)


def is_pico(profile_name):
    """Return True if ``profile_name`` is wired to a Raspberry Pi Pico / Pico 2."""
    return profile_name.startswith("pico")


def board_label(profile_name):
    """Return the board's name for the table heading: Pico, Feather or Board."""
    if is_pico(profile_name):
        return "Pico"
    if profile_name.startswith("feather"):
        return "Feather"
    return "Board"


def _pin_number(name, pico):
    number = PICO_PINS.get(name) if pico else None
    return str(number) if number is not None else "-"


def _ground(part, pico):
    return str(GROUND_PIN[part]) if pico else "-"


def rows(profile_name=REFERENCE):
    """Return the wiring as ``[(part, part pin, board pin, pin number, note)]``.

    One row per wire to the board, plus one row for a display pin left unconnected
    (its board pin is ``-``).
    """
    profile = PROFILES[profile_name]
    pico = is_pico(profile_name)
    out = []
    display = profile["display"]
    if display["driver"] != "builtin":
        part = "Display (%s %dx%d)" % (display["driver"].upper(), display["width"],
                                       display["height"])
        for module_pin, source, note in DISPLAY_PINS:
            if source is None:
                out.append((part, module_pin, "-", "-", note))
                continue
            pin = display.get(source, source)
            if source == "reset" and pin is None:  # no reset pin: held high
                pin, note = "3V3(OUT)", "tied to 3.3 V (the driver resets by command)"
            out.append((part, module_pin, pin, _pin_number(pin, pico), note))
    if profile["buttons"]["kind"] == "keys":
        for key, pin in key_pins(profile):
            if key == KEY_START:
                out.append(("START/MENU button", "one leg", pin, _pin_number(pin, pico),
                            "tap: pause; hold 1 s: menu"))
                out.append(("START/MENU ground", "other leg", "GND", _ground("START", pico),
                            ""))
                continue
            seat, button = key >> 3, key & 7
            out.append(("Pad %s button" % "AB"[seat], key_name(key).split(" ", 1)[1], pin,
                        _pin_number(pin, pico), "table position %d" % position(seat, button)))
            if button == 7:
                pad = "Pad %s" % "AB"[seat]
                out.append((pad + " ground bus", "other leg of all 8 buttons", "GND",
                            _ground(pad, pico), "one wire for the whole pad"))
    else:
        for key, (row, col) in key_pins(profile):
            out.append(("Key matrix", key_name(key), "%s x %s" % (row, col), "-",
                        "switch + diode, band toward %s" % row))
    if profile.get("piezo"):
        out.append(("Piezo buzzer (passive)", "+", profile["piezo"],
                    _pin_number(profile["piezo"], pico), "optional"))
        out.append(("Piezo buzzer (passive)", "-", "GND", _ground("Piezo", pico), ""))
    if profile.get("link"):
        tx, rx = profile["link"]
        part = "Link cable (to the other kit)"
        out.append((part, "TX", tx, _pin_number(tx, pico),
                    "optional: UART1 TX, to the other kit's RX"))
        out.append((part, "RX", rx, _pin_number(rx, pico), "UART1 RX, to the other kit's TX"))
        out.append((part, "GND", "GND", _ground("Link", pico), "to the other kit's GND"))
    if profile.get("fram"):
        scl, sda = profile["fram"]
        part = "FRAM (MB85RC256V I2C)"
        out.append((part, "VCC", "3V3(OUT)", _pin_number("3V3(OUT)", pico),
                    "optional: keeps the record safe from power cuts"))
        out.append((part, "GND", "GND", _ground("FRAM", pico),
                    "beside the display's ground" if pico else ""))
        out.append((part, "SCL", scl, _pin_number(scl, pico), "I2C1 SCL"))
        out.append((part, "SDA", sda, _pin_number(sda, pico), "I2C1 SDA"))
        out.append((part, "WP, A0, A1, A2", "-", "-", "not connected (writable, address 0x50)"))
    return out


def wire_counts(profile_name=REFERENCE):
    """Return ``[(group, wires to the board)]`` for a profile with direct buttons."""
    groups = (("display", "Display"), ("pad A", "Pad A"), ("pad B", "Pad B"),
              ("START", "START"), ("piezo", "Piezo"), ("FRAM", "FRAM"), ("link", "Link"))
    counts = []
    table = rows(profile_name)
    for name, prefix in groups:
        n = sum(1 for r in table if r[0].startswith(prefix) and r[2] != "-")
        if n:
            counts.append((name, n))
    return counts


def summary(profile_name=REFERENCE):
    """Return the sentence that counts the kit's wires (direct buttons only)."""
    if PROFILES[profile_name]["buttons"]["kind"] != "keys":
        return ""
    counts = wire_counts(profile_name)
    total = sum(n for _, n in counts)
    return ("**Wires to the %s: %d**, one per row with a pin (%s), plus one ground bus "
            "on each pad: **%d pieces of wire** in all." % (
                board_label(profile_name), total,
                ", ".join("%s %d" % c for c in counts), total + 2))


def markdown(profile_name=REFERENCE):
    """Return the wiring table (and its wire count) as markdown, no trailing newline."""
    board = board_label(profile_name)
    pico = is_pico(profile_name)
    if pico:
        head = "| Part | Part pin | %s pin | %s pin no. | Note |" % (board, board)
    else:
        head = "| Part | Part pin | %s pin | Note |" % board
    lines = [head, "|---" * head.count(" | ") + "|---|"]
    for row in rows(profile_name):
        cells = row if pico else row[:3] + row[4:]
        lines.append("| %s |" % " | ".join(cells))
    text = summary(profile_name)
    if text:
        lines += ["", text]
    return "\n".join(lines)


class _Canvas:
    """The drawing primitives of the diagram (Pillow)."""

    def __init__(self, width, height):
        from PIL import Image, ImageDraw, ImageFont

        self.image = Image.new("RGB", (width, height), "white")
        self.draw = ImageDraw.Draw(self.image)
        try:
            self.font = ImageFont.load_default(size=15)
            self.small = ImageFont.load_default(size=13)
            self.big = ImageFont.load_default(size=22)
        except TypeError:  # an old Pillow without sizes
            self.font = self.small = self.big = ImageFont.load_default()

    def line(self, points, color, width=2):
        self.draw.line(points, fill=color, width=width)

    def dot(self, x, y, color="black"):
        self.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=color)

    def text(self, xy, text, color="black", font=None, anchor="lm"):
        self.draw.text(xy, text, fill=color, font=font or self.small, anchor=anchor)

    def switch(self, x, y, color, vertical=False):
        """A push button between (x, y) and 30 px further right (or down)."""
        d = self.draw
        if vertical:
            for yy in (y, y + 30):
                d.ellipse((x - 3, yy - 3, x + 3, yy + 3), outline=color, width=2)
            d.line(((x + 9, y - 2), (x + 9, y + 32)), fill=color, width=2)
            d.line(((x + 9, y + 15), (x + 15, y + 15)), fill=color, width=2)
        else:
            for xx in (x, x + 30):
                d.ellipse((xx - 3, y - 3, xx + 3, y + 3), outline=color, width=2)
            d.line(((x - 2, y - 9), (x + 32, y - 9)), fill=color, width=2)
            d.line(((x + 15, y - 9), (x + 15, y - 15)), fill=color, width=2)


WIDTH, HEIGHT = 1280, 960
GND_COLOR = (0, 0, 0)
V33_COLOR = (200, 0, 0)
COLORS = {"Display": (30, 90, 200), "Pad A": (200, 80, 20), "Pad B": (120, 40, 160),
          "START": (0, 130, 130), "Piezo": (150, 110, 0), "Link": (0, 140, 40)}


def draw_png(path, profile_name=REFERENCE):
    """Draw the wiring diagram of ``profile_name`` (a Pico profile) into a PNG."""
    if not is_pico(profile_name) or PROFILES[profile_name]["buttons"]["kind"] != "keys":
        raise ValueError("the diagram is drawn for the Pico profiles only, not %r"
                         % profile_name)
    profile = PROFILES[profile_name]
    table = rows(profile_name)
    c = _Canvas(WIDTH, HEIGHT)
    # The Pico, USB at the top, pins 1-20 down the left, 21-40 up the right.
    px0, px1, py0, pitch = 540, 760, 90, 36

    def pin_y(number):
        return py0 + 20 + ((number - 1) if number <= 20 else (40 - number)) * pitch

    def pin_x(number):
        return px0 if number <= 20 else px1

    c.draw.rectangle((px0, py0, px1, py0 + 20 * pitch + 20), outline="black", width=3,
                     fill=(40, 120, 60))
    mid = (px0 + px1) // 2
    c.draw.rectangle((mid - 30, py0 - 20, mid + 30, py0 + 10), fill=(180, 180, 180),
                     outline="black")
    c.text((mid, py0 + 20 * pitch + 45), "Raspberry Pi Pico / Pico 2", font=c.big,
           anchor="mm")
    c.text((640, 30), "California Speed handheld: wiring of %s" % profile_name, font=c.big,
           anchor="mm")
    names = {number: name for name, number in PICO_PINS.items()}
    names.update({g: "GND" for g in PICO_GROUNDS})
    names.update(PICO_OTHER)
    for number in range(1, 41):
        x, y = pin_x(number), pin_y(number)
        if number <= 20:
            c.text((x + 10, y), "%d %s" % (number, names.get(number, "")), "white")
        else:
            c.text((x - 10, y), "%s %d" % (names.get(number, ""), number), "white",
                   anchor="rm")

    wired = []  # every pin a wire reaches, to draw its gold dot on top

    def to_pin(x, number, color):
        c.line(((x, pin_y(number)), (pin_x(number), pin_y(number))), color)
        wired.append(number)

    # Pads: a box beside the pins they use; every button between its pin's line and
    # the pad's ground bus (a vertical line with a dot at every joint).
    for seat in (0, 1):
        pad = "Pad %s" % "AB"[seat]
        color = COLORS[pad]
        keys = [r for r in table if r[0] == pad + " button"]
        numbers = [int(r[3]) for r in keys] + [GROUND_PIN[pad]]
        top, bottom = pin_y(min(numbers)), pin_y(max(numbers))
        c.draw.rectangle((40, top - 24, 450, bottom + 8), outline=color, width=3)
        c.text((50, (top + bottom) // 2 - 30), pad, color, c.big)
        c.text((50, (top + bottom) // 2),
               "%s seat" % ("top (B)" if seat else "bottom (A)"), color, c.font)
        c.text((50, (top + bottom) // 2 + 22), "8 buttons", color, c.font)
        bus = 190
        c.line(((bus, top), (bus, bottom)), GND_COLOR, 3)
        for r in keys:
            y = pin_y(int(r[3]))
            c.dot(bus, y)
            c.line(((bus, y), (220, y)), GND_COLOR)
            c.switch(220, y, color)
            c.text((262, y - 9), "%s  (position %s)" % (r[1], r[4].split()[-1]), color,
                   anchor="ls")
            to_pin(250, int(r[3]), color)
        c.dot(bus, pin_y(GROUND_PIN[pad]))
        c.text((262, pin_y(GROUND_PIN[pad]) - 6), "ground bus to GND", GND_COLOR,
               anchor="ls")
        to_pin(bus, GROUND_PIN[pad], GND_COLOR)

    # START: a button between its pin and the GND pin above it.
    start = [r for r in table if r[0].startswith("START/MENU button")][0]
    sy, gy = pin_y(int(start[3])), pin_y(GROUND_PIN["START"])
    color = COLORS["START"]
    c.draw.rectangle((790, gy - 15, 955, sy + 15), outline=color, width=3)
    swx, swy = 840, (sy + gy) // 2 - 15
    c.line(((790, gy), (swx, gy), (swx, swy)), GND_COLOR)
    c.line(((790, sy), (swx, sy), (swx, swy + 30)), color)
    c.switch(swx, swy, color, vertical=True)
    c.text((870, swy + 5), "START", color, c.font)
    c.text((870, swy + 25), "MENU", color, c.font)
    to_pin(790, int(start[3]), color)
    to_pin(790, GROUND_PIN["START"], GND_COLOR)

    # Piezo: + on its pin; - on a GND pin beside it, or joining START's ground wire
    # (a dot) when that pin is START's.
    if profile.get("piezo"):
        color = COLORS["Piezo"]
        plus = PICO_PINS[profile["piezo"]]
        zy, gy = pin_y(plus), pin_y(GROUND_PIN["Piezo"])
        if GROUND_PIN["Piezo"] == GROUND_PIN["START"]:
            c.draw.rectangle((800, zy - 14, 955, zy + 10), outline=color, width=3)
            c.text((808, zy - 2), "piezo: + here, - below", color)
            c.line(((800, zy + 6), (775, zy + 6), (775, gy)), GND_COLOR)
            c.dot(775, gy)
            to_pin(800, plus, color)
        else:
            c.draw.rectangle((790, gy - 14, 955, zy + 14), outline=color, width=3)
            c.text((800, gy), "-", GND_COLOR, c.font)
            c.text((800, zy), "+", color, c.font)
            c.text((830, (gy + zy) // 2), "piezo (optional)", color, c.font)
            to_pin(790, plus, color)
            to_pin(790, GROUND_PIN["Piezo"], GND_COLOR)

    # The link cable: TX, RX and GND to the other kit's RX, TX and GND.
    if profile.get("link"):
        color = COLORS["Link"]
        tx, rx = (PICO_PINS[p] for p in profile["link"])
        ys = [pin_y(n) for n in (tx, rx, GROUND_PIN["Link"])]
        c.draw.rectangle((790, min(ys) - 14, 955, max(ys) + 14), outline=color, width=3)
        for number, label in ((tx, "TX -> other RX"), (rx, "RX <- other TX"),
                              (GROUND_PIN["Link"], "GND - other GND")):
            c.text((800, pin_y(number)), label, GND_COLOR if label[0] == "G" else color)
            to_pin(790, number, GND_COLOR if label[0] == "G" else color)
        c.text((872, max(ys) + 26), "link cable (optional)", color, c.small, anchor="mm")

    # Display: its pins in the order of the Pico's pins (the labels name them), so
    # each wire runs straight; LED joins VCC on the 3.3 V wire.
    color = COLORS["Display"]
    disp = {r[1]: r for r in table if r[0].startswith("Display") and r[2] != "-"}
    c.draw.rectangle((990, pin_y(40) - 15, 1240, pin_y(21) + 60), outline=color, width=3)
    c.text((1115, pin_y(40) + 5), table[0][0], color, c.font, anchor="mm")
    c.text((1000, pin_y(21) + 30), "SDO (MISO) and the touch", color)
    c.text((1000, pin_y(21) + 46), "pins: not connected", color)
    v33 = PICO_PINS["3V3(OUT)"]
    led_y = pin_y(v33) + pitch  # the free row below 3V3(OUT)
    reset_y = pin_y(v33) - pitch  # the free row above 3V3(OUT): RESET tied high
    for name, r in disp.items():
        number = int(r[3])
        tied = name == "LED" or (name == "RESET" and r[2] == "3V3(OUT)")
        y = led_y if name == "LED" else reset_y if tied else pin_y(number)
        wire = GND_COLOR if r[2] == "GND" else V33_COLOR if r[2] == "3V3(OUT)" else color
        note = "tied to 3.3 V" if tied and name == "RESET" else r[4]
        c.text((1000, y), "%s  %s" % (name, note) if note else name, color)
        if tied:
            c.line(((990, y), (960, y), (960, pin_y(v33))), wire)
            c.dot(960, pin_y(v33), wire)
        else:
            to_pin(990, number, wire)

    for number in set(wired):
        x, y = pin_x(number), pin_y(number)
        c.draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill="gold", outline="black")
    for number in set(range(1, 41)) - set(wired):
        x, y = pin_x(number), pin_y(number)
        c.draw.ellipse((x - 4, y - 4, x + 4, y + 4), fill=(150, 150, 150))
    c.text((640, HEIGHT - 55), "Every wire runs straight to its pin: no wire crosses another. "
           "A dot joins wires (ground bus, 3.3 V).", font=c.font, anchor="mm")
    c.text((640, HEIGHT - 28), "Buttons need no resistors: the Pico's pull-ups hold each pin high "
           "and a press pulls it to GND (active low). Black = GND, red = 3.3 V.",
           font=c.font, anchor="mm")
    c.image.save(path)


def draw_layout(path, profile_name=REFERENCE):
    """Draw the handheld seen from above (pads, screen, START) into a PNG.

    Every button shows the table position it plays, its name on its pad and its pin;
    each pad's ground bus joins one leg of all eight buttons.
    """
    if PROFILES[profile_name]["buttons"]["kind"] != "keys":
        raise ValueError("the layout is drawn for direct buttons only, not %r" % profile_name)
    table = rows(profile_name)
    c = _Canvas(LAYOUT_WIDTH, LAYOUT_HEIGHT)
    c.draw.rectangle((40, 70, 860, 1050), outline=(120, 90, 50), width=4,
                     fill=(245, 235, 215))
    c.text((450, 35), "Seen from above: B sits at the top, A at the bottom", font=c.big,
           anchor="mm")
    c.text((450, 90), "B sits here", font=c.font, anchor="mm")
    c.text((450, 1032), "A sits here", font=c.font, anchor="mm")
    pitch, size, x0 = 110, 70, 230

    def pad(seat, top):
        name = "Pad %s" % "AB"[seat]
        color = COLORS[name]
        keys = {r[1]: r for r in table if r[0] == name + " button"}
        # Rows from the top of the picture; columns left to right as A sees them.
        if seat:  # B faces A: B's near row is at the top, mirrored
            grid = (("near 4", "near 3", "near 2", "near 1"),
                    ("far 4", "far 3", "far 2", "far 1"))
        else:
            grid = (("far 1", "far 2", "far 3", "far 4"),
                    ("near 1", "near 2", "near 3", "near 4"))
        c.draw.rectangle((x0 - 40, top - 20, x0 + 3 * pitch + size + 40, top + pitch + size + 40),
                         outline=color, width=3, fill=(255, 255, 255))
        c.text((x0 - 50, top + pitch // 2 + size // 2), name, color, c.big, anchor="rm")
        bus = []
        for row, labels in enumerate(grid):
            y = top + row * pitch
            for col, label in enumerate(labels):
                x = x0 + col * pitch
                r = keys[label]
                c.draw.rectangle((x, y, x + size, y + size), outline="black", width=2,
                                 fill=(225, 225, 225))
                c.draw.ellipse((x + 12, y + 12, x + size - 12, y + size - 12), fill=color)
                c.text((x + size // 2, y + size // 2), r[4].split()[-1], "white", c.big,
                       anchor="mm")
                c.text((x + size // 2, y + size + 12), "%s  %s" % (label, r[2]), color,
                       anchor="mm")
                bus.append((x + 10, y - 9))
                c.line([(x + 10, y - 9), (x + 10, y)], GND_COLOR, 2)  # the ground leg
        c.line([bus[0], bus[3]], GND_COLOR, 3)
        c.line([bus[4], bus[7]], GND_COLOR, 3)
        c.line([bus[0], (x0 - 14, bus[0][1]), (x0 - 14, bus[4][1]), bus[4]], GND_COLOR, 3)
        for x, y in bus:
            c.dot(x, y)
        ground = [r for r in table if r[0] == name + " ground bus"][0]
        end_x = x0 + 3 * pitch + size + 40
        gy = bus[7][1]
        c.line([bus[4], (x0 - 14, gy)], GND_COLOR, 3)
        c.line([bus[7], (end_x + 30, gy)], GND_COLOR, 3)
        c.text((end_x + 36, gy), "ground bus", GND_COLOR, anchor="lm")
        c.text((end_x + 36, gy + 16), "to GND (pin %s)" % ground[3], GND_COLOR, anchor="lm")

    pad(1, 130)
    # The screen with the table's positions as each player sees the cards.
    c.draw.rectangle((x0 - 20, 430, x0 + 3 * pitch + size + 20, 640), outline="black",
                     width=3, fill=(30, 70, 40))
    for row, positions in enumerate(((7, 6, 5, 4), (0, 1, 2, 3))):
        for col, number in enumerate(positions):
            x, y = x0 + col * pitch + 5, 450 + row * 95
            c.draw.rectangle((x, y, x + 60, y + 80), outline="black", fill="white")
            c.text((x + 30, y + 40), str(number), font=c.big, anchor="mm")
    c.text((x0 + 205, 645), "screen", font=c.font, anchor="mt")
    start_row = [r for r in table if r[0].startswith("START/MENU button")][0]
    c.draw.rectangle((735, 500, 805, 570), outline="black", width=2, fill=(225, 225, 225))
    c.draw.ellipse((747, 512, 793, 558), fill=(200, 30, 30))
    c.text((770, 585), "START", COLORS["START"], c.font, anchor="mm")
    c.text((770, 603), start_row[2], COLORS["START"], anchor="mm")
    c.draw.rectangle((x0, 680, x0 + 330, 740), outline="black", width=2, fill="white")
    c.draw.rectangle((x0 + 50, 690, x0 + 250, 730), outline="black", fill=(40, 120, 60))
    c.text((x0 + 150, 710), "Pico on the breadboard", "white", anchor="mm")
    if PROFILES[profile_name].get("piezo"):
        c.draw.ellipse((x0 + 360, 688, x0 + 404, 732), outline="black", width=2,
                       fill=(60, 60, 60))
        c.text((x0 + 382, 752), "piezo", COLORS["Piezo"], anchor="mm")
    pad(0, 790)
    c.text((450, LAYOUT_HEIGHT - 40), "Big number: the table position a button plays. "
           "Below it: its name on the pad and its pin.", font=c.font, anchor="mm")
    c.text((450, LAYOUT_HEIGHT - 18), "One leg of each button: its own wire to that pin; "
           "the other: the pad's ground bus (black).", font=c.font, anchor="mm")
    c.image.save(path)


LAYOUT_WIDTH, LAYOUT_HEIGHT = 900, 1120
BEGIN, END = "<!-- wiring:begin -->", "<!-- wiring:end -->"


def update_doc(path, profile_name=REFERENCE):
    """Replace the table between the wiring markers of ``path``; return True if changed."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise ValueError("%s has no %s ... %s markers" % (path, BEGIN, END))
    new = text[:start] + BEGIN + "\n" + markdown(profile_name) + "\n" + text[end:]
    if new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return new != text


def main(argv=None):
    """Command-line entry point."""
    parser = cli.Parser("tools.wiring", description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default=REFERENCE, choices=sorted(PROFILES))
    parser.add_argument("--png", help="also draw the diagram into this PNG file")
    parser.add_argument("--layout", help="also draw the handheld seen from above into "
                        "this PNG file")
    parser.add_argument("--doc", help="also rewrite the table between the wiring markers "
                        "of this markdown file (docs/BUILD.md)")
    args = parser.parse_args(argv)
    try:
        for option, path in (("--png", args.png), ("--layout", args.layout)):
            if path:
                cli.output_file(option, path, suffixes=(".png",))
        if args.doc:
            cli.input_file("--doc", args.doc)
            cli.output_file("--doc", args.doc)
        for path in (args.png, args.layout):
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    except cli.OutputError as err:
        return cli.fail("tools.wiring", err)
    except OSError as err:
        return cli.fail("tools.wiring", cli.why(err))
    sys.stdout.write(markdown(args.profile) + "\n")
    try:
        if args.png:
            draw_png(args.png, args.profile)
        if args.layout:
            draw_layout(args.layout, args.profile)
        if args.doc and update_doc(args.doc, args.profile):
            sys.stdout.write("updated the wiring table in %s\n" % args.doc)
    except (ValueError, OSError) as err:
        sys.stderr.write("tools.wiring: %s\n" % err)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
