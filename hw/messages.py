"""What every game's table says: the message lines and the strips' fixed texts.

The messages are told to both seats ((text for A, text for B), by message id); the
app (``hw.app``) picks the id, each game's view (``hw.games.grid.table``, ``hw.games.row.table``,
...) draws it. Kept apart from the views so that the app, which names the messages,
holds no view's code: a view module is imported with its game and forgotten with it.

Implementation Notes
--------------------

**Software and Dependencies:** none (constants only).
"""

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
DEMO_TEXT = "DEMO - press any button"
_DEMO = b"DEMO - press any button"


def _both(text):
    """The same text for both seats (one bytes object, not two)."""
    return (text, text)


MESSAGES = (
    (b"", b""),
    _both(b"Get ready..."),
    _both(b"Dealing"),
    _both(b"GO!"),
    _both(b"No match - new deal"),
    (b"You win the game!", b"A wins the game"),
    (b"B wins the game", b"You win the game!"),
    _both(b"Draw - new shuffle"),
    _both(b"Deadlock: draw"),
    (b"You win the match!", b"A wins the match"),
    (b"B wins the match", b"You win the match!"),
    _both(b"Paused: START resumes"),
    (_DEMO, _DEMO),
    _both(b"A wins the game"),
    _both(b"B wins the game"),
    _both(b"A wins the match"),
    _both(b"B wins the match"),
    (b"You win the game!", b"Player wins the game"),
    _both(b"CPU wins the game"),
    (b"You win the match!", b"Player wins the match"),
    _both(b"CPU wins the match"),
    _both(b"START: new match"),
    _both(b"Tie! Nobody covers"),
    _both(b"Lost the coin toss"),
    _both(b"Won the coin toss"),
    _both(b"Locked: wait"),
    _both(b"Not a match!"),
)
MESSAGE_WIDTH = 23  # the longest message
# During attract mode a message id is shown as DEMO_OF[id]: the banner whenever
# nothing else needs telling (no message, "Get ready", "GO!"), neutral results.
DEMO_OF = (
    MSG_DEMO, MSG_DEMO, MSG_DEAL, MSG_DEMO, MSG_STUCK, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B,
    MSG_DRAW, MSG_DEADLOCK, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B,
    MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO, MSG_DEMO, MSG_DEMO, MSG_DEMO,
)

PACK_TEXT = b"Pack 0"  # the count is written as digits at PACK_AT
PACK_AT = 5
WON_TEXT = b"Won 0 of 0"  # score digit at WON_AT, match length at OF_AT
WON_AT = 4
OF_AT = 9
LOCKED_TEXT = b" LOCKED "  # the row game's strip (the 2x4 table has its own)
