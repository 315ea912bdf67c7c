"""The pictures in the docs show what the code is today (``make pictures`` redraws them).

The architecture picture is drawn from the code's layout; every picture of the
firmware's screen is drawn by the firmware itself in the desktop emulator
(``tools.pictures``), and the check fails when the firmware draws one differently
(issue 20, 3.3: the docs showed cards without corner indices and an old menu).
"""

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tools import architecture, pictures

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.png)\)")
WIRING = {"docs/wiring.png", "docs/layout.png"}  # make wiring: drawn from hw/board/profiles.py


def test_the_architecture_picture_shows_todays_layout():
    png = ROOT / "docs" / "img" / "architecture.png"
    assert architecture.picture_digest(png) == architecture.digest(architecture.layout()), \
        "docs/img/architecture.png is out of date: run make pictures"


def test_the_architecture_picture_has_every_room_of_the_firmware(tmp_path):
    rooms = {room for room, _ in architecture.layout()["hw"]}
    on_disk = {p.name + "/" for p in (ROOT / "hw").iterdir() if (p / "__init__.py").is_file()}
    assert on_disk <= rooms, on_disk - rooms
    (tmp_path / "hw" / "games").mkdir(parents=True)
    (tmp_path / "engine").mkdir()
    for room in ("app", "newroom"):  # a room the tool has never heard of is drawn too
        (tmp_path / "hw" / room).mkdir()
        (tmp_path / "hw" / room / "__init__.py").write_text("")
        (tmp_path / "hw" / room / "part.py").write_text("")
    assert [r for r, _ in architecture.layout(tmp_path)["hw"]] == \
        ["app/", "newroom/", "games/", "(top)"]


def test_every_picture_of_the_screen_is_what_the_firmware_draws():
    run = subprocess.run([sys.executable, "-m", "tools.pictures", "--check"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr


def test_a_picture_the_firmware_draws_differently_fails_the_check(tmp_path):
    from PIL import Image

    for name, args in pictures.PICTURES:
        if name in ("docs/img/cards-240x135.png", "docs/emulator-menu.png"):
            drawn = tmp_path / Path(name).name
            shutil.copy(ROOT / name, drawn)
            assert pictures.compare(name, args, drawn, ROOT / name) is None
            with Image.open(drawn) as image:
                image = image.convert("RGB")
                rows = pictures.panel_rows(name, args)
                image.putpixel((5, rows - 1), (1, 2, 3))  # the panel's last row
                image.save(drawn)
            assert "draws it differently" in pictures.compare(name, args, drawn, ROOT / name)
            with Image.open(drawn) as image:
                assert image.size == Image.open(ROOT / name).size


def test_every_picture_in_the_docs_is_redrawn_by_a_make_target():
    """A screen picture added to the docs without a line in tools.pictures fails here."""
    from PIL import Image

    drawn = pictures.names() | WIRING | {"docs/img/architecture.png"}
    for doc in DOCS:
        for link in IMAGE.findall(doc.read_text()):
            path = (doc.parent / link).resolve().relative_to(ROOT).as_posix()
            with Image.open(ROOT / path) as image:
                plot = image.text.get("Software", "").startswith("Matplotlib")
            assert plot or path in drawn, "%s shows %s, which no make target draws" % (
                doc.name, path)
