"""Helpers for the Aggravation and Frustration rule tests (RULES-AGGRAVATION.md); plain
Python so they also run in the MicroPython VM and CircuitPython's interpreter.

Times: ``start 1000``; a deal window lasts 300 ms and a dry (or scooping) pause 500 ms,
so a table dry at every round is dealt at 1000, 1800, 2600, ...

The decks:

* ``RACE`` -- A alone covers 25 times in a row (``race_presses``): A's pack is 5C, then
  twelve pairs of one rank (AC AD, 2C 2D, 3C 3D, 4C 4D, 6C 6D, ... KC KD), then 5H.
  Positions 0 (A's 5C) and 14 (B's 5D) match; A covers 0 with AC (14 pending), 14 with
  AD (a match of aces), 0 with 2C, 14 with 2D, ... and 0 with 5H, its last card. A is
  then out of cards with 0 = 5H and 14 = KD (pending); B holds its 25 other cards,
  top first as ``race_deck``'s argument says.
* ``SPLIT`` -- both cover at once, tick after tick (``split_presses``): A's and B's k-th
  cards are of one rank, so 0 and 14 match again after each tick; after 25 ticks both
  packs are empty and 0 = 5H, 14 = 5S match (only taps are left).
* ``DRY_END`` -- a shuffled deck (seed 93) that ``play_out`` (each player covers the
  lowest / highest coverable position while they have cards, nobody taps) plays until
  both packs are empty on a table with no rank shown twice; ``THREE_END`` (seed 3) until
  both are empty with one rank on three tops (2, 16, 17).
"""

from cs_helpers import Recorder, deck_line, pack_cards, stack_cards
from engine.aggravation import AggravationGame, ROW_BASE, lowest
from engine.cards import CARD_NAMES, NO_CARD, parse_card
from engine.family import OVER, PLAY
from engine.log import LogError, LogReader, play_lines

__all__ = ("Recorder", "deck_line", "pack_cards", "stack_cards", "run_agg", "agg_log", "rows",
           "agg_all_cards", "full_deck", "race_deck", "race_presses", "RACE_END", "SPLIT",
           "split_presses", "SPLIT_END", "DRY_END", "THREE_END", "play_out", "CARD_NAMES", "NO_CARD",
           "parse_card")

_PAIRS = "A 2 3 4 6 7 8 9 T J Q K".split()  # twelve ranks, 5 left out


def run_agg(text):
    """Replay an Aggravation log text; return ``(game, recorder, error_or_None)``."""
    game = AggravationGame()
    rec = Recorder(game)
    lines = [line.strip() for line in text.strip().split("\n")]
    if lines[0] != "CSLOG 1":
        lines.insert(0, "CSLOG 1")
    try:
        play_lines(game, lines)
    except LogError as err:
        return game, rec, err
    return game, rec, None


def agg_log(deck, *lines, rules="", start=1000):
    """A log: ``rules game=aggravation`` (+ ``rules``), a deck line, ``start``, ``lines``."""
    head = ["CSLOG 1", "rules game=aggravation" + (" " + rules if rules else ""), deck,
            "start %d" % start]
    return "\n".join(head + list(lines))


def rows(game):
    """Both rows' tops, A's then B's, each from its owner's left, as card names."""
    out = []
    for player in range(2):
        base = player * ROW_BASE
        out.append([CARD_NAMES[game.tops[base + k]] for k in range(game.row_len[player])])
    return out


def agg_all_cards(game):
    """Every card in the packs and in the stacks of both rows."""
    out = pack_cards(game, 0) + pack_cards(game, 1)
    for player in range(2):
        for k in range(game.row_len[player]):
            out += stack_cards(game, player * ROW_BASE + k)
    return out


def full_deck(a_cards, b_cards):
    """A ``deck`` line from both packs, 26 card names each, top first."""
    a = a_cards.split()
    b = b_cards.split()
    assert len(a) == 26 and len(b) == 26, (len(a), len(b))
    assert len(set(a + b)) == 52 and min(parse_card(c) for c in a + b) >= 0
    return "deck " + " ".join(a + b)


