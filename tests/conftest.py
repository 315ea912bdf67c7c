"""Make engine/, hw/ and tools/ importable without shadowing the stdlib; run well in parallel.

The repository root is *appended* to sys.path: the firmware's ``code.py`` must not
hide the standard library's ``code`` module (imported by pdb, and so by pytest).

Implementation Notes
--------------------

* ``make test`` runs the suite on every core with pytest-xdist (``-n auto --dist
  loadgroup``). Tests that share a module- or class-scoped fixture of this folder (a
  booted emulated Pico, a copy of the repository) are put in one ``xdist_group``, so
  the fixture is made once, on one worker, as in a serial run. A group is the tests
  joined by any such fixture they share. xdist 3.8 marks a group by writing
  ``@group`` after the node id in ``item._nodeid``, which pytest 9 no longer reads
  (pytest-xdist issue 1386): the id is written here, in pytest 9's ``item._id``, and
  a worker stops with an error if a grouped test's id still lacks its group.
* The queue is ordered longest first (:data:`HEAVY`, seconds measured on a 2-core
  machine): the long emulated-Pico sessions start at once, the many short tests
  fill the workers in at the end.
* After collection, and after each test, every object then alive (modules,
  parametrize values, fixtures kept for later tests) is moved out of the garbage
  collector's reach (``gc.freeze``, after a collection): the firmware calls
  ``gc.collect()`` at each screen build, and in a test process a collection would
  otherwise walk everything pytest and the earlier tests hold, again and again.
"""

import gc
import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.append(ROOT)

# Rough seconds of a test group or file on a 2-core machine (order only: longest first).
HEAVY = {
    "tests/test_picosim_link_play.py::session": 150,
    "tests/test_picosim.py::speed_session": 100,
    "tests/test_picosim.py::session": 90,
    "tests/test_picosim.py::row_session": 75,
    "tests/test_picosim_flash.py": 70,
    "tests/test_picosim_fram.py::short": 65,
    "tests/test_picosim.py::button_session": 45,
    "tests/test_picosim_flash.py::whole": 20,
    "tests/test_doc_commands.py::clone": 60,
    "tests/test_emulate.py::session": 20,
    "tests/test_emulate_link.py": 20,
    "tests/test_micropython.py": 15,
    "tests/test_record.py": 10,
    "tests/test_fram.py": 10,
    "tests/test_picosim_fram.py": 10,
}


def _shared_fixtures(item):
    """Names (``file::fixture``) of the module/class-scoped fixtures of tests/ the item uses."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    out = []
    for name in info.names_closure:
        for fixdef in info.name2fixturedefs.get(name, ()):
            if fixdef.scope in ("module", "class", "package") and fixdef.baseid.startswith("tests/"):
                out.append("%s::%s" % (fixdef.baseid.split("::")[0], name))
    return out


def _groups(items):
    """``{item: group}``: items joined by a shared fixture (union-find on the fixture names)."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    used = {}
    for item in items:
        names = _shared_fixtures(item)
        used[item] = names
        for name in names:
            find(name)
        for other in names[1:]:
            a, b = find(names[0]), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    members = {}
    for name in parent:
        members.setdefault(find(name), []).append(name)
    # The group is named after its costliest fixture, so HEAVY can name it.
    label = {root: max(names, key=lambda n: (HEAVY.get(n, 0), n)) for root, names in members.items()}
    return {item: label[find(names[0])] for item, names in used.items() if names}


def _weight(item, group):
    path = item.nodeid.split("::")[0]
    return max(HEAVY.get(group, 0) if group else 0, HEAVY.get(path, 0))


def _put_group_in_id(item, group):
    """``item``'s node id with ``@group``, where xdist's loadgroup scheduler reads it."""
    if str(item.nodeid).endswith("@" + group):
        return
    if hasattr(item, "_id"):  # pytest 9: a structured NodeId
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse("%s@%s" % (item.nodeid, group))
    else:
        item._nodeid = "%s@%s" % (item.nodeid, group)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks
def pytest_collection_modifyitems(config, items):
    groups = _groups(items)
    loadgroup = bool(config.getoption("loadgroup", False))  # set in xdist's workers
    for item in items:
        if item in groups:
            item.add_marker(pytest.mark.xdist_group(groups[item]))
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and loadgroup:
            _put_group_in_id(item, "_".join(names))
    # Longest first; a group's tests stay together and in their order.
    first, index = {}, {}
    for i, item in enumerate(items):
        first.setdefault(groups.get(item, item.nodeid), i)
        index[item] = i
    items[:] = sorted(items, key=lambda it: (-_weight(it, groups.get(it)),
                                             first[groups.get(it, it.nodeid)], index[it]))


def pytest_collection_finish(session):
    if session.config.getoption("loadgroup", False):
        lost = [item.nodeid for item in session.items
                if any(True for _ in item.iter_markers("xdist_group")) and "@" not in item.nodeid]
        if lost:
            raise pytest.UsageError("xdist would split a test group (pytest-xdist issue 1386): "
                                    "%s has no @group in its id" % lost[0])
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _pins_free():
    """Each test starts with every stand-in pin free, as a board at power-on.

    The stand-ins take pins as CircuitPython does (``tools.cpstubs.microcontroller``):
    a bus or scanner a previous test left open would otherwise hold its pins.
    """
    stubs = sys.modules.get("tools.cpstubs.microcontroller")
    if stubs is not None:
        stubs.release_all()
    yield


class _NoWallWaits:
    """``time`` for Blinka's ``busdisplay``, without its waits (see below)."""

    def __getattr__(self, name):
        import time

        return getattr(time, name)

    @staticmethod
    def sleep(seconds):
        pass


@pytest.fixture(autouse=True, scope="session")
def _no_panel_waits():
    """Blinka's ``BusDisplay`` sleeps through each delay of a panel's init sequence
    (1.1 s of wall time per display built) and between refreshes to hold a frame
    rate: waits for a panel that is not there. The firmware's time in these tests is
    the rig's clock, never the wall's, so nothing a test checks depends on them."""
    try:
        import busdisplay
    except ImportError:
        yield
        return
    real = busdisplay.time
    busdisplay.time = _NoWallWaits()
    yield
    busdisplay.time = real
