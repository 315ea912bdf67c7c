"""Link play's constants, folded: each module keeps private copies that must agree.

A module-private ``_NAME = const(...)`` is folded into the code by ``mpy-cross`` and
interns no name on the device (every name link play adds costs every game's heap:
docs/FIRMWARE.md), so the link's modules each keep their own copy of what they share
(frame types, roles, events, a PRESS frame's keys, the texts both halves show). These
tests read every module's constants from its source and check that each name means
the same everywhere, and that the copies are really folded.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = ("hw/link/frame.py", "hw/link/link.py", "hw/link/fair.py", "hw/link/sync.py",
           "hw/app/linked.py", "hw/app/link_host.py", "hw/app/link_guest.py")


def constants(rel):
    """``{NAME: value}`` of the module's ``[_]NAME = const(value)`` lines (the
    leading underscore dropped), and the names that are private."""
    tree = ast.parse((ROOT / rel).read_text())
    found, private = {}, set()
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "const"):
            name = node.targets[0].id
            expr = ast.Expression(node.value.args[0])  # literals and arithmetic on them
            found[name.lstrip("_")] = eval(compile(expr, rel, "eval"), {"__builtins__": {}})
            if name.startswith("_"):
                private.add(name.lstrip("_"))
    return found, private


TABLES = {rel: constants(rel) for rel in MODULES}


def shared_names():
    seen = {}
    for rel, (found, _) in TABLES.items():
        for name in found:
            seen.setdefault(name, []).append(rel)
    return {name: rels for name, rels in seen.items() if len(rels) > 1}


def test_many_constants_are_shared_by_copies():
    # the check below would pass on nothing: the copies it compares must exist
    shared = shared_names()
    assert len(shared) >= 25, sorted(shared)
    for name in ("KEY_PLAY", "KEY_TAP", "KEY_HOLD", "KEY_NO_MEMORY", "NO_MEMORY",
                 "ROLE_HOST", "ROLE_GUEST", "EV_LINKED", "EV_LOST", "PRESS", "LOG", "BACK_MS",
                 "NOT_YET"):
        assert name in shared, name


@pytest.mark.parametrize("name", sorted(shared_names()))
def test_a_shared_constant_means_the_same_everywhere(name):
    values = {rel: TABLES[rel][0][name] for rel in shared_names()[name]}
    assert len(set(map(repr, values.values()))) == 1, values


def test_the_halves_and_the_link_fold_their_constants():
    # none of the link's constants is a public name but the frame format's, which
    # tools and tests decode with; everything the game side shares is folded
    for rel in MODULES[1:]:
        found, private = TABLES[rel]
        public = set(found) - private
        assert not public, (rel, sorted(public))


def test_the_events_the_game_side_reads_are_the_links():
    # hw.app.linked reads hw.link.link's events by its own copies: a new event must
    # get one (an unknown event shows the two-hosts message)
    link, _ = TABLES["hw/link/link.py"]
    linked, _ = TABLES["hw/app/linked.py"]
    events = {name for name in link if name.startswith("EV_")}
    assert events - {"EV_TWO_HOSTS"} <= set(linked), sorted(events - set(linked))
