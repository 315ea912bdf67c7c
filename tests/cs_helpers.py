"""Helpers for the rule tests; plain Python so they also run in the MicroPython VM."""

import json

from engine.cards import CARD_NAMES, NO_CARD, parse_card
from engine.grid import GridGame
from engine.log import LogError, play_lines
from engine.trace import Tracer


def deck_line(a_cards, b_cards):
    """Return a ``deck`` line: A's pack starts with ``a_cards`` (top first), B's with
    ``b_cards``; the rest of each pack is filled with the unused cards in code order."""
    head_a = [parse_card(c) for c in a_cards.split()]
    head_b = [parse_card(c) for c in b_cards.split()]
    assert -1 not in head_a and -1 not in head_b
    rest = [c for c in range(52) if c not in head_a and c not in head_b]
    fill_a = 26 - len(head_a)
    codes = head_a + rest[:fill_a] + head_b + rest[fill_a:]
    assert len(codes) == 52 and len(set(codes)) == 52
    return "deck " + " ".join(CARD_NAMES[c] for c in codes)


class Recorder:
    """A sink that keeps every event as the dict of its trace line."""

    def __init__(self, game):
        self.events = []
        self.event = Tracer(game, self._keep).event  # also usable inside another sink

    def _keep(self, text):
        self.events.append(json.loads(text))

    def of(self, name):
        """Return the events named ``name``."""
        return [e for e in self.events if e["ev"] == name]

    def results(self):
        """Return the press results in order, as ``"A0:cover"`` strings."""
        return ["%s%d:%s" % (e["p"], e["pos"], e["r"]) for e in self.of("press")]


def run(text):
    """Replay a log text; return ``(game, recorder, error_or_None)``."""
    game = GridGame()
    rec = Recorder(game)
    lines = text.strip().split("\n")
    if lines[0].strip() != "CSLOG 1":
        lines.insert(0, "CSLOG 1")
    try:
        play_lines(game, [line.strip() for line in lines])
    except LogError as err:
        return game, rec, err
    return game, rec, None


def tops(game):
    """Return the tops as a space-separated string of card names."""
    return " ".join(CARD_NAMES[c] if c != NO_CARD else "--" for c in game.tops)


def pack_cards(game, player):
    """Return ``player``'s face-down pack, top first, as a list of card names."""
    head = game.pack_head[player]
    base = player * 52
    return [CARD_NAMES[game.pack[base + (head + k) % 52]] for k in range(game.packs[player])]


def stack_cards(game, pos):
    """Return stack ``pos`` bottom to top as a list of card names."""
    out = []
    card = game.bottoms[pos]
    while card != NO_CARD:
        out.append(CARD_NAMES[card])
        card = game.up[card]
    return out


def all_cards(game):
    """Return every card in packs and stacks (each should appear exactly once)."""
    cards = pack_cards(game, 0) + pack_cards(game, 1)
    for pos in range(8):
        cards += stack_cards(game, pos)
    return cards


def coverable_list(game):
    """Return the coverable positions as a sorted list."""
    return [p for p in range(8) if (game.coverable >> p) & 1]
