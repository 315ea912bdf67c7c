"""The games on the handheld: one line per game, in the menu's order.

Each game is a package ``hw.games.<key>`` holding everything the firmware knows of it:
its *kind* (``__init__``: its menu options, the rules they make, its CPU player, its
demo variations, how a pad button maps to a press), its table view (``view``) and
whatever else it needs (Speed's two-button ``keys``). Everything else in the firmware
(the menu, the record, the match flow, attract mode) is the same for every game and
reads a kind only through the names below.

A kind module provides:

* ``KEY``: the log's ``rules game=`` value; ``OPTIONS``: its own menu items, each
  ``(label, choices)``, and ``DEFAULTS`` (one choice index per option); optionally
  ``option_shown(menu, i)`` (an option shown only with others' values) and
  ``plays_to_wins(menu)`` (False: the match length is not asked, e.g. a points match);
* ``RANK_FLASH``: a tie also flashes the other cards of its rank (``hw.app.feedback``);
* ``MODULES``: the modules only this game uses (its kind, view, engine, rules, bot),
  forgotten (:func:`forget`) when another game is chosen, so the heap holds one game;
* ``game(sink)``: a new engine (default rules), at match start;
* ``rules(menu)``: the rules the menu's choices make (``menu.option(i)``, and the
  common ``penalty()``, ``tie()``, ``wins()``); ``attract_rules(i, wins)``: demo
  variation ``i`` of ``VARIATIONS`` (attract mode plays every game's in turn);
* ``bot(game, seat, level, seed)``: the CPU player (``step(now)`` returns the engine
  argument to press, or -1);
* ``sheets(width, height)`` and ``view(width, height, glyphs, sheets[, player])``: the
  card bitmaps (made once while the game is chosen) and the table's view (``player``:
  link play's seat the table is drawn from, its player at the bottom and everything
  upright; left out, -1: the shared screen, the seats facing each other), whose
  ``update(game, now, msg, hints, feedback)`` draws a frame and whose ``group`` is shown;
  its ``cards_layer`` (a ``displayio.Group`` of its cards, inside ``group``) is hidden
  by the app while "Get ready..." shows, so the last game's cards are not under it;
* ``target(game, seat, button)``: the engine argument that ``seat``'s pad button 0-7
  (``hw.board.pads``: 0-3 the near row, 4-7 the far row, each from the seat's own
  left) presses, or -1 when that button does nothing now. Called once per press, it
  must not allocate, and may keep state (a play made of two buttons); such a kind may
  give ``press_button(seat, n)``, the button whose press alone makes ``n`` (tools that
  read a log find a press's button with it, or else by ``target`` on a stand-in).

Adding a game: its package, then one line in :data:`GAMES` (docs/ADDING_A_GAME.md).
The record keeps the chosen game's *index* here and a row of options per index, so a
new game is added at the end and none is ever removed or reordered.

Implementation Notes
--------------------

One kind is imported at a time (:func:`use`: the menu's choice, or the game of a
demo), and its table, engine and CPU player only when a match of it begins;
:func:`forget` drops a module so the collector can take its code.
"""

# key, the menu's name (in the menu's order; see above: append only)
GAMES = (
    ("grid", "California Speed 2x4"),
    ("row", "Shared row"),
    ("speed", "Speed"),
    ("aggravation", "Aggravation"),
)

NAMES = tuple(entry[1] for entry in GAMES)


def index_of(key):
    """The menu index of the game ``key``, or -1."""
    for i in range(len(GAMES)):
        if GAMES[i][0] == key:
            return i
    return -1


_used = [-1, None]  # the game whose kind is loaded, and its module


def use(index):
    """The kind module of game ``index``: one kind is loaded at a time, the previous
    one's modules are forgotten (its objects live on while something holds them)."""
    if _used[0] != index:
        old = _used[1]
        _used[0] = -1
        _used[1] = None
        if old is not None:
            for name in old.MODULES:
                forget(name)
        key = GAMES[index][0]
        _used[1] = getattr(__import__("hw.games." + key).games, key)
        _used[0] = index
    return _used[1]


def forget(name):
    """Drop an imported module, so the collector can take its code."""
    import sys

    sys.modules.pop(name, None)
    package, _, leaf = name.rpartition(".")
    parent = sys.modules.get(package)
    if parent is not None and hasattr(parent, leaf):
        delattr(parent, leaf)
