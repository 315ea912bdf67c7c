"""Helpers for the shared-row rule tests; plain Python so they also run in the MicroPython VM."""

from cs_helpers import Recorder, deck_line, pack_cards
from engine.cards import CARD_NAMES, NO_CARD, parse_card
from engine.log import LogError, play_lines
from engine.row import RowGame

__all__ = ("Recorder", "deck_line", "pack_cards", "run_row", "row_log", "pile_cards",
           "row_tops", "row_all_cards", "codes")


def run_row(text):
    """Replay a row log text; return ``(game, recorder, error_or_None)``."""
    game = RowGame()
    rec = Recorder(game)
    lines = [line.strip() for line in text.strip().split("\n")]
    if lines[0] != "CSLOG 1":
        lines.insert(0, "CSLOG 1")
    try:
        play_lines(game, lines)
    except LogError as err:
        return game, rec, err
    return game, rec, None


def row_log(deck, *lines, rules="", start=1000):
    """A row log: ``rules game=row`` (+ ``rules``), a deck line, ``start``, then ``lines``."""
    head = ["CSLOG 1", "rules game=row" + (" " + rules if rules else ""), deck,
            "start %d" % start]
    return "\n".join(head + list(lines))


def pile_cards(game, pile):
    """Pile ``pile`` bottom to top as a list of card names."""
    out = []
    card = game.tops[pile]
    while card != NO_CARD:
        out.append(CARD_NAMES[card])
        card = game.down[card]
    out.reverse()
    return out


def row_tops(game):
    """The tops of the piles as a space-separated string."""
    return " ".join(CARD_NAMES[game.tops[p]] for p in range(game.piles))


def row_all_cards(game):
    """Every card in the packs and on the piles."""
    cards = pack_cards(game, 0) + pack_cards(game, 1)
    for pile in range(6):
        cards += pile_cards(game, pile)
    return cards


def codes(deck):
    """The 52 card codes of a ``deck ...`` line."""
    return [parse_card(c) for c in deck.split()[1:]]


