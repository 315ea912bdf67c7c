"""The match log of LOG.md: a reader that plays a log into a game, and its writer.

:class:`LogReader` checks every line and drives a game of the family; a bad
line raises :class:`LogError` (``line N: reason``) before anything of it is played.
It allocates (it splits text): it is for replaying, on a desktop or a board.

:class:`engine.logwriter.LogWriter` formats records into one preallocated buffer
without allocating per line; it is a module of its own so that the reader's code is
not in the firmware's heap.

Implementation Notes
--------------------

One reading on every interpreter: numbers are ASCII digits only (CPython's
``str.isdigit`` also accepts other scripts' digits), blank means ASCII whitespace
only (CPython's ``str.strip`` also strips U+3000). A line is at most
:data:`LINE_MAX` bytes before its newline, checked before it is split, so a huge
line costs no memory and its error never echoes it; fields are shown cut to
:data:`_SHOW` characters. ``feed`` takes ``bytes`` (what the tools read: a bad
UTF-8 byte is reported on its own line) or ``str``. Lines end at ``\n`` only;
a CR before it (CRLF) is dropped, a CR anywhere else is part of the line.
"""

from engine.cards import parse_card
from engine.family import ERROR_NAMES, OK
from engine.games import DEFAULT, KEYS, game_class, rules_class
from engine.rng import SEED_LIMIT
from engine.ticks import TICKS_PERIOD, ticks_diff

HEADER = "CSLOG 1"
_HEADER = b"CSLOG 1"

LINE_MAX = 256  # bytes of one line before its newline; the longest record (deck) is 160
_BLANK = " \t\r\n\x0b\x0c"  # ASCII whitespace: what a blank line may hold
_SHOW = 24  # a field quoted in an error is cut to this many characters
_CACHE_MAX = 64  # rules settings remembered as already checked


class LogError(Exception):
    """A malformed, out-of-range or out-of-order log line (``lineno`` 0: no line)."""

    def __init__(self, lineno, reason):
        super().__init__(("line %d: %s" % (lineno, reason)) if lineno else reason)
        self.lineno = lineno
        self.reason = reason


def _show(text):
    """``repr`` of a field, cut short: an error never echoes a huge field."""
    if len(text) > _SHOW:
        return repr(text[:_SHOW]) + "..."
    return repr(text)


def is_digits(text):
    """True if ``text`` is ASCII digits only (no sign, no other script's digits)."""
    if not text:
        return False
    for c in text:
        if c < "0" or c > "9":
            return False
    return True


def _number(text, limit, what):
    """Parse a decimal field in ``[0, limit)`` or raise ``ValueError``."""
    if not is_digits(text):
        raise ValueError("%s must be a decimal integer, not %s" % (what, _show(text)))
    if len(text) > 12:  # int() of a long field would cost time for nothing
        raise ValueError("%s %s out of range [0, %d)" % (what, _show(text), limit))
    value = int(text)
    if value >= limit:
        raise ValueError("%s %d out of range [0, %d)" % (what, value, limit))
    return value




def _decode(raw):
    """Text of one raw line (newline kept); ``ValueError`` if too long or not UTF-8."""
    n = len(raw)
    if n and raw[n - 1] == 10:
        n -= 1
    if n > LINE_MAX:
        raise ValueError("line longer than %d bytes" % LINE_MAX)
    try:
        return str(raw, "utf-8")
    except UnicodeError as err:
        at = getattr(err, "start", -1)  # CPython says where; MicroPython does not
        if at < 0:
            raise ValueError("not UTF-8 text") from None
        raise ValueError("not UTF-8 text (byte 0x%02x at column %d)" % (raw[at], at + 1)) from None


def game_for(kind, old):
    """A game of ``kind`` taking over from ``old``: its sink and any waiting deck.

    Set-up only (it allocates); a game's modules are imported only when a log asks
    for it (``engine.games``).
    """
    if old.GAME == kind:
        return old
    new = game_class(kind)(None, old.sink)
    if old.has_deck:  # a seed or deck read before the rules waits for its start
        new.deck[:] = old.deck
        new.deck_rng.state = old.deck_rng.state
        new.has_deck = True
    return new


