"""Fake ``adafruit_displayio_layout`` (see fakecp/README.md)."""
