"""The kit's hardware: board profiles, display, pads, piezo, serial log.

:class:`SettingError` lives here, not in ``hw.board.profiles``: the profiles' code is
forgotten once the app is built (``hw.main``) and imported again if a screen needs it,
and a class defined there would then be a new class that an ``except`` written against
the first one does not catch.
"""


class SettingError(ValueError):
    """A bad ``settings.toml`` value: the message names the setting and the value."""
