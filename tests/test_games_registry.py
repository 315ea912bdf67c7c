"""Every game is present and consistent in every registry (engine.games, hw.games) and in
what reads them (the log reader, the trace, the menu, the record, the tools)."""

import importlib

import pytest

from engine import games as engine_games
from engine.family import FamilyGame
from engine.family_bot import Bot
from engine.family_rules import RulesBase
from engine.log import LogReader
from hw import games as hw_games
from hw.menu import Menu
from hw.store.record import MAX_GAMES, OPTION_BYTES

KEYS = [key for key, _ in hw_games.GAMES]
# Engine games whose firmware package is still being built (its engine, replay and
# simulation are in; the handheld's screen and controls follow): empty when done.
ENGINE_ONLY = ()


def test_the_firmware_plays_exactly_the_engines_games():
    assert KEYS == [key for key in engine_games.KEYS if key not in ENGINE_ONLY]
    assert len(hw_games.GAMES) <= MAX_GAMES  # each game has its row of options in the record
    assert len(set(hw_games.NAMES)) == len(hw_games.NAMES)


@pytest.mark.parametrize("key", engine_games.KEYS)
def test_an_engine_game_has_its_four_modules(key):
    game_class = engine_games.game_class(key)
    rules_class = engine_games.rules_class(key)
    assert issubclass(game_class, FamilyGame) and game_class.GAME == key
    assert issubclass(rules_class, RulesBase) and rules_class.GAME == key
    assert game_class.RULES is rules_class
    assert issubclass(engine_games.bot_class(key), Bot)
    assert callable(engine_games.trace_module(key).body)
    game = game_class()
    assert game.codes <= game.KEYS_PER_PLAYER and game.rules.codes() <= game.KEYS_PER_PLAYER
    assert key == "grid" or "game" in rules_class.KEYS  # written first in its rules line


@pytest.mark.parametrize("key", engine_games.KEYS)
def test_the_log_reader_and_the_trace_find_each_game(key):
    from engine.trace import replay_text

    header = "CSLOG 1\n" + ("" if key == "grid" else "rules game=%s\n" % key)
    trace, err = replay_text(header + "seed 5\nstart 0\nclock 5000\n")
    assert err is None and trace and trace[0].startswith('{"ev": "deal"')
    reader = LogReader(engine_games.game_class("grid")())
    reader.feed("CSLOG 1")
    reader.feed("rules game=%s" % key)
    assert reader.game.GAME == key and reader.rules.GAME == key


@pytest.mark.parametrize("index", range(len(hw_games.GAMES)))
def test_a_firmware_game_is_one_package_the_menu_and_record_can_hold(index):
    key = hw_games.GAMES[index][0]
    kind = importlib.import_module("hw.games." + key)
    assert kind.KEY == key
    assert len(kind.OPTIONS) == len(kind.DEFAULTS) <= OPTION_BYTES
    for (label, choices), default in zip(kind.OPTIONS, kind.DEFAULTS):
        assert label and 0 <= default < len(choices) < 255
    for name in kind.MODULES:
        assert name.startswith(("hw.games." + key, "engine." + key))  # only its own code
        importlib.import_module(name)
    assert kind.VARIATIONS >= 1
    for variation in range(kind.VARIATIONS):
        rules = kind.attract_rules(variation, 1)
        rules.check()
        assert rules.GAME == key
    game = kind.game(None)
    assert game.GAME == key and game._trial is None  # the firmware's: no trial copy
    menu = Menu(("beginner", "normal"))
    menu.choose(index)
    assert menu.kind().KEY == key and menu.rules().GAME == key
    for i in range(len(kind.OPTIONS)):
        assert menu.option(i) == kind.DEFAULTS[i]
    for seat in range(2):  # every button maps to a press code the engine takes, or nothing
        for button in range(8):
            assert -1 <= kind.target(game, seat, button) < game.KEYS_PER_PLAYER


def test_the_tools_offer_every_game():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    for tool in ("tools.simulate", "tools.picosim"):
        out = subprocess.run([sys.executable, "-m", tool, "--help"], cwd=root, text=True,
                             capture_output=True, timeout=60).stdout
        assert all(key in out for key in KEYS), tool
