"""The F1 help overlay: the key map drawn over the window (never into screenshots)."""

import pygame

from tools.emulate.keys import HELP_LINES


def _font(size, width):
    """The largest monospace font (<= ``size`` px) whose widest help line fits ``width``."""
    while True:
        font = pygame.font.SysFont("monospace", size)
        if size <= 8 or max(font.size(line)[0] for line in HELP_LINES) <= width:
            return font
        size -= 1


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
