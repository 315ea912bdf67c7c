"""Fake ``board``: Pico pin names and a built-in 320x240 ``DISPLAY``.

The display counts ``refresh()`` calls; setting ``root_group`` is counted as a touch.
"""

from displayio import touch
from microcontroller import Pin

board_id = "fakecp"

for _i in range(30):
    globals()["GP%d" % _i] = Pin("GP%d" % _i)


class Display:
    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.rotation = 0
        self.auto_refresh = True
        self.refreshes = 0
        self._root_group = None

    @property
    def root_group(self):
        return self._root_group

    @root_group.setter
    def root_group(self, group):
        self._root_group = group
        touch()

    def refresh(self):
        self.refreshes += 1
        return True


DISPLAY = Display(320, 240)
