"""Where the desktop stand-ins and a real CircuitPython board differ, the firmware copes."""

from collections import namedtuple

import displayio
import pytest
import terminalio

from hw.draw import gfx

from hw.board import profiles
from tools.cpstubs import board, keypad

Glyph = namedtuple("Glyph", "bitmap tile_index width height dx dy shift_x shift_y")


class BoardBuiltinFont:
    """terminalio.FONT as CircuitPython's fontio.BuiltinFont reports it.

    One bitmap holding every glyph side by side, a glyph = a whole 6x12 cell with
    dx = dy = 0 (shared-module/fontio/BuiltinFont.c); Blinka instead gives each glyph
    its own bitmap and dy = -2 (the descent).
    """

    def __init__(self, chars):
        self.chars = chars
        self.strip = displayio.Bitmap(6 * len(chars), 12, 2)
        for i, char in enumerate(chars):
            glyph = terminalio.FONT.get_glyph(ord(char))
            for y in range(12):
                for x in range(6):
                    self.strip[i * 6 + x, y] = glyph.bitmap[x, y]

    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        char = chr(codepoint)
        if char not in self.chars:
            return None
        return Glyph(self.strip, self.chars.index(char), 6, 12, 0, 0, 6, 0)


def test_glyph_and_card_tiles_are_the_same_with_the_boards_builtin_font():
    chars = "".join(chr(c) for c in range(gfx.FIRST_CHAR, gfx.LAST_CHAR + 1))
    for make in (gfx.rank_sheet, gfx.glyph_sheet):
        desktop = make(terminalio.FONT)
        device = make(BoardBuiltinFont(chars))
        assert all(desktop[x, y] == device[x, y]
                   for x in range(desktop.width) for y in range(desktop.height))
        assert any(device[x, y] for x in range(device.width) for y in range(device.height))


@pytest.mark.parametrize("raw, rotation", [
    ("180", 180), (" 180 ", 180), (180, 180), ('"180"', 180), ("180  # upside down", 180),
    ('"180" # upside down', 180),
])
def test_settings_values_in_any_form_os_getenv_may_return(raw, rotation):
    # CircuitPython <= 10.1: "180" (quoted in the file) or 180 (unquoted int);
    # 10.2+ (adafruit/circuitpython#10819): a string, the raw right-hand side if unquoted.
    prof = profiles.choose("raspberry_pi_pico", False, {"CSPEED_ROTATION": raw}.get)[1]
    assert prof["display"]["rotation"] == rotation


def test_profile_and_piezo_names_tolerate_quotes_and_comments():
    env = {"CSPEED_PROFILE": '"pico_st7789_240"', "CSPEED_PIEZO": "none # silent"}
    name, prof = profiles.choose("raspberry_pi_pico", False, env.get)
    assert name == "pico_st7789_240" and prof["piezo"] is None
    assert profiles.setting_int("CSPEED_ATTRACT_S", "20 # seconds", 0, 0, 60) == 20


def test_key_matrix_options_are_keyword_only_as_on_a_board():
    rows = (board.A0, board.A1)
    cols = (board.D5, board.D6)
    with pytest.raises(TypeError):
        keypad.KeyMatrix(rows, cols, True)  # pylint: disable=too-many-function-args
    keypad.KeyMatrix(rows, cols, columns_to_anodes=True, interval=0.002).deinit()


@pytest.mark.parametrize("size", [(320, 240), (240, 240), (240, 135), (480, 320)])
def test_menu_options_clear_the_help_line_on_every_screen(size):
    from fw_rig import Rig
    from hw import menu as hw_menu

    rig = Rig(builtin=size, settings={"CSPEED_PROFILE": "builtin"})
    app = rig.app
    if not app.menu.levels:
        pytest.skip("no CPU player: at most four options")
    app.menu.values[hw_menu.PLAYERS] = 1  # vs CPU: more options than the window's rows
    app.menu.changes += 1
    app._show(1)  # pylint: disable=protected-access  (MENU)
    rig.step(5)
    view = app.menu_view
    shown = [field for field in view.lines if not field.hidden]
    from hw.views.menu_view import ROWS
    assert len(app.menu.shown()) > ROWS and len(shown) == ROWS  # the window scrolls
    help_top = size[1] - view.line // 2 - 2 - 6  # the help line's glyphs are 12 px high
    title_bottom = max(view.top - view.line - 4, view.line // 2 + 2 + view.line) + 6
    for field in shown:
        y = field.group.y  # the field's top; its glyphs are 12 px high
        assert title_bottom < y and y + 12 < help_top
        assert field.group.x + field.pixel_width <= size[0]  # the longest option fits


@pytest.mark.parametrize("raw, level", [("1", 1), ('"1"', 1), ("1 # diag", 1), ("0", 0),
                                        (None, 0), (1, 1), (2, 2), ("2", 2), ("yes", None),
                                        (3, None), ("-3", None)])
def test_diag_setting_in_any_form_os_getenv_may_return(raw, level):
    from hw.main import diag_level

    if level is None:  # a bad value is named (issue 23 item 13), not read as off
        with pytest.raises(profiles.SettingError, match="CSPEED_DIAG=%s: must be" % raw):
            diag_level({"CSPEED_DIAG": raw}.get)
    else:
        assert diag_level({"CSPEED_DIAG": raw}.get) == level


def test_a_display_whose_constructor_fails_leaves_no_display_behind():
    # as on CircuitPython: Blinka's display joins its pool before __init__ runs, and
    # its background thread then refreshed the half-made one ('_auto_refresh')
    import adafruit_ili9341

    displayio.release_displays()
    with pytest.raises(ValueError):
        adafruit_ili9341.ILI9341(None, width=320, height=240, rotation=45)
    assert displayio.displays == []


def test_a_display_half_made_is_not_refreshed_by_blinkas_thread():
    # Blinka's background thread may meet a display between __new__ (which puts it in
    # the pool) and the line of __init__ that sets _auto_refresh
    import adafruit_ili9341

    half = adafruit_ili9341.ILI9341.__new__(adafruit_ili9341.ILI9341)
    try:
        half._background()  # what the thread calls: nothing to do yet, no AttributeError
    finally:
        displayio.displays.remove(half)
