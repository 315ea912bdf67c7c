"""``const`` on every interpreter: MicroPython's compile-time constant, or identity.

MicroPython's compiler folds ``NAME = const(value)`` by the name ``const`` alone, so
modules import it from here and still get the folding on the device.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(value):
        """Stand-in for ``micropython.const``."""
        return value
