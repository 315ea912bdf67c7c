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


# ------------------------------------------- issue 20 part 3: what a new user tripped on

def _read(name):
    return (ROOT / name).read_text()


def test_the_readme_is_short_and_sends_each_reader_on():
    """3.16: the README was 565 lines; now what the product is, the two commands, who
    it is for and where to go next, each reader's page under docs/."""
    text = _read("README.md")
    assert len(text.splitlines()) <= 220
    for page in ("PLAYERS.md", "BUILD.md", "EMULATOR.md", "FIRMWARE.md", "ENGINE.md",
                 "TESTS.md", "ADDING_A_GAME.md"):
        assert "](docs/%s" % page in text, page
    assert "docs/img/architecture.png" in text and "## How the pieces fit" in text


def test_the_two_commands_are_two_and_every_game_is_on_the_menu():
    """3.2: the "Two commands" block listed three; the README said only the 2x4 game
    was on the handheld's menu."""
    from doc_commands import commands

    text = _read("README.md")
    block = text.split("## Two commands", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert [re.sub(r"\s+#.*$", "", c) for c in commands("```sh" + block + "```")] == \
        ["make play", "make test"]
    from hw import games

    for doc in DOCS:
        assert "only the 2×4 game is in" not in " ".join(doc.read_text().split()), doc.name
    for _, name in games.GAMES:
        assert name.replace("2x4", "2×4") in text or name in text, name


def test_no_doc_asks_for_the_picos_reset_button():
    """3.8: HIL.md said "press the board's reset button"; the Pico has none."""
    for doc in DOCS:
        assert not re.search(r"press the (board's )?reset button", doc.read_text(), re.I), doc.name


def test_build_md_cost_per_kit_is_the_sum_of_its_parts():
    """3.9: "$30-45 per kit" did not match the parts table ($27.50-50)."""
    text = _read("docs/BUILD.md")
    table = text.split("| Part | Estimate per kit |", 1)[1].split("**Per kit**", 1)
    money = re.compile(r"\$(\d+(?:\.\d+)?)(?:–(\d+(?:\.\d+)?))?")
    low = high = fram = 0.0
    for row in table[0].splitlines()[2:]:
        cells = row.split("|")
        if len(cells) < 4:
            continue  # the "Per kit" row's start
        a, b = money.search(cells[2]).groups()
        if "optional" in cells[1]:
            fram = float(a)
            continue
        low += float(a)
        high += float(b or a)
    kit = table[1].split("\n", 1)[0]
    want = "$%g–%g" % (low, high)
    assert money.search(kit).group(0) == want.replace("$27.5", "$27.50"), (kit, want)
    with_fram = "$%.2f–%g" % (low + fram, high + fram)
    assert with_fram in kit, (kit, with_fram)
    glance = text.split("**At a glance", 1)[1].split("\n\n", 1)[0]
    assert "US" + money.search(kit).group(0) + " per kit" in glance
    assert "US" + with_fram in glance


def test_every_wire_has_a_hole_in_its_pico_pins_breadboard_row():
    """3.9: the FRAM's VCC went into pin 36's row, whose two free holes the display's
    VCC and LED already took. A row keeps two free holes (BUILD.md's parts table)."""
    from tools import wiring

    text = _read("docs/BUILD.md")
    assert "each Pico pin keeps two free holes" in text
    per_pin = {}
    for part, _, pin, number, _ in wiring.rows():
        if number != "-":
            per_pin.setdefault((pin, number), []).append(part)
    for (pin, number), parts in per_pin.items():
        if len(parts) > 2:  # only 3V3(OUT), with the FRAM: its VCC goes by the + rail
            assert pin == "3V3(OUT)" and any(p.startswith("FRAM") for p in parts), (pin, parts)
            fram = text.split("### The record FRAM (optional)", 1)[1].split("\n## ", 1)[0]
            assert "**+ rail**" in fram and "plug the FRAM's VCC into the + rail" in fram
            if "Display (ILI9341 320x240)" in parts[1:]:  # RESET tied high, beside LED
                assert "LED and RESET into the + rail" in text


def test_the_menu_is_as_the_docs_describe_it():
    """3.11: the first line is Game, the cursor starts on Players, and Button test is as
    many presses away as BUILD.md and PLAYERS.md say."""
    from hw.menu import BUTTON_TEST, GAME, PLAYERS, Menu, bot_levels

    menu = Menu(bot_levels())
    assert menu.shown()[0] == GAME and menu.cursor == PLAYERS
    counts = []
    for step in (-1, 1):
        menu.cursor = PLAYERS
        n = 0
        while menu.cursor != BUTTON_TEST:
            menu.move(step)
            n += 1
        counts.append(n)
    assert counts == [3, 5]
    for doc in ("docs/BUILD.md", "docs/PLAYERS.md"):
        text = " ".join(_read(doc).split())
        assert "cursor starts on *Players*" in text or "cursor starts on **Players**" in text, doc
        assert "three presses of near 1" in text and "five presses of near 2" in text, doc


def test_the_locked_box_and_the_outline_colours_are_told_as_drawn():
    """3.10: BUILD.md said a locked player's strip turns red; a red LOCKED box shows.
    3.14: nothing explained the outline colours; PLAYERS.md and the emulator's legend do."""
    from tools.emulate.keys import HELP_LINES, OUTLINES, legend_lines

    for doc in DOCS:
        assert "strip turns red" not in " ".join(doc.read_text().split()), doc.name
    players = _read("docs/PLAYERS.md")
    assert "red **LOCKED** box" in players and "red **LOCKED** box" in _read("docs/BUILD.md")
    for colour in ("orange", "light blue", "magenta", "red"):
        assert "| %s" % colour in players and colour in OUTLINES, colour
        assert any(colour in line for line in HELP_LINES), colour
    assert OUTLINES in legend_lines()


def test_the_row_games_default_and_its_reason_are_in_every_doc_that_names_it():
    """3.15: the menu starts on "rank or suit" (hw/games/row); the docs say so, with the
    figures that chose it."""
    from hw.games import row

    assert row.OPTIONS[1][1][row.DEFAULTS[1]] == "rank or suit"
    for doc in ("README.md", "docs/PLAYERS.md", "docs/BUILD.md", "docs/SIMULATION.md",
                "docs/RULES-ROW.md"):
        text = " ".join(_read(doc).split())
        assert "rank or suit" in text and "57.5 %" in text, doc


def test_lib_requirements_shows_the_commands_build_md_quotes():
    """3.5: the command written in lib/requirements.txt is one of the commands BUILD.md
    quotes, so tests/test_doc_commands.py declares it (run, or not run and why)."""
    build = _read("docs/BUILD.md")
    shown = [line[1:].strip() for line in _read("lib/requirements.txt").splitlines()
             if line.startswith("#   ")]
    assert shown and all(command in build for command in shown), shown
