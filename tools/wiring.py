"""Wiring table and diagram of a board profile, generated from ``hw/profiles.py``.

Usage::

    python3 -m tools.wiring                  # the reference kit's table (markdown)
    python3 -m tools.wiring --png docs/wiring.png
    python3 -m tools.wiring --profile pico_st7789_240

``docs/BUILD.md`` holds the reference table between ``<!-- wiring:begin -->`` and
``<!-- wiring:end -->``; a test checks that it equals this tool's output, so the
document cannot drift from the pins the firmware uses.
"""

import argparse
import sys

from hw.pads import position
from hw.profiles import KEY_START, PROFILES, REFERENCE, key_name, key_pins

# Raspberry Pi Pico / Pico 2 physical pin numbers (pin 1 = GP0, top left, USB up).
PICO_PINS = {
    "GP0": 1, "GP1": 2, "GP2": 4, "GP3": 5, "GP4": 6, "GP5": 7, "GP6": 9, "GP7": 10,
    "GP8": 11, "GP9": 12, "GP10": 14, "GP11": 15, "GP12": 16, "GP13": 17, "GP14": 19,
    "GP15": 20, "GP16": 21, "GP17": 22, "GP18": 24, "GP19": 25, "GP20": 26, "GP21": 27,
    "GP22": 29, "GP26": 31, "GP27": 32, "GP28": 34, "3V3(OUT)": 36, "GND": 38,
}
PICO_GROUNDS = (3, 8, 13, 18, 23, 28, 33, 38)

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


def _pin_number(name):
    number = PICO_PINS.get(name)
    return str(number) if number is not None else "-"


def rows(profile_name=REFERENCE):
    """Return the wiring as ``[(part, part pin, board pin, pin number, note)]``."""
    profile = PROFILES[profile_name]
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
            out.append((part, module_pin, pin, _pin_number(pin), note))
    if profile["buttons"]["kind"] == "keys":
        for key, pin in key_pins(profile):
            if key == KEY_START:
                part, note = "START/MENU button", "tap: pause; hold 1 s: menu"
            else:
                seat, button = key >> 3, key & 7
                part = "Pad %s button" % "AB"[seat]
                note = "table position %d" % position(seat, button)
            name = key_name(key)
            label = name.split(" ", 1)[1] if key != KEY_START else "START"
            out.append((part, label + " (other leg to GND)", pin, _pin_number(pin), note))
    else:
        for key, (row, col) in key_pins(profile):
            out.append(("Key matrix", key_name(key), "%s x %s" % (row, col), "-",
                        "diode per switch"))
    if profile.get("piezo"):
        out.append(("Piezo buzzer (passive)", "+", profile["piezo"],
                    _pin_number(profile["piezo"]), "optional"))
        out.append(("Piezo buzzer (passive)", "-", "GND", str(PICO_GROUNDS[5]), ""))
    return out


def markdown(profile_name=REFERENCE):
    """Return the wiring table as markdown (no trailing newline)."""
    lines = ["| Part | Part pin | Pico pin | Pico pin no. | Note |",
             "|---|---|---|---|---|"]
    for row in rows(profile_name):
        lines.append("| %s |" % " | ".join(row))
    return "\n".join(lines)


