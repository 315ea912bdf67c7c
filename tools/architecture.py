"""The code's layout as a picture: one home per game, and the rooms every game shares.

Usage::

    .venv/bin/python -m tools.architecture --png docs/img/architecture.png   # make pictures
    .venv/bin/python -m tools.architecture                                   # as text

The picture is read from the code itself: each game of ``engine.games`` is one band
(its engine modules beside its firmware package ``hw/games/KEY/``), under it the
engine's shared base and the firmware's shared rooms (``hw/app``, ``hw/board``,
``hw/store``, ``hw/draw``, ``hw/views`` and the modules at ``hw/``'s top), each box
listing its modules. The PNG carries a digest of that description in a text chunk;
``tests/test_pictures.py`` fails when the code's layout no longer matches the picture.

Implementation Notes
--------------------

Pillow only (its bundled scalable font); nothing of the firmware is imported (the
layout is read from the file tree and ``engine/games.py``'s registry line).
"""

import argparse
import hashlib
import sys
from pathlib import Path

from engine import games as engine_games

ROOT = Path(__file__).resolve().parent.parent
SHARED_HW = ("app", "board", "store", "draw", "views", "link")
DIGEST_KEY = "cspeed-architecture"


def _modules(folder):
    """The module names under ``folder`` (packages as ``name/``), sorted."""
    names = []
    for path in sorted(folder.iterdir()):
        if path.suffix == ".py" and path.name != "__init__.py":
            names.append(path.stem)
        elif path.is_dir() and any(path.glob("*.py")):
            names.append(path.name + "/")
    return names


def layout(root=ROOT):
    """``{"games": [(key, engine modules, firmware modules)], "engine": [...],
    "hw": [(room, modules)]}`` as the tree stands."""
    engine = root / "engine"
    game_files = set()
    bands = []
    for key in engine_games.KEYS:
        own = sorted(p.stem for p in engine.glob("%s*.py" % key)
                     if p.stem == key or p.stem.startswith(key + "_"))
        game_files.update(own)
        package = root / "hw" / "games" / key
        firmware = ["__init__ (its kind)"] + [m for m in _modules(package)] if package.is_dir() \
            else ["(none yet)"]
        bands.append((key, own, firmware))
    base = [m for m in _modules(engine) if m not in game_files and m != "__init__"]
    rooms = [room for room in SHARED_HW if (root / "hw" / room).is_dir()]
    rooms += sorted(p.name for p in (root / "hw").iterdir() if p.is_dir()  # any new room too
                    and (p / "__init__.py").is_file() and p.name not in SHARED_HW + ("games",))
    hw_rooms = [(room + "/", _modules(root / "hw" / room)) for room in rooms]
    hw_rooms.append(("games/", ["__init__ (the registry)"]))
    hw_rooms.append(("(top)", [m for m in _modules(root / "hw") if not m.endswith("/")]))
    return {"games": bands, "engine": base, "hw": hw_rooms}


def describe(lay):
    """The layout as text (what the digest is of)."""
    lines = ["one home per game (engine/ | hw/games/KEY/):"]
    for key, own, firmware in lay["games"]:
        lines.append("  %s: %s | %s" % (key, ", ".join(own), ", ".join(firmware)))
    lines.append("engine/ shared: " + ", ".join(lay["engine"]))
    for room, mods in lay["hw"]:
        lines.append("hw/%s: %s" % (room, ", ".join(mods)))
    return "\n".join(lines) + "\n"


def digest(lay):
    return hashlib.sha256(describe(lay).encode("utf-8")).hexdigest()[:16]


