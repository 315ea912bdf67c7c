"""Who plays each seat: a human on a pad, or the CPU.

A seat controller has ``human`` (True if the seat's pad presses are played),
``reset(now)`` (called when each game starts), ``step(now)`` (called once per
loop after the engine has caught up with ``now``; returns a position 0-7 to press
at ``now``, or -1) and ``idle(now)`` (called instead of ``step`` while the game is
paused, so a bot paused for days keeps its stored times right). The firmware feeds a CPU seat's presses to the engine and the
log exactly like a human's, so a match against the CPU replays like any other.

Implementation Notes
--------------------

**Software and Dependencies:** optional ``engine.family_bot`` (``Bot(game, player, level,
seed)``, ``reset(now)``, ``step(now)``), imported only when a CPU seat is made;
another game's bot (``hw.games``: the kind's ``bot``) has the same calls, and its
``step`` returns that game's press argument (a position, a pile, ...) or -1.
"""


class HumanSeat:
    """A player on a pad: the pad's presses are played; nothing to step."""

    human = True

    def reset(self, now):
        """A game starts (nothing to do)."""

    def step(self, now):
        """Humans press buttons: no press from here."""
        return -1

    def idle(self, now):
        """The game is paused (nothing to do)."""


class CpuSeat:
    """The CPU opponent of ``engine.family_bot`` on seat ``player``; its pad is ignored."""

    human = False

    def __init__(self, game, player, level, seed, make):
        """``make(game, player, level, seed)`` makes the bot (the game's kind's ``bot``)."""
        self.bot = make(game, player, level, seed)

    def reset(self, now):
        """A game starts at ``now``."""
        self.bot.reset(now)

    def step(self, now):
        """Return what the CPU presses at ``now`` (a position, a pile, ...), or -1."""
        return self.bot.step(now)

    def idle(self, now):
        """The game is paused: the bot hears the time so its stored times stay right."""
        self.bot.idle(now)
