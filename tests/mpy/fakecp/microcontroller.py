"""Fake ``microcontroller``: ``Pin`` and a small ``nvm``."""


class Pin:
    def __init__(self, name):
        self.name = name


nvm = bytearray(64)