def draw_png(path, profile_name=REFERENCE):
    """Draw a wiring diagram of ``profile_name`` (a Pico profile) into a PNG."""
    from PIL import Image, ImageDraw, ImageFont

    profile = PROFILES[profile_name]
    width, height = 1280, 860
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    try:
        font = ImageFont.load_default(size=15)
        small = ImageFont.load_default(size=13)
        big = ImageFont.load_default(size=22)
    except TypeError:  # an old Pillow without sizes
        font = small = big = ImageFont.load_default()

    # The Pico, USB at the top, pins 1-20 down the left, 21-40 up the right.
    px0, px1, py0 = 520, 760, 120
    pitch = 30
    draw.rectangle((px0, py0, px1, py0 + 20 * pitch + 20), outline="black", width=3,
                   fill=(40, 120, 60))
    draw.rectangle(((px0 + px1) // 2 - 30, py0 - 20, (px0 + px1) // 2 + 30, py0 + 10),
                   fill=(180, 180, 180), outline="black")
    draw.text(((px0 + px1) // 2, py0 + 20 * pitch + 45), "Raspberry Pi Pico / Pico 2",
              fill="black", font=big, anchor="mm")
    names = {number: name for name, number in PICO_PINS.items()}
    for g in PICO_GROUNDS:
        names[g] = "GND"
    pin_xy = {}
    for number in range(1, 41):
        if number <= 20:
            x, y = px0, py0 + 20 + (number - 1) * pitch
            draw.text((x + 8, y), "%d %s" % (number, names.get(number, "")), fill="white",
                      font=small, anchor="lm")
        else:
            x, y = px1, py0 + 20 + (40 - number) * pitch
            draw.text((x - 8, y), "%s %d" % (names.get(number, ""), number), fill="white",
                      font=small, anchor="rm")
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill="gold", outline="black")
        pin_xy[number] = (x, y)

    colors = {"Display": (30, 90, 200), "Pad A": (200, 60, 30), "Pad B": (120, 40, 160),
              "START": (0, 130, 130), "Piezo": (150, 110, 0)}

    def box(x, y, w, title, labels, color, side):
        h = 34 + 24 * len(labels)
        draw.rectangle((x, y, x + w, y + h), outline=color, width=3)
        draw.text((x + w // 2, y + 16), title, fill=color, font=font, anchor="mm")
        ends = []
        for i, text in enumerate(labels):
            ly = y + 42 + 24 * i
            if side == "right":
                draw.text((x + w - 12, ly), text, fill="black", font=small, anchor="rm")
                ends.append((x + w, ly))
            else:
                draw.text((x + 12, ly), text, fill="black", font=small, anchor="lm")
                ends.append((x, ly))
        return ends

    lanes = {"left": 0, "right": 0}

    def wire(end, pin_name, color):
        number = PICO_PINS[pin_name]
        px, py = pin_xy[number]
        side = "left" if end[0] < px else "right"
        lane = lanes[side]
        lanes[side] += 1
        if side == "left":  # one vertical lane per wire, so no two wires overlap
            mid = end[0] + 12 + 5 * lane
        else:
            mid = end[0] - 12 - 9 * lane
        draw.line((end, (mid, end[1]), (mid, py), (px, py)), fill=color, width=2)

    table = rows(profile_name)
    display_rows = [r for r in table if r[0].startswith("Display") and r[2] != "-"]
    ends = box(900, 40, 300, table[0][0], [r[1] for r in display_rows], colors["Display"],
               "left")
    for end, row in zip(ends, display_rows):
        wire(end, row[2], colors["Display"])
    for seat, top in ((1, 40), (0, 420)):
        key_rows = [r for r in table if r[0] == "Pad %s button" % "AB"[seat]]
        name = "Pad %s" % "AB"[seat]
        ends = box(60, top, 360, "%s (%s)" % (name, "top seat" if seat else "bottom seat"),
                   ["%s - %s" % (r[1].split(" (")[0], r[4]) for r in key_rows], colors[name],
                   "right")
        for end, row in zip(ends, key_rows):
            wire(end, row[2], colors[name])
    start_row = [r for r in table if r[0].startswith("START")][0]
    end = box(900, 520, 300, "START / MENU", ["switch"], colors["START"], "left")[0]
    wire(end, start_row[2], colors["START"])
    if profile.get("piezo"):
        end = box(900, 640, 300, "Piezo (optional)", ["+"], colors["Piezo"], "left")[0]
        wire(end, profile["piezo"], colors["Piezo"])
    draw.text((width // 2, height - 30),
              "Every button: one leg to its GPIO, the other to any GND pin (internal pull-ups, "
              "active low). Piezo - and display GND to GND.", fill="black", font=font,
              anchor="mm")
    image.save(path)


def main(argv=None):
    """Command-line entry point."""
    parser = argparse.ArgumentParser(prog="tools.wiring", description=__doc__.split("\n")[0])
    parser.add_argument("--profile", default=REFERENCE, choices=sorted(PROFILES))
    parser.add_argument("--png", help="also draw the diagram into this PNG file")
    args = parser.parse_args(argv)
    sys.stdout.write(markdown(args.profile) + "\n")
    if args.png:
        draw_png(args.png, args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
