"""The replay trace of LOG.md: one JSON object per line for every game event.

:class:`Tracer` is a game sink that formats each event as the JSON text CPython's
``json.dumps`` would give (same key order and spacing), by hand, so MicroPython
(which may lack ``json``) produces byte-identical traces. It allocates strings: it
is for replays and tests, not for the device's main loop.
"""

from engine.cards import CARD_NAMES
from engine.family import COVER, EV_MATCH, EV_OVER, EV_PRESS, OUTCOME_NAMES, PLAYER_NAMES
from engine.games import DEFAULT, game_class, trace_module
from engine.log import LogError, play_lines


class Tracer:
    """Game sink writing trace lines through ``write(text)`` (no newline).

    A sink the game already had keeps receiving every event, after the trace line.
    """

    def __init__(self, game, write):
        self.write = write
        self.chained = game.sink
        game.sink = self.event
        self.follow(game)

    def follow(self, game):
        """Trace ``game`` from now on: the log reader switched games (``on_game``)."""
        self.game = game
        self.fields = trace_module(game.GAME)

    def event(self, ev, t, i):
        """Format one engine event (see ``engine.family``) as a JSON line."""
        g = self.game
        text = '{"ev": "%s", "t": %d' % (g.EVENT_NAMES[ev], t)
        if ev == EV_PRESS:
            r = g.tick_result[i]
            text += ', "p": "%s", "pos": %d, "r": "%s"' % (
                PLAYER_NAMES[g.tick_player[i]], g.tick_pos[i], g.RESULT_NAMES[r])
            if r == COVER:
                text += ', "card": "%s"' % CARD_NAMES[g.tick_card[i]]
        elif ev == EV_OVER:
            text += ', "result": "%s", "why": "%s"' % (OUTCOME_NAMES[g.result], g.WHY_NAMES[g.why])
        elif ev == EV_MATCH:
            text += ', "winner": "%s", "score": [%d, %d]' % (
                OUTCOME_NAMES[g.match_winner], g.score[0], g.score[1])
        self.write(text + self.fields.body(g, ev) + "}")
        if self.chained is not None:
            self.chained(ev, t, i)


def replay_text(text, rules=None):
    """Replay a whole log text; return ``(trace_lines, error_or_None)``."""
    game = game_class(DEFAULT)(rules)
    lines = []
    tracer = Tracer(game, lines.append)
    try:
        play_lines(game, text.split("\n"), tracer.follow)
    except LogError as err:
        return lines, err
    return lines, None
