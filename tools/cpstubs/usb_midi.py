"""Stand-in for ``usb_midi`` (boot.py only): records ``enable``/``disable``.

On a board the choice takes effect at the next hard reset. ``enabled`` is None
until boot.py chooses (CircuitPython's default then applies: on with 8 or more
endpoint pairs), then True or False.
"""

enabled = None
ports = ()


def disable():
    """Turn the MIDI device off (from the next boot)."""
    global enabled
    enabled = False


def enable():
    """Turn the MIDI device on (from the next boot)."""
    global enabled
    enabled = True


def reset():
    """Stand-in only: nothing chosen."""
    global enabled
    enabled = None
