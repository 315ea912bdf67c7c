"""Fake ``adafruit_display_text.label`` (hw/ uses bitmap_label; same fake Label)."""

from adafruit_display_text.bitmap_label import Label  # noqa: F401
