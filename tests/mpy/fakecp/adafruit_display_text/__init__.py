"""Fake ``adafruit_display_text`` (see fakecp/README.md)."""
