"""The README and docs/*.md stand on their own in a clone.

Every relative link (and its #anchor) resolves inside the repository; nothing points
at ../shared (a clone does not have it); every `make TARGET` quoted is a target of
the Makefile; every `-m tools.NAME` quoted is a module of tools/; and tool commands
are run through make, tools/replay or .venv/bin/python, never a bare python3 that
lacks the venv's packages.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(path):
    """GitHub's heading anchors of a markdown file."""
    out = set()
    fence = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_relative_links_resolve(doc):
    text = doc.read_text()
    for target in LINK.findall(text):
        # ../shared (the CircuitPython test fixtures) is not part of a clone: never a link.
        assert "../shared" not in target, target
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto: not checked here
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        assert dest.exists(), "%s links to missing %s" % (doc.name, target)
        if anchor:
            assert anchor in _anchors(dest), "%s: no heading for #%s in %s" % (
                doc.name, anchor, dest.name)


def _code(text):
    """The commands a page quotes: inline code, fenced and indented code lines."""
    out = re.findall(r"`([^`\n]+)`", text)
    fence = False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif fence or line.startswith("    "):
            out.append(line)
    return out


def _targets():
    text = (ROOT / "Makefile").read_text()
    return set(re.findall(r"^([a-z_-]+):", text, re.M))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_quoted_commands_exist(doc):
    text = doc.read_text()
    targets = _targets()
    for code in _code(text):
        name = re.match(r"\s*(?:[A-Z_]+=\S+\s+)*make ([a-z_-]+)", code)
        if name:
            assert name.group(1) in targets, "%s quotes `make %s`, not a Makefile target" % (
                doc.name, name.group(1))
    for module in re.findall(r"-m tools\.([a-z_.]+)", text):
        first = module.split(".")[0]
        assert (ROOT / "tools" / (first + ".py")).exists() or \
            (ROOT / "tools" / first / "__main__.py").exists(), module
    # a tool run with a bare python lacks the venv's packages on a fresh machine;
    # py -m tools.deploy/capture/replay (Windows, stdlib or pyserial only) is fine.
    # \s+: a command broken over two lines of prose is still a command
    assert not re.search(r"(?<![\w/.-])python3?\s+-m\s+(tools|serial)", text), doc.name


def test_makefile_targets_the_docs_promise():
    targets = _targets()
    assert {"simulate", "capture", "replay", "wiring", "deploy", "bench"} <= targets
    make = (ROOT / "Makefile").read_text()
    assert re.search(r"^bench: venv node_modules$", make, re.M)  # the VM needs node_modules
    for target in ("simulate", "capture", "replay", "wiring"):
        assert re.search(r"^%s: venv" % target, make, re.M), target
