"""The stats screen: the record's numbers as glyph-tile text, built only while shown.

:func:`stats_lines` turns a ``hw.store.record.Record`` into the screen's text lines (per
seat, vs each CPU level, streaks, fastest win, ties, reaction); :class:`StatsView`
writes them into
``hw.draw.text.Text`` fields when it is built (``hw.app`` builds one screen at a time, so
the strings exist only while the screen is up). Per frame, :meth:`StatsView.update`
only shows the reset gesture's state (a hint, "keep holding", the confirmation
question, "Stats reset"), storing tile indices of constant ``bytes`` when the state
changes: 0 B per frame.

Implementation Notes
--------------------

This module is imported only to build the screen, and ``hw.app`` drops it from
``sys.modules`` when the screen is left, so its code takes heap only while shown.

**Software and Dependencies:** ``displayio``; ``hw.draw.gfx``, ``hw.draw.text``, ``hw.store.record``,
``hw.views.stats_reset``; shows a ``hw.store.record.Record``.
"""

import displayio

from hw.draw import gfx
from hw.store import record as rec
from hw.views import stats_reset as ss
from hw.draw.text import LEFT, Text

BACK_TEXT = b"START: back to the menu"
# ... and where the record is kept (hw.store.record: the FRAM when one is fitted)
BACK_FRAM = b"START: back    kept on the FRAM"
BACK_FLASH = b"START: back    kept in flash"
HOLD_TEXT = b"Keep holding A1 + B1..."
PROMPTS = (ss.HINT_TEXT.encode(), HOLD_TEXT, ss.CONFIRM_TEXT.encode(), ss.DONE_TEXT.encode())
NOTE_B = b"Stats are on A's side"


def _time(ms):
    if ms < 0:
        return "-"
    return "%d.%02d s" % (ms // 1000, (ms % 1000) // 10)


def stats_lines(record, levels=()):
    """The stats screen's lines (str) for ``record``; ``levels``: CPU level names."""
    r = record
    lines = ["Stats          A          B"]
    lines.append("Games won  %5d      %5d" % (r.games(0), r.games(1)))
    lines.append("Matches    %5d      %5d" % (r.matches(0), r.matches(1)))
    lines.append("Best run   %5d      %5d" % (r.best_streak(0), r.best_streak(1)))
    now = r.streak(0) or r.streak(1)
    lines.append("Run now    %s" % ("-" if not now else "%s %d" % ("A" if r.streak(0) else "B", now)))
    lines.append("Fastest  %7s    %7s" % (_time(r.fastest_ms(0)), _time(r.fastest_ms(1))))
    lines.append("Ties won %3d/%-3d    %3d/%-3d" % (r.ties_won(0), r.ties_won(0) + r.ties_lost(0),
                                                 r.ties_won(1), r.ties_won(1) + r.ties_lost(1)))
    lines.append("Reaction %5s ms   %5s ms" % (_ms(r.reaction_ms(0)), _ms(r.reaction_ms(1))))
    for level in range(min(len(levels), rec.LEVELS)):
        lines.append("A vs %-8s games %d-%d  matches %d-%d" % (
            levels[level], r.vs(level, rec.VS_GAMES_WON), r.vs(level, rec.VS_GAMES_LOST),
            r.vs(level, rec.VS_MATCHES_WON), r.vs(level, rec.VS_MATCHES_LOST)))
    return lines


def _ms(value):
    return "-" if value < 0 else str(value)


class StatsView:
    """The stats lines, a help line and the reset prompt (see the module doc).

    ``on_fram``: the record is kept on the FRAM (True) or in the flash (False), said
    on the help line so a builder sees the FRAM was found; None says nothing."""

    def __init__(self, width, height, record, levels, gesture, glyphs, on_fram=None):
        self.gesture = gesture
        self.group = displayio.Group()
        background, _ = gfx.panel(0, 0, width, height, gfx.FELT)
        self.group.append(background)
        lines = stats_lines(record, levels)
        columns = max(8, width // gfx.GLYPH_W - 2)
        line_h = max(gfx.GLYPH_H + 1, min(16, (height - 3 * gfx.GLYPH_H) // (len(lines) + 2)))
        top = gfx.GLYPH_H + 4
        margin = max(2, (width - columns * gfx.GLYPH_W) // 2)
        self.lines = []
        for row, text in enumerate(lines):
            field = Text(glyphs, columns, gfx.GOLD if row == 0 else gfx.TEXT, 1, False,
                         (0.0, 0.0), (margin, top + row * line_h), LEFT)
            field.set(text.encode())
            self.lines.append(field)
            self.group.append(field.group)
        prompt_y = height - 2 * gfx.GLYPH_H - 4
        self.prompt = Text(glyphs, columns, gfx.DIM, 1, False, (0.0, 0.0), (margin, prompt_y),
                           LEFT)
        self.group.append(self.prompt.group)
        footer = BACK_TEXT if on_fram is None else BACK_FRAM if on_fram else BACK_FLASH
        back = Text(glyphs, len(footer), gfx.DIM, 1, False, (0.0, 0.0),
                    (margin, height - gfx.GLYPH_H - 2), LEFT)
        back.set(footer)
        self.footer = back
        self.group.append(back.group)
        note = Text(glyphs, len(NOTE_B), gfx.DIM, 1, True, (0.5, 0.5), (width // 2, 8))
        note.set(NOTE_B)
        self.group.append(note.group)
        self.shown = -1
        self.columns = columns

    def update(self, now):
        """Show the reset gesture's state if it changed (constant text: no allocation)."""
        state = self.gesture.state
        if state == self.shown:
            return
        self.shown = state
        self.prompt.set(PROMPTS[state])  # a LEFT field cuts a longer text at its width

    def shown_lines(self):
        """The texts of the stats lines, top to bottom (for tests)."""
        return [field.text for field in self.lines]