class LogReader:
    """Plays a match log, line by line, into a game.

    The log picks its game (``rules game=KEY``, ``engine.games``; LOG.md): when
    it differs from the game given, the reader sets up one of the right kind
    (:func:`game_for`), keeps it in ``game`` and calls ``on_game(new_game)``.
    """

    def __init__(self, game, on_game=None):
        self.game = game
        self.on_game = on_game
        self.kind = None  # the log's game, once known (first rules key or first start)
        self.keys_read = False  # a rules key has been read
        self.declared = False  # the log gave ``game`` (as its first rules key)
        self.lineno = 0
        self.seen_header = False
        self.seen_start = False
        self.last_time = -1  # the latest time read, -1 before any
        self.rules = rules_class(DEFAULT)()
        self.rules_read = False  # rules lines read, not yet given to the game
        self._checked = {}  # "key=value" -> value, settings already checked

    def feed(self, line):
        """Read one line (``bytes`` or ``str``, newline optional); raise ``LogError`` if bad."""
        self.lineno += 1
        try:
            if not isinstance(line, str):
                line = _decode(line)
            line = line.rstrip("\n")
            if len(line) > LINE_MAX:
                raise ValueError("line longer than %d bytes" % LINE_MAX)
            line = line.rstrip("\r")
            if not line.strip(_BLANK) or line[0] == "#":
                return
            self._record(line.split(" "))
        except ValueError as err:
            raise LogError(self.lineno, str(err)) from None

    def end(self):
        """End of the log: judge the last tick, run steps due by the last time."""
        if not self.seen_header:
            if not self.lineno:
                raise LogError(0, "empty log: the first line must be %r" % HEADER)
            raise LogError(self.lineno, "the log ended before its %r header" % HEADER)
        self._apply_rules()
        self.game.finish()

    def _time(self, text):
        t = _number(text, TICKS_PERIOD, "time")
        if self.last_time >= 0 and ticks_diff(t, self.last_time) < 0:
            raise ValueError("time %d is before %d (or jumps 2**28 ms or more)"
                             % (t, self.last_time))
        return t

    def _record(self, fields):
        kind = fields[0]
        if "" in fields:
            raise ValueError("fields must be separated by single spaces")
        if not self.seen_header:
            if len(fields) != 2 or kind != "CSLOG" or fields[1] != "1":
                raise ValueError("the first line must be %r" % HEADER)
            self.seen_header = True
            return
        game = self.game
        args = fields[1:]
        if kind == "rules":
            self._rules(args)
        elif kind == "seed":
            self._arity(kind, args, 1)
            seed = _number(args[0], SEED_LIMIT, "seed")
            self._waiting_check()
            game.shuffle(seed)
        elif kind == "deck":
            self._arity(kind, args, 52)
            self._waiting_check()
            codes = bytearray(52)
            for i in range(52):
                code = parse_card(args[i])
                if code < 0:
                    raise ValueError("bad card %s" % _show(args[i]))
                codes[i] = code
            if not game.set_deck(codes):
                raise ValueError("the deck must hold 52 distinct cards")
        elif kind == "start":
            self._arity(kind, args, 1)
            t = self._time(args[0])
            if self.kind is None:
                self._use_game(DEFAULT)
                game = self.game
            if not game.has_deck:
                raise ValueError("start without a seed or deck")
            self._apply_rules()
            self._check(game.start(t))
            self.last_time = t
            self.seen_start = True
        elif kind == "press":
            self._arity(kind, args, 3)
            t = self._time(args[0])
            if args[1] not in ("A", "B"):
                raise ValueError("player must be A or B, not %s" % _show(args[1]))
            rules = self.rules
            pos = _number(args[2], rules.codes(), rules.PRESS)
            if not self.seen_start:
                raise ValueError("press before the first start")
            self._check(game.press(0 if args[1] == "A" else 1, pos, t))
            self.last_time = t
        elif kind == "clock":
            self._arity(kind, args, 1)
            t = self._time(args[0])
            self._check(game.advance(t))
            self.last_time = t
        elif kind == "CSLOG":
            raise ValueError("the header may appear only once")
        else:
            raise ValueError("unknown record %s" % _show(kind))

    def _rules(self, args):
        """Check a ``rules`` line; the game gets the merged rules at the first start."""
        if self.seen_start:
            raise ValueError("rules must come before the first start")
        checked = self._checked
        for arg in args:
            value = checked.get(arg)
            eq = arg.find("=")
            if eq <= 0:
                raise ValueError("rules settings are KEY=VALUE, not %s" % _show(arg))
            key = arg[:eq]
            if key == "game":
                self._game_key(arg[eq + 1:])
                continue
            self.keys_read = True
            if self.kind is None:
                self._use_game(DEFAULT)
            rules = self.rules  # the game's rules class, once the game is known
            if value is None:  # not seen before: check it (Rules.set checks every key)
                if key not in rules.KEYS:
                    raise ValueError("unknown rules key %s for game=%s" % (_show(key), self.kind))
                text = arg[eq + 1:]
                if key not in rules.NAMED and not is_digits(text):
                    raise ValueError("%s must be a non-negative integer, not %s"
                                     % (key, _show(text)))
                if len(text) > 12:
                    raise ValueError("%s %s out of range" % (key, _show(text)))
                rules.set(key, text)
                if len(checked) >= _CACHE_MAX:
                    checked.clear()
                value = checked[arg] = getattr(rules, key)
            else:
                setattr(rules, key, value)
        self.rules_read = True

    def stop(self):
        """A bad line ended the log: play it as if the log had ended just before it."""
        self._apply_rules()
        self.game.finish()

    def _apply_rules(self):
        if self.rules_read:
            self.rules_read = False
            self.game.set_rules(self.rules)

    def _game_key(self, value):
        """``game=``: the first key of the log's rules, or a repeat of the same value."""
        if value not in KEYS:
            raise ValueError("game must be one of %s, not %s" % ("/".join(KEYS), _show(value)))
        if self.declared:
            if value != self.kind:
                raise ValueError("game=%s contradicts game=%s" % (value, self.kind))
            return
        if self.keys_read:
            raise ValueError("game must be the first rules key, not after another")
        self.keys_read = True
        self.declared = True
        self._use_game(value)

    def _use_game(self, kind):
        """The log's game is ``kind``: switch the game and the rules to it."""
        if self.kind is None:
            self.kind = kind
            if kind != self.rules.GAME:
                self.rules = rules_class(kind)()
            new = game_for(kind, self.game)
            if new is not self.game:
                self.game = new
                if self.on_game is not None:
                    self.on_game(new)

    def _waiting_check(self):
        if self.game.has_deck:
            raise ValueError("a seed or deck is already waiting for its start")

    @staticmethod
    def _arity(kind, args, n):
        if len(args) != n:
            raise ValueError("%s takes %d field%s, not %d" % (kind, n, "" if n == 1 else "s", len(args)))

    @staticmethod
    def _check(code):
        if code != OK:
            raise ValueError(ERROR_NAMES[code])


def play_lines(game, lines, on_game=None):
    """Play an iterable of log lines into ``game``; raise ``LogError`` if one is bad.

    On a bad line the game has already played everything before it, as if the log
    had ended there (the last tick judged, steps due by the last time run).
    ``on_game`` is called with the new game if the log's ``game`` differs from
    ``game``'s (see :class:`LogReader`).
    """
    reader = LogReader(game, on_game)
    try:
        for line in lines:
            reader.feed(line)
    except LogError:
        reader.stop()
        raise
    reader.end()
    return reader

