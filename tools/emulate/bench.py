"""Refresh cost: the stock PyGameDisplay against :class:`.display.EmuDisplay`.

``.venv/bin/python -m tools.emulate.bench`` builds the firmware's table scene (320x240) on
each display in turn, then times refreshes after one card changes. Prints ms.
"""

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def _scene(width, height):
    from engine.grid import GridGame
    from engine.grid_rules import GridRules
    from hw.draw import gfx
    from hw.games.grid.table import TableView

    game = GridGame(GridRules())
    game.shuffle(5)
    game.start(0)
    game.advance(400)
    from hw.games.grid.table import card_sheets

    table = TableView(width, height, gfx.glyph_sheet(), card_sheets(width, height))
    table.update(game, 400, 0, False)
    return table


def _time(display, table, rounds):
    display.refresh()  # first frame: everything
    spent = []
    for i in range(rounds):
        card = table.cards[i % 8]
        card.show((card.card + 5) % 52)
        t0 = time.perf_counter()
        display.refresh()
        spent.append((time.perf_counter() - t0) * 1000)
    return sorted(spent)[len(spent) // 2]


def measure(rounds=16, width=320, height=240):
    """Return ``{name: median ms}`` for one changed card per refresh."""
    import displayio
    from blinka_displayio_pygamedisplay import PyGameDisplay

    from tools.emulate.display import EmuDisplay

    out = {}
    displayio.release_displays()
    stock = PyGameDisplay(width=width, height=height, auto_refresh=False)
    table = _scene(width, height)
    stock.root_group = table.group
    out["stock PyGameDisplay, one card changed"] = _time(stock, table, rounds)
    displayio.release_displays()
    emu = EmuDisplay(width, height, scale=1)
    table = _scene(width, height)
    emu.root_group = table.group
    out["EmuDisplay, one card changed (dirty rectangles)"] = _time(emu, table, rounds)
    t0 = time.perf_counter()
    emu.full_refresh()
    out["EmuDisplay, forced full redraw"] = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    for _ in range(rounds):
        emu.refresh()
    out["EmuDisplay, nothing changed"] = (time.perf_counter() - t0) * 1000 / rounds
    displayio.release_displays()
    return out


if __name__ == "__main__":
    import contextlib
    import io

    from tools import cpstubs

    with contextlib.redirect_stdout(io.StringIO()):
        cpstubs.install()
    for name, ms in measure().items():
        print("%-50s %7.2f ms" % (name, ms))
