"""Helpers for the Speed rule tests; plain Python so they also run in the MicroPython VM."""

from cs_helpers import Recorder
from engine.cards import CARD_NAMES, NO_CARD, parse_card
from engine.log import LogError, play_lines
from engine.speed import SpeedGame

__all__ = ("Recorder", "speed_deck", "run_speed", "speed_log", "hand", "mid_cards",
           "side_cards", "speed_all_cards", "codes", "chain")


def speed_deck(a="", b="", s0="", s1="", mid="", cards=20):
    """A ``deck`` line dealt as RULES-SPEED.md section 2: A's ``cards`` (slots 0-4, then
    the draw pile, top first), B's, side pile 0, side pile 1, then the two middle
    cards. Each argument gives the first cards of its part; the rest is filled with
    the unused cards in code order."""
    s = 25 - cards
    parts = [(a, 0, cards), (b, cards, cards), (s0, 2 * cards, s), (s1, 2 * cards + s, s),
             (mid, 50, 2)]
    deck = [-1] * 52
    for text, at, size in parts:
        names = text.split()
        assert len(names) <= size
        for k, name in enumerate(names):
            deck[at + k] = parse_card(name)
    assert -2 < min(deck) and len(set(c for c in deck if c >= 0)) == len([c for c in deck if c >= 0])
    rest = [c for c in range(52) if c not in deck]
    for k in range(52):
        if deck[k] < 0:
            deck[k] = rest.pop(0)
    return "deck " + " ".join(CARD_NAMES[c] for c in deck)


def run_speed(text):
    """Replay a Speed log text; return ``(game, recorder, error_or_None)``."""
    game = SpeedGame()
    rec = Recorder(game)
    lines = [line.strip() for line in text.strip().split("\n")]
    if lines[0] != "CSLOG 1":
        lines.insert(0, "CSLOG 1")
    try:
        play_lines(game, lines)
    except LogError as err:
        return game, rec, err
    return game, rec, None


def speed_log(deck, *lines, rules="", start=1000):
    """A Speed log: ``rules game=speed`` (+ ``rules``), a deck line, ``start``, then ``lines``."""
    head = ["CSLOG 1", "rules game=speed" + (" " + rules if rules else ""), deck,
            "start %d" % start]
    return "\n".join(head + list(lines))


def hand(game, player):
    """A player's five slots as names (``--`` for an empty slot)."""
    return " ".join(CARD_NAMES[c] if c != NO_CARD else "--" for c in game.hands[player * 5:player * 5 + 5])


def mid_cards(game, pile):
    """Middle pile ``pile`` bottom to top, as names."""
    return [CARD_NAMES[c] for c in game.mid[pile * 52:pile * 52 + game.heights[pile]]]


def side_cards(game, pile):
    """Side pile ``pile`` top first, as names."""
    s = game.sides[pile]
    return [CARD_NAMES[game.side[pile * 52 + s - 1 - k]] for k in range(s)]


def speed_all_cards(game):
    """Every card: hands, draw piles, side piles and middle piles."""
    out = [CARD_NAMES[c] for c in game.hands if c != NO_CARD]
    for p in range(2):
        h = game.draw_head[p]
        out += [CARD_NAMES[c] for c in game.draw[p * 26 + h:p * 26 + h + game.draws[p]]]
        out += side_cards(game, p) + mid_cards(game, p)
    return out


def codes(deck):
    """The 52 card codes of a ``deck ...`` line."""
    return [parse_card(c) for c in deck.split()[1:]]


def chain(first_rank, n, used):
    """``n`` card names of ranks first_rank, first_rank + 1, ... (K-A-2 loop), each a
    suit not in ``used`` (a set of codes, updated)."""
    out = []
    for k in range(n):
        r = (first_rank + k) % 13
        s = 0
        while r * 4 + s in used:
            s += 1
        used.add(r * 4 + s)
        out.append(CARD_NAMES[r * 4 + s])
    return out
