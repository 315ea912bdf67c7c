"""The handheld's modes and screens: the names the parts of ``hw.app`` share."""

from engine.compat import const

# Modes.
TITLE = 0
MENU = 1
READY = 2  # a match is on: "get ready" before a game
GAME = 3  # a game is being played
RESULT = 4  # a game has ended: its result is shown
DONE = 5  # the match has been won
STATS = 6  # the stats screen (START held in the menu)
BUTTONS = 7  # the button test mode (hw.views.button_check)
LINK = 8  # the link screen (hw.app.linked): linking, linked, between linked matches
_MODE_NAMES = const(("title", "menu", "ready", "game", "result", "done", "stats", "buttons",
                     "link"))

# Screens: which scene is built (one at a time).
NO_SCREEN = -1
TITLE_SCREEN = 0
MENU_SCREEN = 1
TABLE_SCREEN = 2
STATS_SCREEN = 3
BUTTONS_SCREEN = 4
# 5: the link screen (hw.app.screens: _LINK_SCREEN)
