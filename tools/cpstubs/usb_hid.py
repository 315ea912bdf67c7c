"""Stand-in for ``usb_hid`` (boot.py only): records ``enable``/``disable``.

On a board the choice takes effect at the next hard reset. ``enabled`` is None
until boot.py chooses (CircuitPython's default then applies: on with 5 or more
endpoint pairs), False after ``disable()``, the devices after ``enable()``.
"""

enabled = None
devices = ()


def disable():
    """Turn the HID device off (from the next boot)."""
    global enabled
    enabled = False


def enable(devices, boot_device=0):  # pylint: disable=redefined-outer-name,unused-argument
    """Turn the HID device on with ``devices`` (from the next boot)."""
    global enabled
    enabled = tuple(devices)


def reset():
    """Stand-in only: nothing chosen."""
    global enabled
    enabled = None
