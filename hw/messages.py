"""What every game's table says: the message lines, the strips' fixed texts, the score.

The messages are told to both seats ((text for A, text for B), by message id); the
app (``hw.app``) picks the id, each game's view (``hw.games.grid.table``, ``hw.games.row.table``,
...) draws it. Kept apart from the views so that the app, which names the messages,
holds no view's code: a view module is imported with its game and forgotten with it.

One wording for results in every game and every mode: both seats read the same line,
naming the winner by seat letter, or "CPU" for a CPU seat B vs a person ("A wins the
game", "CPU wins the match"); nobody is told "You". Two players face each other across
one screen, so each reads both lines; a name reads the same from either side.

Implementation Notes
--------------------

**Software and Dependencies:** none (constants, and the score line written into a
``hw.draw.text.Text`` the caller passes).
"""

from engine.compat import const

# Messages: (text for A, text for B), by message id.
MSG_NONE = 0
MSG_READY = 1
MSG_DEAL = 2
MSG_GO = 3
MSG_STUCK = 4
MSG_WIN_A = 5
MSG_WIN_B = 6
MSG_DRAW = 7
MSG_DEADLOCK = 8
MSG_MATCH_A = 9
MSG_MATCH_B = 10
MSG_PAUSED = 11
MSG_DEMO = 12  # attract mode (hw.app): the banner
MSG_DEMO_WIN_A = 13  # attract mode: results told alike to both seats (no "You")
MSG_DEMO_WIN_B = 14
MSG_DEMO_MATCH_A = 15
MSG_DEMO_MATCH_B = 16
MSG_CPU_WIN_A = 17  # vs the CPU (hw.app.feedback words results with these)
MSG_CPU_WIN_B = 18
MSG_CPU_MATCH_A = 19
MSG_CPU_MATCH_B = 20
MSG_NEW_MATCH = 21  # match over: the prompt, in turn with the result
MSG_TIE = 22  # notes: on one seat's line (hw.app.feedback)
MSG_LOST_TIE = 23
MSG_WON_TIE = 24
MSG_LOCKED = 25
MSG_ILLEGAL = 26
_MSG_LINK_LOST = const(27)  # link play (hw.app.linked): the cable is out, the match waits
_MSG_LINK_BACK = const(28)  # ... it is back: a countdown, then play resumes
DEMO_TEXT = "DEMO - press any button"
_DEMO = const(b"DEMO - press any button")


def both(text):
    """The same text for both seats (one bytes object, not two)."""
    return (text, text)


_GAME_A = both(b"A wins the game")  # results: the same tuple for play, demo and CPU ids
_GAME_B = both(b"B wins the game")
_MATCH_A = both(b"A wins the match")
_MATCH_B = both(b"B wins the match")
MESSAGES = (
    (b"", b""),
    both(b"Get ready..."),
    both(b"Dealing"),
    both(b"GO!"),
    both(b"No match - new deal"),
    _GAME_A,
    _GAME_B,
    both(b"Draw - new shuffle"),
    both(b"Deadlock: draw"),
    _MATCH_A,
    _MATCH_B,
    both(b"Paused: START resumes"),
    (_DEMO, _DEMO),
    _GAME_A,
    _GAME_B,
    _MATCH_A,
    _MATCH_B,
    _GAME_A,
    both(b"CPU wins the game"),
    _MATCH_A,
    both(b"CPU wins the match"),
    both(b"START: new match"),
    both(b"Tie! Nobody covers"),
    both(b"Lost the coin toss"),
    both(b"Won the coin toss"),
    both(b"Locked: wait"),
    both(b"Not a match!"),
    both(b"Link lost"),
    both(b"Link back - ready"),
)
MESSAGE_WIDTH = 23  # the longest message
# During attract mode a message id is shown as DEMO_OF[id]: the banner whenever
# nothing else needs telling (no message, "Get ready", "GO!"), neutral results.
DEMO_OF = (
    MSG_DEMO, MSG_DEMO, MSG_DEAL, MSG_DEMO, MSG_STUCK, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B,
    MSG_DRAW, MSG_DEADLOCK, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B,
    MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO, MSG_DEMO, MSG_DEMO, MSG_DEMO, _MSG_LINK_LOST, _MSG_LINK_BACK,
)

PACK_TEXT = b"Pack 0"  # the count is written as digits at PACK_AT
PACK_AT = 5
LOCKED_TEXT = b"LOCKED"  # a red box in the strip, after the pack count
LOCKED_AT = len(PACK_TEXT) + 2  # columns from the reader's left
# The score line, as the reader sees it: "<me> 1 - 0 <them>  first to 2" (the 2x4 and
# the row game's strips; Speed's strip is narrower and says "1/2 wins").
NAMES = (b"A", b"B")
_CPU_NAME = const(b"CPU")  # seat B vs the CPU
_SCORE_DASH = const(b" - ")
_SCORE_FIRST_TO = const(b"  first to ")
SCORE_WIDTH = 23  # "CPU 0 - 1 A  first to 2"


def write_score(text, seat, cpu, score, wins):
    """Write ``seat``'s score line into ``text`` (a ``hw.draw.text.Text`` of
    :data:`SCORE_WIDTH`, right-aligned): "<me> n - n <them>  first to <wins>", seat B
    named "CPU" if ``cpu``; ``score``: games won, [A, B]. Allocates nothing."""
    me = _CPU_NAME if seat == 1 and cpu else NAMES[seat]
    them = _CPU_NAME if seat == 0 and cpu else NAMES[1 - seat]
    i = SCORE_WIDTH - len(me) - len(them) - 2 - len(_SCORE_DASH) - len(_SCORE_FIRST_TO) - 3
    for k in range(i):
        text.put(k, 32)
    text.write(i, me)
    i += len(me)
    text.put(i, 32)
    text.number(i + 1, min(score[seat], wins), 1)
    i += 2
    text.write(i, _SCORE_DASH)
    i += len(_SCORE_DASH)
    text.number(i, min(score[1 - seat], wins), 1)
    text.put(i + 1, 32)
    i += 2
    text.write(i, them)
    i += len(them)
    text.write(i, _SCORE_FIRST_TO)
    text.number(i + len(_SCORE_FIRST_TO), wins, 1)
