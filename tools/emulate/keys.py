"""The keyboard as the two pads and START: one path, timestamped when read.

Every key event goes through :meth:`Keyboard.handle`, which turns it into a
press/release of the firmware's one ``keypad`` scanner with the tick at which the
event was read. Both players' keys share that path and that queue, so two keys read
in the same pass carry the same timestamp and reach the engine as one tick; nothing
is throttled or dropped (the package's ``keypad_pygame`` drops the second player's
key within its interval, so it is not used).

Key map (physical key positions, US names; each player's 2x4 keys are laid out like
the cards on the screen, top row of keys = top row of cards)::

    screen:   7 6 5 4      A (left hand):  Q W E R      B (right hand):  U I O P
              0 1 2 3                      A S D F                       J K L ;

    START: Space or Enter        F1: help overlay        Esc / close: quit

The firmware's pads mirror the table from each seat (``hw.board.pads.position``); the
map below is stated in table positions and converted with it, so it stays right
whatever the pad wiring.
"""

import pygame

from hw.board.pads import position
from hw.board.profiles import KEY_START

# (seat, position) -> key name; a key name is pygame's (``pygame.key.name``).
POSITION_KEYS = (
    ("a", "s", "d", "f", "r", "e", "w", "q"),  # seat A, positions 0..7
    ("j", "k", "l", ";", "p", "o", "i", "u"),  # seat B, positions 0..7
)
START_KEYS = ("space", "return", "enter")  # "enter" is the keypad's
HELP_KEY = "f1"
QUIT_KEY = "escape"

TITLE = ("California Speed - A: QWER/ASDF  B: UIOP/JKL;  START: Space/Enter  "
         "F1: help  Esc: quit")
HELP_LINES = (
    "California Speed emulator - keys",
    "",
    "The keys are laid out like the cards:",
    "   screen     A (left hand)   B (right hand)",
    "   7 6 5 4     Q W E R         U I O P",
    "   0 1 2 3     A S D F         J K L ;",
    "",
    "START / MENU: Space or Enter (hold 1 s: back to the menu)",
    "Menu: A: Q/A up, W/S down, E/D -, R/F +",
    "      B: P/; up, O/L down, I/K -, U/J +",
    "Menu 'Players': 1 player vs CPU (B is the CPU; pick its level)",
    "Shared row: each key row = the piles left to right on screen;",
    "  6 piles: A: A S D F E R, B: J K U I O P",
    "Speed: cards A S D F E (A), P O I U K (B); piles Q R (A), ; J (B)",
    "       cancel W (A), L (B); a card that fits one pile plays at once",
    "Aggravation: each key row = 4 columns (near: yours, far: the other's);",
    "  blue: a column selected (that key row picks 1-4), white: a held tap",
    "20 s idle on the title: demo (CPU vs CPU); any key: back",
    "Button test: menu 'Button test' + START (or start with --button-test)",
    "Card outlines: orange = pending (2x4: still coverable) or selected (Speed),",
    "  light blue = playable (hints on), magenta = a tie, red = pad locked",
    "F1: this help     Esc or close: quit",
)
OUTLINES = "Outlines: orange pending/selected, light blue hint, magenta tie, red locked"


def legend_lines():
    """The key legend under the window: the pads' buttons named as the firmware names them.

    The firmware's menu footer reads "1/2 move  3/4 change" and BUILD.md calls the
    buttons near 1-4 and far 1-4, counted from each player's left; the legend says
    which key is which button, derived from the same map the keyboard uses. Its last
    line says what the cards' outline colours mean (``hw.draw.gfx``: PENDING, HINT,
    FLASH, LOCKED), as docs/PLAYERS.md does.
    """
    name = {logical: key for key, logical in logical_keys().items() if key not in START_KEYS}

    def row(seat, first):
        return " ".join(name[seat * 8 + button].upper() for button in range(first, first + 4))
    return ("Pad buttons 1 2 3 4, from each player's left (menu: 1/2 move, 3/4 change)",
            "A: near %s  far %s    B: near %s  far %s"
            % (row(0, 0), row(0, 4), row(1, 0), row(1, 4)),
            "START: Space or Enter (hold 1 s: menu)   F1: key map   Esc: quit",
            OUTLINES)


def button_of(seat, pos):
    """Return the pad button (0-7) of ``seat`` that presses table position ``pos``."""
    for button in range(8):
        if position(seat, button) == pos:
            return button
    raise ValueError("no button for position %r" % (pos,))


def _scancode(name):
    """SDL scancode of a key name (physical position on a US keyboard)."""
    special = {";": "SEMICOLON", "return": "RETURN", "enter": "KP_ENTER", "space": "SPACE",
               "f1": "F1", "escape": "ESCAPE"}
    return getattr(pygame, "KSCAN_" + special.get(name, name.upper()))


def logical_keys():
    """Return ``{key name: logical key}`` (``seat * 8 + button``, START = 16)."""
    keys = {}
    for seat in range(2):
        for pos, name in enumerate(POSITION_KEYS[seat]):
            keys[name] = seat * 8 + button_of(seat, pos)
    for name in START_KEYS:
        keys[name] = KEY_START
    return keys


def key_event(name, down):
    """Return the pygame KEYDOWN/KEYUP event a keyboard sends for key ``name``."""
    return pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP,
                              key=pygame.key.key_code(name), scancode=_scancode(name),
                              mod=0, unicode="", window=None)


class Keyboard:
    """Feeds key events to ``scanner`` (the firmware's ``keypad`` stand-in)."""

    def __init__(self, scanner):
        self.scanner = scanner
        names = logical_keys()
        # By scancode first (physical position, any layout), by key symbol otherwise
        # (synthetic events and tools that send no scancode).
        self.by_scancode = {_scancode(n): k for n, k in names.items()}
        self.by_symbol = {pygame.key.key_code(n): k for n, k in names.items()}
        self.presses = 0

    def logical(self, event):
        """The logical key of a pygame key event, or None."""
        key = self.by_scancode.get(getattr(event, "scancode", None))
        if key is None:
            key = self.by_symbol.get(event.key)
        return key

    def handle(self, event, now):
        """Queue ``event`` (KEYDOWN/KEYUP) as a key transition stamped ``now``.

        Returns True if it was one of the pads' or START's keys.
        """
        key = self.logical(event)
        if key is None:
            return False
        if event.type == pygame.KEYDOWN:
            if self.scanner.press(key, now):
                self.presses += 1
        else:
            self.scanner.release(key, now)
        return True
