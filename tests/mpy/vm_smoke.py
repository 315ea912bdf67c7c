"""Proves the VM harness: the VM is MicroPython 1.27 or CircuitPython 10.2.1 (32-bit),
heap_lock traps allocation, and measure()/locked() tell allocating code from
allocation-free code.

Run: node tests/mpy/vm.mjs tests/mpy/vm_smoke.py, or python tests/mpy/cpvm.py
tests/mpy/vm_smoke.py (pytest runs both via test_micropython.py)
"""

import gc
import sys

from mpyharness import HAVE_HEAP_LOCK, HAVE_MEM_ALLOC, Report, locked, measure

r = Report("vm_smoke")
IMPL = sys.implementation.name
ON_MP = IMPL in ("micropython", "circuitpython")  # a MicroPython VM, not CPython

if ON_MP:
    v = sys.implementation.version
    if IMPL == "micropython":
        r.check(v[0] == 1 and v[1] == 27, "MicroPython 1.27", repr(v))
    else:
        r.check(v[:3] == (10, 2, 1), "CircuitPython 10.2.1", repr(v))
    r.check(HAVE_MEM_ALLOC and HAVE_HEAP_LOCK, "gc.mem_alloc and micropython.heap_lock exist")


def noop():
    pass


def add(a, b):
    return a + b  # small ints: free


def xorshift16(x):
    x ^= (x << 7) & 0xFFFF
    x ^= x >> 9
    return x ^ ((x << 8) & 0xFFFF)


def fill(buf, v):
    for i in range(len(buf)):
        buf[i] = v


def make_list():
    return [1, 2, 3]  # 32 bytes per ALLOC.md


def make_tuple(a, b):
    return a, b  # 16 bytes


def long_int(x):
    return x << 31  # past 2**30: boxed long int


def raise_value_error():
    raise ValueError("x")


if ON_MP:  # both VMs are 32-bit, as a board is: small ints end at 2**30
    r.check(measure(long_int, 1 << 20) > 0 and measure(add, 1 << 29, (1 << 29) - 1) == 0,
            "32-bit small ints (2**30 - 1 is small, 2**51 is boxed)")

# The measuring helpers themselves must not allocate.
r.check(measure(noop) in (0, None), "measure() of a no-op is 0 bytes", measure(noop))
r.check(measure(noop, n=100) in (0, None), "measure() loop overhead is 0 bytes")
r.check(locked(noop) is not False, "locked() of a no-op does not trip heap_lock")

# Known allocation-free code measures 0 and survives heap_lock.
r.free("small-int add", add, 3, 4)
r.free("16-bit xorshift", xorshift16, 12345, n=50)
r.free("bytearray fill loop", fill, bytearray(16), 7)

# Known allocating code is caught by both checks.
r.allocates("list literal", make_list)
r.allocates("returning a tuple", make_tuple, 1, 2)
r.allocates("long int result", long_int, 1 << 20)
if ON_MP:
    used = measure(make_list)
    r.check(used >= 32, "list literal measures >= 32 bytes", used)
    r.check(measure(make_tuple, 1, 2, n=10) == 160, "tuple: 16 bytes x 10 calls",
            measure(make_tuple, 1, 2, n=10))

    # heap_lock raises MemoryError on allocation, and locked() contains it.
    def raw_lock_check():
        import micropython

        micropython.heap_lock()
        try:
            try:
                make_list()
                return False
            except MemoryError:
                return True
        finally:
            micropython.heap_unlock()

    r.check(raw_lock_check(), "heap_lock() makes a list literal raise MemoryError")
    try:
        locked(raise_value_error)
        raised = None
    except ValueError:
        raised = "ValueError"
    r.check(raised == "ValueError", "a raise under locked() propagates after unlocking", raised)
    r.check(len(make_list()) == 3, "heap usable again after locked()")

gc.collect()
r.done()
