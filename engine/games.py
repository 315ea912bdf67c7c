"""The games the engine plays: one line per game, read by everything that needs a game by name.

Each game lives in its own modules: ``engine.<key>`` (the rules state machine),
``engine.<key>_rules`` (its configuration), ``engine.<key>_bot`` (its CPU player) and
``engine.<key>_trace`` (its fields of the replay trace). The log reader, the trace,
``tools/replay``, ``tools/simulate``, the benchmarks and ``tools/picosim`` find a game
here by its ``rules game=`` key; nothing else lists the games.

Adding a game: its four modules, then one line in :data:`GAMES` (docs/ADDING_A_GAME.md).

Implementation Notes
--------------------

A game's modules are imported only when it is asked for (:func:`load`), so a log of one
game loads nothing of the others (a board replaying a log has little heap).
"""

# key: the game's class, its rules' class and its CPU player's class (module.Class,
# modules under engine/), and its trace module.
GAMES = (
    ("grid", "grid.GridGame", "grid_rules.GridRules", "grid_bot.GridBot", "grid_trace"),
    ("row", "row.RowGame", "row_rules.RowRules", "row_bot.RowBot", "row_trace"),
    ("speed", "speed.SpeedGame", "speed_rules.SpeedRules", "speed_bot.SpeedBot", "speed_trace"),
    ("aggravation", "aggravation.AggravationGame", "aggravation_rules.AggravationRules", "aggravation_bot.AggravationBot", "aggravation_trace"),
)

KEYS = tuple(entry[0] for entry in GAMES)  # the values of ``rules game=``, in this order
DEFAULT = "grid"  # a log that names no game plays the 2x4 game (LOG.md)


def _entry(key):
    for entry in GAMES:
        if entry[0] == key:
            return entry
    raise ValueError("game must be one of %s, not %r" % ("/".join(KEYS), key))


def load(path):
    """The module ``engine.<path>``, or the class ``engine.<module>.<Class>``."""
    module, _, name = path.partition(".")
    package = __import__("engine." + module)  # the package, with the module imported
    found = getattr(package, module)
    return getattr(found, name) if name else found


def game_class(key):
    """The game class of ``key`` (``rules game=`` value)."""
    return load(_entry(key)[1])


def rules_class(key):
    """The rules class of ``key``."""
    return load(_entry(key)[2])


def bot_class(key):
    """The CPU player's class of ``key``."""
    return load(_entry(key)[3])


def trace_module(key):
    """The module with ``body(game, ev)``: the game's own fields of a trace line."""
    return load(_entry(key)[4])
