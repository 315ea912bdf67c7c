"""The docs' pictures of the firmware's screen, drawn by the firmware itself (``make pictures``).

Usage::

    .venv/bin/python -m tools.pictures            # redraw every picture into docs/
    .venv/bin/python -m tools.pictures --check    # redraw them elsewhere, compare with docs/

Each picture is one headless run of the desktop emulator (``tools.emulate``: the
unchanged firmware under CPython, virtual time), with a fixed seed and a script of
docs/, listed in :data:`PICTURES` as the arguments a reader can give it: the panel
1:1 at the end (``--screenshot``), or the window as a person sees it
(``--window-shot``: the panel at 2x with the key legend under it); a ``--link`` run
draws two, each handheld's screen of one linked match.

``--check`` (``tests/test_pictures.py``) exits 1, naming each picture, when the firmware
now draws it differently from the committed file: the panel's pixels must be equal.
The legend strip under a window picture is text in the computer's own monospace font,
so it is not compared (``tests/test_emulate_legend.py`` checks its words).

Implementation Notes
--------------------

The runs are subprocesses (a clean firmware each, as a reader's command), two at a
time; ``SDL_VIDEODRIVER=dummy``: no display is needed.
"""

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_RUN = ("--headless", "--nvm", "none")
_CARDS = ("--script", "docs/cards.script", "--seed", "12345")
_AGG = ("--script", "docs/aggravation.script", "--seed", "3")

# (the picture, the tools.emulate arguments that draw it; the output option last)
PICTURES = (
    ("docs/emulator.png",
     ("--seed", "7", "--script", "docs/example.script", "--until", "3200", "--window-shot")),
    ("docs/emulator-menu.png", ("--script", "docs/menu.script", "--until", "1000", "--window-shot")),
    ("docs/img/cards-320x240.png",
     ("--size", "320x240") + _CARDS + ("--until", "2900", "--screenshot")),
    ("docs/img/cards-240x240.png",
     ("--size", "240x240") + _CARDS + ("--until", "2900", "--screenshot")),
    ("docs/img/cards-240x135.png",
     ("--size", "240x135") + _CARDS + ("--until", "2900", "--screenshot")),
    ("docs/img/tie-320x240.png",
     ("--size", "320x240") + _CARDS + ("--until", "3080", "--screenshot")),
    ("docs/img/speed_screen.png",
     ("--game", "speed", "--seed", "10", "--script", "docs/speed.script", "--until", "3700",
      "--screenshot")),
    ("docs/img/aggravation-320x240.png",
     ("--size", "320x240") + _AGG + ("--until", "8380", "--screenshot")),
    ("docs/img/aggravation-240x240.png",
     ("--size", "240x240") + _AGG + ("--until", "8380", "--screenshot")),
    ("docs/img/aggravation-240x135.png",
     ("--size", "240x135") + _AGG + ("--until", "8380", "--screenshot")),
    ("docs/img/aggravation-call-320x240.png",
     ("--size", "320x240") + _AGG + ("--until", "10020", "--screenshot")),
    ("docs/img/button-test.png",
     ("--button-test", "--script", "docs/button-test.script", "--until", "3200", "--screenshot")),
    # two handhelds on one cable (--link): link-speed-A.png (the host's), -B.png (the guest's)
    ("docs/img/link-speed.png",
     ("--link", "--autoplay", "expert", "--game", "speed", "--seed", "5", "--until", "6000",
      "--screenshot")),
)
SCALE = 2  # a window picture's pixels per panel pixel (tools.emulate's default --scale)


def command(args, out):
    """The command line that draws one picture into ``out``."""
    return [sys.executable, "-m", "tools.emulate", *_RUN, *args, str(out)]


def files(name, args):
    """The files one picture's run writes: ``name``, or a ``--link`` run's two
    (``-A``/``-B`` before the extension, as tools.emulate names them)."""
    if "--link" not in args:
        return [name]
    root, ext = os.path.splitext(str(name))
    return ["%s-%s%s" % (root, seat, ext) for seat in "AB"]


def names():
    """Every file the pictures are (what the docs may show)."""
    return {path for name, args in PICTURES for path in files(name, args)}


def draw(name, args, out):
    """Run the emulator for one picture; return None, or the error in one line."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYTHONDONTWRITEBYTECODE="1")
    env.pop("CSPEED_ATTRACT_S", None)
    run = subprocess.run(command(args, out), cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    if run.returncode or not all(Path(f).exists() for f in files(out, args)):
        last = (run.stderr.strip().splitlines() or ["exit %d" % run.returncode])[-1]
        return "%s: tools.emulate failed: %s" % (name, last)
    return None


def panel_rows(name, args):
    """How many rows of the picture are the panel (the rest: a window's legend)."""
    size = args[args.index("--size") + 1] if "--size" in args else "320x240"
    height = int(size.split("x")[1])
    return height * SCALE if args[-1] == "--window-shot" else height


def compare(name, args, drawn, committed):
    """None if ``drawn`` shows the same panel as ``committed``, else why not (one line)."""
    from PIL import Image, ImageChops

    if not Path(committed).exists():
        return "%s: missing (run make pictures)" % name
    with Image.open(drawn) as a, Image.open(committed) as b:
        a, b = a.convert("RGB"), b.convert("RGB")
        if a.width != b.width or (args[-1] != "--window-shot" and a.size != b.size):
            return "%s: %dx%d, now drawn %dx%d: run make pictures" % (
                name, b.width, b.height, a.width, a.height)
        rows = panel_rows(name, args)
        box = ImageChops.difference(a.crop((0, 0, a.width, rows)),
                                    b.crop((0, 0, b.width, rows))).getbbox()
    if box:
        return "%s: the firmware draws it differently now (pixels %d,%d to %d,%d):" \
               " run make pictures" % ((name,) + box)
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tools.pictures",
                                     description="Redraw the docs' pictures of the firmware's"
                                                 " screen with the desktop emulator.")
    parser.add_argument("--check", action="store_true",
                        help="draw into a temporary folder and compare with docs/ (exit 1 if"
                             " any differs)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pictures-") as tmp:
        outs = [Path(tmp) / ("%d.png" % i) if args.check else ROOT / name
                for i, (name, _) in enumerate(PICTURES)]
        for out in outs:
            out.parent.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=2) as pool:
            errors = list(pool.map(lambda job: draw(job[0][0], job[0][1], job[1]),
                                   zip(PICTURES, outs)))
        problems = [e for e in errors if e]
        if args.check and not problems:
            problems = [p for p in (compare(each, a, drawn, ROOT / each)
                                    for (name, a), out in zip(PICTURES, outs)
                                    for each, drawn in zip(files(name, a), files(out, a)))
                        if p]
    for problem in problems:
        print("tools.pictures: %s" % problem, file=sys.stderr)
    if problems:
        return 1
    print("%s %d pictures: %s" % ("checked" if args.check else "drew", len(names()),
                                  ", ".join(sorted(names()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
