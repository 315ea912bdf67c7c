"""Heap-allocation checks and pass/fail reporting for tests/mpy/vm_*.py scripts.

Runs on MicroPython (the WebAssembly VM driven by tests/mpy/vm.mjs) and on
CPython, where there is no gc.mem_alloc / heap_lock: measurements then return
None, so a script's logic can still be debugged on the desktop.

    from mpyharness import Report, measure, locked
    r = Report("vm_example")
    r.free("step() allocates nothing", game.step, 10)   # warm-up, then both checks
    r.check(measure(make_list) >= 32, "a list literal allocates")
    r.done()                     # "N passed, M failed", then "OK"; exit 1 on failure

measure() and locked() allocate nothing themselves (vm_smoke.py proves it):
they take up to three positional arguments instead of *args, because a *args
function builds a tuple on every call (see /work/shared/ALLOC.md).
"""

import gc

try:
    import micropython
except ImportError:  # CPython
    micropython = None

HAVE_MEM_ALLOC = hasattr(gc, "mem_alloc")
HAVE_HEAP_LOCK = hasattr(micropython, "heap_lock")

_NO = object()  # "argument not given"


def _call(fn, a, b, c):
    # Positional calls with 0-3 arguments: all allocation-free.
    if a is _NO:
        fn()
    elif b is _NO:
        fn(a)
    elif c is _NO:
        fn(a, b)
    else:
        fn(a, b, c)


def measure(fn, a=_NO, b=_NO, c=_NO, n=1):
    """Heap bytes allocated by n calls fn(a, b, c) with the collector off; None on CPython.

    Misses a block that is allocated and freed within the call: use locked() too.
    """
    if not HAVE_MEM_ALLOC:
        for _ in range(n):
            _call(fn, a, b, c)
        return None
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc()
        for _ in range(n):
            _call(fn, a, b, c)
        after = gc.mem_alloc()
    finally:
        gc.enable()
    return after - before


def locked(fn, a=_NO, b=_NO, c=_NO):
    """Call fn(a, b, c) under micropython.heap_lock().

    True: it did not allocate. False: it raised MemoryError. None: no heap_lock
    here (CPython, some CircuitPython builds); fn still ran. Other exceptions
    propagate, but only after the lock is released (one escaping a locked heap
    can hang the VM); raised under the lock they lose their message and
    traceback, so rerun fn unlocked to see them.
    """
    if not HAVE_HEAP_LOCK:
        _call(fn, a, b, c)
        return None
    ok = False
    micropython.heap_lock()
    try:
        try:
            _call(fn, a, b, c)
            ok = True
        except MemoryError:
            pass
    finally:
        micropython.heap_unlock()
    return ok


class Report:
    """Counts checks and prints one line per check plus a closing summary."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
            print("ok  ", what)
        else:
            self.failed += 1
            print("FAIL", what, detail)
        return cond

    def free(self, what, fn, a=_NO, b=_NO, c=_NO, n=1):
        """Check that fn(a, b, c) allocates nothing after one warm-up call."""
        _call(fn, a, b, c)  # first-call effects (lazy caches) are not steady state
        used = measure(fn, a, b, c, n)
        ok = locked(fn, a, b, c)
        if used is None:
            what += " [not measured: no gc.mem_alloc]"
        return self.check(used in (0, None) and ok is not False, what,
                          "(%s bytes, heap_lock: %s)" % (used, ok))

    def allocates(self, what, fn, a=_NO, b=_NO, c=_NO):
        """Check that fn(a, b, c) is caught allocating (passes unmeasured on CPython)."""
        used = measure(fn, a, b, c)
        ok = locked(fn, a, b, c)
        if used is None:
            what += " [not measured: no gc.mem_alloc]"
        caught = (used is None or used > 0) and ok is not True
        return self.check(caught, what, "(%s bytes, heap_lock: %s)" % (used, ok))

    def done(self):
        """Print the summary ("name: N passed, M failed") and "OK", or exit 1."""
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed))
        if self.failed or not self.passed:
            raise SystemExit(1)
        print("OK")