def draw(lay, path):
    """Write the PNG (boxes per room, a band per game) with the layout's digest."""
    from PIL import Image, ImageDraw, ImageFont
    from PIL.PngImagePlugin import PngInfo

    font = ImageFont.load_default(size=14)
    bold = ImageFont.load_default(size=16)
    pad, gap, line_h = 8, 12, 18
    col_w = 430
    width = 2 * col_w + 3 * gap

    def box_h(items):
        return pad * 2 + line_h * (1 + len(items))

    bands = lay["games"]
    band_h = [max(box_h(own), box_h(fw)) for _, own, fw in bands]
    shared_l = box_h(lay["engine"]) if len(lay["engine"]) < 20 else None
    engine_items = _wrap(lay["engine"], font, col_w - 2 * pad)
    hw_items = []
    for room, mods in lay["hw"]:
        hw_items.append(room)
        hw_items += ["   " + m for m in _wrap(mods, font, col_w - 2 * pad - 20)]
    shared_h = max(box_h(engine_items), pad * 2 + line_h * len(hw_items) + line_h)
    height = 60 + sum(h + gap for h in band_h) + 40 + shared_h + gap
    del shared_l
    image = Image.new("RGB", (width, height), (250, 250, 246))
    d = ImageDraw.Draw(image)
    d.text((gap, 10), "engine/ (shared by the firmware and CPython)", font=bold, fill=(20, 60, 120))
    d.text((2 * gap + col_w, 10), "hw/ (the CircuitPython firmware)", font=bold, fill=(120, 50, 20))
    d.text((gap, 34), "one home per game: its engine modules | its firmware package",
           font=font, fill=(60, 60, 60))
    y = 60
    colours = ((222, 235, 250), (250, 232, 218))
    for (key, own, fw), h in zip(bands, band_h):
        for col, (title, items) in enumerate((("engine/%s*" % key, own),
                                              ("hw/games/%s/" % key, fw))):
            x = gap + col * (col_w + gap)
            d.rounded_rectangle((x, y, x + col_w, y + h), 8, fill=colours[col], outline=(90, 90, 90))
            d.text((x + pad, y + pad), title, font=bold, fill=(0, 0, 0))
            for i, item in enumerate(items):
                d.text((x + pad + 10, y + pad + line_h * (i + 1)), item, font=font, fill=(30, 30, 30))
        d.line((gap + col_w, y + h // 2, 2 * gap + col_w, y + h // 2), fill=(90, 90, 90), width=2)
        y += h + gap
    y += 10
    d.text((gap, y), "shared by every game (nothing here names a game; the registries list them)",
           font=font, fill=(60, 60, 60))
    y += 30
    x = gap
    d.rounded_rectangle((x, y, x + col_w, y + shared_h), 8, fill=(235, 242, 250), outline=(90, 90, 90))
    d.text((x + pad, y + pad), "engine/: the family's base, log, trace", font=bold, fill=(0, 0, 0))
    for i, item in enumerate(engine_items):
        d.text((x + pad + 10, y + pad + line_h * (i + 1)), item, font=font, fill=(30, 30, 30))
    x = 2 * gap + col_w
    d.rounded_rectangle((x, y, x + col_w, y + shared_h), 8, fill=(250, 240, 232), outline=(90, 90, 90))
    d.text((x + pad, y + pad), "hw/: rooms every game shares", font=bold, fill=(0, 0, 0))
    for i, item in enumerate(hw_items):
        d.text((x + pad + (0 if not item.startswith(" ") else 10), y + pad + line_h * (i + 1)),
               item.strip(), font=bold if not item.startswith(" ") else font,
               fill=(0, 0, 0) if not item.startswith(" ") else (30, 30, 30))
    info = PngInfo()
    info.add_text(DIGEST_KEY, digest(lay))
    image.save(path, pnginfo=info)


def _wrap(names, font, width):
    """``names`` joined with commas into lines no wider than ``width`` pixels."""
    lines, current = [], ""
    for name in names:
        trial = name if not current else current + ", " + name
        if font.getlength(trial) > width and current:
            lines.append(current + ",")
            current = name
        else:
            current = trial
    if current:
        lines.append(current)
    return lines


def picture_digest(path):
    """The digest a PNG written by :func:`draw` carries, or None."""
    from PIL import Image

    with Image.open(path) as image:
        return image.text.get(DIGEST_KEY)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.architecture",
                                     description="The code's layout, as text or a PNG.")
    parser.add_argument("--png", metavar="PATH", help="write the picture there")
    args = parser.parse_args(argv)
    lay = layout()
    if args.png:
        try:
            draw(lay, args.png)
        except OSError as err:
            print("tools.architecture: cannot write %s: %s" % (args.png, err.strerror or err),
                  file=sys.stderr)
            return 2
        print("wrote %s" % args.png)
    else:
        sys.stdout.write(describe(lay))
    return 0


if __name__ == "__main__":
    sys.exit(main())
