"""What every game's table says: the message lines and the strips' fixed texts.

The messages are told to both seats ((text for A, text for B), by message id); the
app (``hw.app``) picks the id, each game's view (``hw.table_view``, ``hw.row_view``,
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
DEMO_TEXT = "DEMO - press any button"
_DEMO = b"DEMO - press any button"
MESSAGES = (
    (b"", b""),
    (b"Get ready...", b"Get ready..."),
    (b"Dealing", b"Dealing"),
    (b"GO!", b"GO!"),
    (b"No match - new deal", b"No match - new deal"),
    (b"You win the game!", b"A wins the game"),
    (b"B wins the game", b"You win the game!"),
    (b"Draw - new shuffle", b"Draw - new shuffle"),
    (b"Deadlock: draw", b"Deadlock: draw"),
    (b"You win the match!", b"A wins the match"),
    (b"B wins the match", b"You win the match!"),
    (b"Paused: START resumes", b"Paused: START resumes"),
    (_DEMO, _DEMO),
    (b"A wins the game", b"A wins the game"),
    (b"B wins the game", b"B wins the game"),
    (b"A wins the match", b"A wins the match"),
    (b"B wins the match", b"B wins the match"),
)
MESSAGE_WIDTH = 23  # the longest message
# During attract mode a message id is shown as DEMO_OF[id]: the banner whenever
# nothing else needs telling (no message, "Get ready", "GO!"), neutral results.
DEMO_OF = (
    MSG_DEMO, MSG_DEMO, MSG_DEAL, MSG_DEMO, MSG_STUCK, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B,
    MSG_DRAW, MSG_DEADLOCK, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B, MSG_DEMO,
    MSG_DEMO, MSG_DEMO_WIN_A, MSG_DEMO_WIN_B, MSG_DEMO_MATCH_A, MSG_DEMO_MATCH_B,
)

PACK_TEXT = b"Pack 0"  # the count is written as digits at PACK_AT
PACK_AT = 5
WON_TEXT = b"Won 0 of 0"  # score digit at WON_AT, match length at OF_AT
WON_AT = 4
OF_AT = 9
LOCKED_TEXT = b" LOCKED "
