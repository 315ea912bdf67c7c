"""Issue 11: the menu's "1/2 move  3/4 change" means something in the emulator.

The window shows a key legend under the panel naming each pad button's key, in the
firmware's and BUILD.md's words (buttons 1-4 of the near and far rows, from each
player's left). The legend is derived from the keyboard map; these tests press the
keys it names and check that the firmware's menu does what its footer says.
"""

import os
import re

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402


def legend_keys():
    """{(seat, row): [key of button 1..4]} read back from the legend's text."""
    from tools.emulate.keys import legend_lines

    line = next(l for l in legend_lines() if l.startswith("A: near"))
    m = re.fullmatch(r"A: near (.+?)  far (.+?)    B: near (.+?)  far (.+)", line)
    assert m, line
    keys = [group.lower().split() for group in m.groups()]
    assert all(len(k) == 4 for k in keys)
    return {(0, "near"): keys[0], (0, "far"): keys[1], (1, "near"): keys[2], (1, "far"): keys[3]}


def test_the_legend_names_the_pad_buttons_as_the_firmware_does():
    from hw.views.menu_view import MENU_HELP
    from tools.emulate.keys import legend_lines

    assert b"1/2 move" in MENU_HELP and b"3/4 change" in MENU_HELP  # the firmware's words
    first = legend_lines()[0]
    assert "buttons 1 2 3 4" in first and "1/2 move, 3/4 change" in first
    assert "START: Space or Enter" in legend_lines()[2]


@pytest.mark.parametrize("seat,row", [(0, "near"), (0, "far"), (1, "near"), (1, "far")])
def test_the_keys_the_legend_names_do_what_the_menu_footer_says(seat, row):
    """Button 2 moves down, 4 changes the value up, 3 back down, 1 moves up."""
    from hw.app.modes import MENU
    from tools.emulate import script
    from tools.emulate.main import Emulator

    k1, k2, k3, k4 = legend_keys()[(seat, row)]
    steps = [("START", None), (k2, "down"), (k4, "next"), (k4, "next"), (k3, "back"), (k1, "up")]
    lines = ["%d tap %s" % (300 + 200 * i, key) for i, (key, _) in enumerate(steps)]
    emu = Emulator(virtual=True, seed=1, until_ms=300 + 200 * len(steps) + 100)
    emu.add_script(script.parse("\n".join(lines) + "\n"))
    seen = []

    def probe(e, now):  # the menu after each scripted key
        app = e.app
        if app is not None and app.mode == MENU:
            state = (app.menu.cursor, tuple(app.menu.values))
            if not seen or seen[-1] != state:
                seen.append(state)
    emu.every_loop.append(probe)
    try:
        emu.run()
    finally:
        emu.close()
    assert len(seen) == len(steps), seen  # every key changed the menu
    (c0, v0), (c1, v1), (c2, v2), (c3, v3), (c4, v4), (c5, v5) = seen
    assert c1 > c0 and v1 == v0  # 2: down (to the next line shown)
    assert c2 == c1 and v2[c2] != v1[c2]  # 4: the value changes ...
    assert c4 == c1 and v4 == v2  # ... 3 takes one step back
    assert c5 == c0 and v5 == v4  # 1: up


def test_the_window_shows_the_legend_under_the_panel_and_frames_leave_it_out(tmp_path):
    import displayio
    import numpy as np
    import pygame
    from PIL import Image

    from tools.emulate.display import EmuDisplay
    from tools.emulate.help import LEGEND_BG
    from tools.emulate.keys import legend_lines

    displayio.release_displays()
    display = EmuDisplay(320, 240, scale=2, legend=legend_lines())
    try:
        group = displayio.Group()
        bitmap = displayio.Bitmap(320, 240, 1)
        palette = displayio.Palette(1)
        palette[0] = 0x00FF00
        group.append(displayio.TileGrid(bitmap, pixel_shader=palette))
        display.root_group = group
        display.refresh()
        display.show_window()  # as on an exposure
        screen = display._pygame_screen  # pylint: disable=protected-access
        width, height = screen.get_size()
        assert width == 640 and height > 480 + 3 * 10  # three lines of legend below
        window = pygame.surfarray.array3d(screen).transpose(1, 0, 2)
        assert (window[:480] == [0, 255, 0]).all()  # the panel, scaled, untouched
        strip = window[480:]
        assert (strip == LEGEND_BG).all(axis=2).mean() > 0.7  # mostly background ...
        assert (strip.max(axis=2) > 150).any()  # ... with text on it
        display.save(tmp_path / "shot.png")
        assert Image.open(tmp_path / "shot.png").size == (320, 240)
        assert np.array_equal(display.pixels()[0, 0], [0, 255, 0])
    finally:
        displayio.release_displays()


def test_headless_runs_have_no_legend():
    from tools.emulate.main import Emulator

    emu = Emulator(virtual=True, until_ms=10)
    try:
        assert emu.display.legend is None
        assert emu.display._pygame_screen.get_size() == (640, 480)  # pylint: disable=protected-access
    finally:
        emu.close()


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_every_legend_word_is_in_the_window_at_every_scale(scale):
    """At scale 1 the legend's lines are wider than the 320-pixel window even in the
    smallest font: they go on in the next line instead of being cut off."""
    import pygame

    from tools.emulate import help as window_help
    from tools.emulate.keys import legend_lines

    pygame.font.init()
    width = 320 * scale
    margin = 2 * scale
    font = window_help._font(11 * scale, width - 2 * margin, legend_lines())
    shown = window_help._wrap(font, legend_lines(), width - 2 * margin)
    assert all(font.size(line)[0] <= width - 2 * margin for line in shown), shown
    assert " ".join(shown).split() == " ".join(legend_lines()).split()  # no word lost
    strip = window_help.legend(width, legend_lines(), scale)
    assert strip.get_height() == len(shown) * font.get_linesize() + 2 * margin
