"""The kit's hardware: board profiles, display, pads, piezo, serial log.

:class:`SettingError` lives here, not in ``hw.board.profiles``: the profiles' code is
forgotten once the app is built (``hw.main``) and imported again if a screen needs it,
and a class defined there would then be a new class that an ``except`` written against
the first one does not catch.
"""


def uart_opener(tx, rx):
    """``open()`` for link play's cable on board pins ``tx``/``rx``: the port
    (``hw.app.linked.open_uart``, loaded only then). It lives here, in a module that stays
    loaded, so that ``hw.main``'s code can leave the heap once the app is built."""

    def opener():
        from hw.app.linked import open_uart

        return open_uart(tx, rx)
    return opener


class SettingError(ValueError):
    """A bad ``settings.toml`` value: the message names the setting and the value."""
