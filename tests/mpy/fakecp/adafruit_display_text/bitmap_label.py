"""Fake ``adafruit_display_text.bitmap_label.Label``: a Group that stores its settings.

Setting ``text``, ``color`` or ``anchored_position`` stores the value and counts a
touch. (The real ``text`` setter renders the text into a new bitmap: it allocates
whenever the text changes. That cost is the library's, not the firmware's.)
"""

from displayio import Group, touch


class Label(Group):
    def __init__(self, font, *, text="", color=0xFFFFFF, scale=1, label_direction="LTR",
                 anchor_point=None, anchored_position=None):
        super().__init__(scale=scale)
        self.font = font
        self.label_direction = label_direction
        self.anchor_point = anchor_point
        self._text = text
        self._color = color
        self._anchored_position = anchored_position

    @property
    def text(self):
        return self._text

    @text.setter
    def text(self, value):
        self._text = value
        touch()

    @property
    def color(self):
        return self._color

    @color.setter
    def color(self, value):
        self._color = value
        touch()

    @property
    def anchored_position(self):
        return self._anchored_position

    @anchored_position.setter
    def anchored_position(self, value):
        self._anchored_position = value
        touch()
