"""The pictures in the docs show what the code is today (``make pictures`` redraws them)."""

from pathlib import Path

from tools import architecture

ROOT = Path(__file__).resolve().parent.parent


def test_the_architecture_picture_shows_todays_layout():
    png = ROOT / "docs" / "img" / "architecture.png"
    assert architecture.picture_digest(png) == architecture.digest(architecture.layout()), \
        "docs/img/architecture.png is out of date: run make pictures"
