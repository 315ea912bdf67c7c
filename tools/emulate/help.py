"""What the window shows besides the panel (never in screenshots or frames).

The F1 help overlay (the whole key map over the window) and the key legend, a strip
under the panel that names each pad button's key, so the firmware's own words
("1/2 move  3/4 change" in the menu) mean something at a keyboard.
"""

import pygame

from tools.emulate.keys import HELP_LINES

LEGEND_BG = (24, 24, 24)
LEGEND_FG = (230, 230, 230)


def _font(size, width, lines=HELP_LINES):
    """The largest monospace font (<= ``size`` px) whose widest line fits ``width``."""
    while True:
        font = pygame.font.SysFont("monospace", size)
        if size <= 8 or max(font.size(line)[0] for line in lines) <= width:
            return font
        size -= 1


def _wrap(font, lines, width):
    """``lines`` broken between words where one is wider than ``width`` in ``font``."""
    out = []
    for line in lines:
        words = line.split(" ")
        current = words[0]
        for word in words[1:]:
            if font.size(current + " " + word)[0] <= width:
                current += " " + word
            else:
                out.append(current.rstrip())
                current = word
        out.append(current)
    return out


def legend(width, lines, scale=1):
    """Return a ``width``-wide surface with ``lines``, one under the other (a line
    too wide even at the smallest font goes on in the next, so nothing is cut off)."""
    pygame.font.init()
    margin = 2 * scale
    font = _font(11 * scale, width - 2 * margin, lines)
    lines = _wrap(font, lines, width - 2 * margin)
    step = font.get_linesize()
    surface = pygame.Surface((width, len(lines) * step + 2 * margin))
    surface.fill(LEGEND_BG)
    for i, line in enumerate(lines):
        surface.blit(font.render(line, True, LEGEND_FG), (margin, margin + i * step))
    return surface


def overlay(size):
    """Return a translucent ``size`` surface listing the keys."""
    pygame.font.init()
    surface = pygame.Surface(size, pygame.SRCALPHA)
    surface.fill((0, 0, 0, 210))
    line_h = max(8, size[1] // (len(HELP_LINES) + 2))
    margin = line_h // 2
    font = _font(line_h, size[0] - 2 * margin)
    y = line_h
    for line in HELP_LINES:
        surface.blit(font.render(line, True, (255, 255, 255)), (margin, y))
        y += line_h
    return surface
