"""The replay trace of LOG.md: one JSON object per line for every game event.

:class:`Tracer` is a game sink that formats each event as the JSON text CPython's
``json.dumps`` would give (same key order and spacing), by hand, so MicroPython
(which may lack ``json``) produces byte-identical traces. It allocates strings: it
is for replays and tests, not for the device's main loop.
"""

from engine.cards import CARD_NAMES, NO_CARD
from engine.timed import (
    EV_DEAL, EV_MATCH, EV_OVER, EV_PRESS, EV_TICK, EVENT_NAMES, OUTCOME_NAMES,
    PLAYER_NAMES, RESULT_NAMES, WHY_NAMES, COVER,
)
from engine.game import Game
from engine.log import LogError, play_lines


def _cards(tops):
    return "[" + ", ".join('"%s"' % CARD_NAMES[c] for c in tops) + "]"


def _positions(mask, n=8):
    return "[" + ", ".join(str(p) for p in range(n) if (mask >> p) & 1) + "]"


def _row_table(g, ev):
    """The shared-row game's ``deal``/``tick`` keys (RULES-ROW.md section 7)."""
    n = g.piles
    active = ", ".join('"%s"' % CARD_NAMES[c] if c != NO_CARD else "null" for c in g.active)
    body = ', "tops": %s, "packs": [%d, %d], "active": [%s]' % (
        _cards(g.tops[:n]), g.packs[0], g.packs[1], active)
    if ev == EV_TICK:
        body += ', "legal": [%s, %s]' % (_positions(g.legal[0], n), _positions(g.legal[1], n))
    return body


def _speed_table(g, ev):
    """Speed's ``deal``/``tick`` keys (RULES-SPEED.md section 7)."""
    hands = []
    for player in range(2):
        hands.append("[" + ", ".join('"%s"' % CARD_NAMES[c] if c != NO_CARD else "null"
                                     for c in g.hands[player * 5:player * 5 + 5]) + "]")
    body = ', "tops": %s, "hands": [%s, %s], "draws": [%d, %d], "sides": [%d, %d]' % (
        _cards(g.tops), hands[0], hands[1], g.draws[0], g.draws[1], g.sides[0], g.sides[1])
    if ev == EV_TICK:
        body += ', "legal": [%s, %s]' % (_positions(g.legal[0], 10), _positions(g.legal[1], 10))
    return body


class Tracer:
    """Game sink writing trace lines through ``write(text)`` (no newline).

    A sink the game already had keeps receiving every event, after the trace line.
    """

    def __init__(self, game, write):
        self.game = game
        self.write = write
        self.chained = game.sink
        game.sink = self.event

    def follow(self, game):
        """Trace ``game`` from now on: the log reader switched games (``on_game``)."""
        self.game = game

    def event(self, ev, t, i):
        """Format one engine event (see ``engine.game``) as a JSON line."""
        g = self.game
        head = '{"ev": "%s", "t": %d' % (EVENT_NAMES[ev], t)
        kind = getattr(g, "GAME", "grid")
        if (ev == EV_DEAL or ev == EV_TICK) and kind == "row":
            body = _row_table(g, ev)
        elif (ev == EV_DEAL or ev == EV_TICK) and kind == "speed":
            body = _speed_table(g, ev)
        elif ev == EV_DEAL:
            body = ', "tops": %s, "packs": [%d, %d]' % (_cards(g.tops), g.packs[0], g.packs[1])
        elif ev == EV_PRESS:
            r = g.tick_result[i]
            body = ', "p": "%s", "pos": %d, "r": "%s"' % (
                PLAYER_NAMES[g.tick_player[i]], g.tick_pos[i], RESULT_NAMES[r])
            if r == COVER:
                body += ', "card": "%s"' % CARD_NAMES[g.tick_card[i]]
        elif ev == EV_TICK:
            body = ', "tops": %s, "packs": [%d, %d], "coverable": %s' % (
                _cards(g.tops), g.packs[0], g.packs[1], _positions(g.coverable))
        elif ev == EV_OVER:
            body = ', "result": "%s", "why": "%s"' % (OUTCOME_NAMES[g.result], WHY_NAMES[g.why])
            if kind == "speed" and g.rules.points:
                body += ', "points": [%d, %d]' % (g.points[0], g.points[1])
        elif ev == EV_MATCH:
            body = ', "winner": "%s", "score": [%d, %d]' % (
                OUTCOME_NAMES[g.match_winner], g.score[0], g.score[1])
        else:
            body = ""
        self.write(head + body + "}")
        if self.chained is not None:
            self.chained(ev, t, i)


def replay_text(text, rules=None):
    """Replay a whole log text; return ``(trace_lines, error_or_None)``."""
    game = Game(rules)
    lines = []
    tracer = Tracer(game, lines.append)
    try:
        play_lines(game, text.split("\n"), tracer.follow)
    except LogError as err:
        return lines, err
    return lines, None
