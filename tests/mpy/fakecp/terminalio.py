"""Fake ``terminalio``: a 6x12 ``FONT`` without glyphs (card rank tiles stay blank)."""


class _Font:
    def get_bounding_box(self):
        return (6, 12)

    def get_glyph(self, codepoint):
        return None  # as BuiltinFont does for a missing glyph


FONT = _Font()