def _race_a():
    cards = ["5C"]
    for r in _PAIRS:
        cards += [r + "C", r + "D"]
    return cards + ["5H"]


def race_deck(b_cards=""):
    """The RACE deck; B's pack starts 5D, then ``b_cards``, then the rest (code order)."""
    a = _race_a()
    b = ["5D"] + b_cards.split()
    rest = [CARD_NAMES[c] for c in range(52) if CARD_NAMES[c] not in a + b]
    return full_deck(" ".join(a), " ".join(b + rest))


def race_presses(t=1400, step=10, covers=25, first=0):
    """A's covers of the race: 0, 14, 0, 14, ... (or 14, 0, ... if ``first`` is 14) at
    ``t``, ``t + step``, ..."""
    other = 14 - first
    return ["press %d A %d" % (t + step * k, first if k % 2 == 0 else other) for k in range(covers)]


RACE_END = 1400 + 10 * 24  # the time of A's last cover in ``race_presses()``

# SPLIT: A 5C AC 2C ... KC AH 2H ... KH 5H; B the same ranks in D and S.
SPLIT = full_deck(" ".join(["5C"] + [r + "C" for r in _PAIRS] + [r + "H" for r in _PAIRS] + ["5H"]),
                  " ".join(["5D"] + [r + "D" for r in _PAIRS] + [r + "S" for r in _PAIRS] + ["5S"]))


def split_presses(t=1400, step=10):
    """Both players cover 0 (A) and 14 (B) in each of 25 ticks."""
    out = []
    for k in range(25):
        out += ["press %d A 0" % (t + step * k), "press %d B 14" % (t + step * k)]
    return out


SPLIT_END = 1400 + 10 * 24  # the last tick of ``split_presses()``

DRY_END = full_deck(
    "2D AC TS 7C 7S AH AS KC 9S TC 3S KH 2S TD 6S 4C 3D 2H 5C KS 5D JS TH 6H 9D QS",
    "QC 8C 7H 8D 9C 3C 4D 5S 6D AD 6C QH 4S QD KD 4H JC 8S 5H 8H 2C 9H JH 3H JD 7D")

# THREE_END (seed 3): ``play_out`` leaves both packs empty with one rank on 2, 16 and 17.
THREE_END = full_deck(
    "QD 5S 9D JC AS 2S 2H KC 6S AH KS 8S 4C 3H 5D 8C JD 4S TH KD 6H TS 7H QC 4H 6D",
    "2D 6C 5C AD 3S 4D 9S QH TC 8H TD 9C 8D JS 3C QS 9H 7C AC 2C 7S JH 5H KH 3D 7D")


def _highest(mask):
    pos = 27
    while not (mask >> pos) & 1:
        pos -= 1
    return pos


def play_out(deck, rules="", start=1000, step=10, limit=200000):
    """A log in which both players cover while they have cards (A the lowest coverable
    position, B the highest other one), every ``step`` ms, and nobody ever taps; it ends
    once the game is over, both packs are empty in play, or nothing is left to do."""
    lines = agg_log(deck, rules=rules, start=start).split("\n")
    reader = LogReader(AggravationGame())
    for line in lines:
        reader.feed(line)
    game = reader.game
    t = start
    while t < start + limit:
        line = "clock %d" % t
        reader.feed(line)
        lines.append(line)
        if game.phase == OVER or (game.phase == PLAY and not game.packs[0] and not game.packs[1]):
            break
        if game.phase == PLAY:
            cov = game.coverable
            a = lowest(cov) if cov and game.packs[0] else -1
            rest = cov & ~(1 << a) if a >= 0 else cov
            b = _highest(rest) if rest and game.packs[1] else -1
            if a < 0 and b < 0 and game.due < 0:
                break
            for player, pos in ((0, a), (1, b)):
                if pos >= 0:
                    line = "press %d %s %d" % (t, "AB"[player], pos)
                    reader.feed(line)
                    lines.append(line)
        t += step
    return lines, t
