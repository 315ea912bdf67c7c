"""The names link play interns on the device, held to a budget.

CircuitPython keeps every interned name (qstr) for good, in pools that grow by
doubling: the 1,271st name allocates a pool of 1,280 at once, 7.7 KB. Link play
loads its code on top of a game's, and a linked Aggravation host sits a few names
under that step (docs/LINK.md, "What counts more than the code: interned names"):
a dozen more names on the host and it loses 7.7 KB in play. This test counts, from
CircuitPython's own ``mpy-cross`` tables, the names the link's modules intern that
no other module of the firmware does, and fails when they grow past the budget:
fold a new constant (``_NAME = const(...)``), reuse a name, or measure the linked
heap again (``make link``) and raise the budget with the figures.
"""

import subprocess
from pathlib import Path

import pytest

from tools import cpstack

ROOT = Path(__file__).resolve().parent.parent
MPY_CROSS = cpstack.path("mpy-cross")
LINK = {"hw/link/__init__.py", "hw/link/frame.py", "hw/link/link.py", "hw/app/linked.py",
        "hw/views/link_view.py"}
HOST = LINK | {"hw/link/fair.py", "hw/link/sync.py", "hw/app/link_host.py"}
GUEST = LINK | {"hw/app/link_guest.py"}
# No more than now: Aggravation's host kept 23,296 B linked (two emulated Picos,
# docs/LINK.md) with 153 / 115 and only a few names to spare; the CRC table folded
# since took 3 more off. The guest's watermark from the clock as its keys are read
# (keys_from: a fresher watermark, the host's own presses judged sooner) took one
# back on the guest, whose heap has 5 KB more to spare.
HOST_BUDGET = 150
GUEST_BUDGET = 113


def _uint(data, i):
    value = 0
    while True:
        byte = data[i]
        i += 1
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value, i


def mpy_names(rel, tmp):
    """The names ``rel`` interns when a board loads it compiled as the drive holds it:
    its ``.mpy``'s qstr table (less the firmware's static ones), its dotted name and
    the parts of it, and its file's name."""
    device = rel[:-3] + ".mpy"
    out = tmp / device.replace("/", "_")
    subprocess.run([str(MPY_CROSS), *cpstack.MPY_CROSS_FLAGS, "-o", str(out), "-s", device,
                    str(ROOT / rel)], check=True, capture_output=True)
    data = out.read_bytes()
    assert data[0] == ord("C") and data[1] == 6, "not a version 6 .mpy: %r" % data[:2]
    count, i = _uint(data, 4)
    _, i = _uint(data, i)
    names = set()
    for _ in range(count):
        size, i = _uint(data, i)
        if size & 1:  # one of the firmware's own names (in flash): costs no heap
            continue
        size >>= 1
        names.add(data[i:i + size].decode())
        i += size + 1
    dotted = rel[:-3].replace("/__init__", "").replace("/", ".")
    names.add(dotted)
    names.update(dotted.split("."))
    names.add(device)
    return names


@pytest.fixture(scope="module")
def names(tmp_path_factory):
    if not MPY_CROSS.is_file():
        pytest.skip(cpstack.missing_line("mpy-cross"))
    tmp = tmp_path_factory.mktemp("mpy")
    sources = ["code.py"] + sorted(str(p.relative_to(ROOT)) for top in ("engine", "hw")
                                   for p in (ROOT / top).rglob("*.py"))
    return {rel: mpy_names(rel, tmp) for rel in sources}


def own_names(names, side):
    """Names the modules of ``side`` intern that no module outside the link does."""
    rest = set().union(*(n for rel, n in names.items() if rel not in HOST | GUEST))
    return set().union(*(names[rel] for rel in side)) - rest


def test_the_host_keeps_its_names_under_the_budget(names):
    own = own_names(names, HOST)
    assert len(own) <= HOST_BUDGET, (
        "link play's host interns %d names of its own (budget %d): %s"
        % (len(own), HOST_BUDGET, sorted(own)))


def test_the_guest_keeps_its_names_under_the_budget(names):
    own = own_names(names, GUEST)
    assert len(own) <= GUEST_BUDGET, (
        "link play's guest interns %d names of its own (budget %d): %s"
        % (len(own), GUEST_BUDGET, sorted(own)))


def test_the_count_sees_a_new_name(names, tmp_path):
    # the check can fail: one public constant more in the link is one name more
    source = (ROOT / "hw/link/link.py").read_text() + "\nZZ_A_NEW_NAME = 1\n"
    extra = tmp_path / "hw" / "link"
    extra.mkdir(parents=True)
    (extra / "link.py").write_text(source)
    out = tmp_path / "out.mpy"
    subprocess.run([str(MPY_CROSS), *cpstack.MPY_CROSS_FLAGS, "-o", str(out), "-s",
                    "hw/link/link.mpy", str(extra / "link.py")], check=True, capture_output=True)
    before = len(own_names(names, HOST))
    changed = dict(names)
    changed["hw/link/link.py"] = names["hw/link/link.py"] | {"ZZ_A_NEW_NAME"}
    assert len(own_names(changed, HOST)) == before + 1
    assert b"ZZ_A_NEW_NAME" in out.read_bytes()
