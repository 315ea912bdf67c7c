"""Two handhelds' firmware (hw.app.App) in one process, joined by a simulated cable.

Each App gets its own clock (a skew in ppm), its own pads (events stamped on its own
clock, as keypad stamps them), a headless display and a serial log; the cable carries
bytes both ways after a byte time, and can be pulled (``cut``), drop or corrupt bytes.
The two step in turn, 1 ms of true time at a time, like two loops running side by side.

Used by tests/test_link_play.py; ``LinkedPair.play_match`` drives a whole match with a
CPU player's choices pressed on each handheld's own pads (the bots read each side's
own engine, so the guest's bot plays from the guest's copy of the match).
"""

import random

from tools import cpstubs

cpstubs.install()

from hw.app import App  # noqa: E402
from hw.app.modes import DONE, GAME, LINK, MENU  # noqa: E402
from hw.board.pads import KEY_START  # noqa: E402
from hw.menu import LINK as LINK_ITEM  # noqa: E402

BYTE_US = 22  # 460800 baud (hw.app.linked), 10 bits


class Clock:
    """One handheld's ticks_ms: true time (us) run fast by ``ppm``, from ``start``."""

    def __init__(self, pair, ppm=0.0, start=1000):
        self.pair = pair
        self.ppm = ppm
        self.start = start

    def __call__(self):
        return (self.start + int(self.pair.true_us * (1 + self.ppm / 1e6)) // 1000) & \
            ((1 << 29) - 1)


class Port:
    """One end of the cable: a busio.UART with timeout=0 (readinto, write)."""

    def __init__(self, pair, side):
        self.pair = pair
        self.side = side
        self.inbox = bytearray()
        self.closed = False

    def write(self, buf, n=None):
        n = len(buf) if n is None else n
        self.pair.send(self.side, bytes(buf[:n]))
        return n

    def readinto(self, buf):
        if not self.inbox:
            if self.side == 0:  # the host reads in a spin (a sync reply): time goes on
                self.pair.spin()
            return None
        n = min(len(buf), len(self.inbox))
        buf[:n] = self.inbox[:n]
        del self.inbox[:n]
        return n

    def deinit(self):
        self.closed = True


class Display:
    """A headless display: the scene is built, nothing is drawn."""

    width = 320
    height = 240

    def __init__(self):
        self.root_group = None
        self.refreshes = 0

    def refresh(self):
        self.refreshes += 1


class Pads:
    """The keypad queue: events stamped on the handheld's own clock."""

    def __init__(self):
        self.queue = []
        self.key = 0
        self.pressed = False
        self.timestamp = 0
        self.overflows = 0

    def read(self):
        if not self.queue:
            return False
        self.key, self.pressed, self.timestamp = self.queue.pop(0)
        return True

    def check_overflow(self, now=0):
        return False


class Log:
    """The data serial port: everything the firmware writes."""

    def __init__(self):
        self.data = bytearray()
        self.connected = True

    def write(self, buf):
        self.data += bytes(buf)
        return len(buf)


class Handheld:
    """One App and its parts."""

    def __init__(self, pair, name, ppm, seed, start=1000):
        self.pair = pair
        self.name = name
        self.clock = Clock(pair, ppm, start=start + 7919 * (name == "B"))
        self.port = Port(pair, 0 if name == "A" else 1)
        self.pads = Pads()
        self.serial = Log()
        self.display = Display()
        self.app = App(self.display, self.pads, port=self.serial, seed=seed,
                       link=self.open, clock=self.clock, attract_ms=0)
        self.opened = 0

    def open(self):
        if self.pair.refuse_open:
            raise ValueError("GP20 in use")
        self.opened += 1
        self.port.closed = False
        return self.port

    def key(self, key, down=True, at=None):
        self.pads.queue.append((key, down, self.clock() if at is None else at))

    def tap(self, key):
        self.key(key, True)
        self.key(key, False)

    def log_text(self):
        return self.serial.data.decode()


class LinkedPair:
    """Host (A) and guest (B) on one cable, stepping 1 ms of true time in turn."""

    def __init__(self, ppm_b=0.0, seed=1, start=1000):
        self.true_us = 0
        self.wire = ([], [])  # (arrival us, byte) per direction (0: A -> B)
        self.cut = False
        self.drop_rate = 0.0
        self.corrupt_rate = 0.0
        self.rng = random.Random(seed)
        self.busy_until = [0, 0]
        self.refuse_open = False
        self.b_ms = 0
        self.sent = [0, 0]
        self.lost = [0, 0]
        self.a = Handheld(self, "A", 0.0, seed, start)
        self.b = Handheld(self, "B", ppm_b, seed + 1, start)
        self.sides = (self.a, self.b)

    def send(self, side, data):
        t = max(self.busy_until[side], self.true_us)
        for byte in data:
            t += BYTE_US
            self.sent[side] += 1
            if self.cut or self.rng.random() < self.drop_rate:
                self.lost[side] += 1
                continue
            if self.rng.random() < self.corrupt_rate:
                byte ^= 1 << self.rng.randrange(8)
            self.wire[side].append((t, byte))
        self.busy_until[side] = t

    def _deliver(self):
        for side in (0, 1):
            wire = self.wire[side]
            inbox = self.sides[1 - side].port.inbox
            while wire and wire[0][0] <= self.true_us:
                if not self.sides[1 - side].port.closed:
                    inbox.append(wire[0][1])
                wire.pop(0)

    def spin(self):
        """The host waits in a spin: 100 us go by; the guest runs its passes meanwhile."""
        self.true_us += 100
        self._deliver()
        if self.true_us // 1000 > self.b_ms:
            self._step_b()

    def _step_b(self):
        self.b_ms = self.true_us // 1000
        self.b.app.step(self.b.clock())

    def step(self, ms=1):
        for _ in range(ms):
            self.true_us += 1000
            self._deliver()
            self.a.app.step(self.a.clock())
            if self.true_us // 1000 > self.b_ms:
                self._step_b()

    def run_until(self, cond, limit_ms=30000):
        for _ in range(limit_ms):
            if cond():
                return True
            self.step()
        return cond()

    # ------------------------------------------------------------ menus
    def open_link(self, hand, role):
        """Walk ``hand``'s menu to Link, pick ``role`` (0 host, 1 guest), START."""
        app = hand.app
        if app.mode != MENU:
            hand.tap(0)  # any pad key: the title shows the menu
            self.step(5)
        menu = app.menu
        for _ in range(30):
            if menu.cursor == LINK_ITEM:
                break
            hand.tap(1)  # pad A near 2: down
            self.step(3)
        assert menu.cursor == LINK_ITEM
        while menu.link != role:
            hand.tap(3)
            self.step(3)
        hand.tap(KEY_START)
        self.step(3)
        assert app.mode == LINK

    def link_up(self):
        self.open_link(self.a, 0)
        self.open_link(self.b, 1)
        assert self.run_until(lambda: self.a.app.session.linked and self.b.app.session.linked,
                              3000)

    def choose_game(self, key):
        """The host's menu chooses game ``key`` (before linking)."""
        from hw import games

        app = self.a.app
        app.menu.choose(games.index_of(key))

    def start_match(self, hand=None):
        (hand or self.a).tap(KEY_START)
        assert self.run_until(lambda: self.a.app.mode >= 2 and self.b.app.mode >= 2
                              and self.a.app.mode != LINK and self.b.app.mode != LINK, 3000)

    def play_match(self, level=3, limit_ms=600000, seed=7):
        """Each handheld's player is a CPU player reading its own engine; their presses
        go through the pads. Returns when both show the match over."""
        from engine.games import bot_class

        bots = {}
        rng = random.Random(seed)

        def done():
            return self.a.app.mode == DONE and self.b.app.mode == DONE

        for _ in range(limit_ms):
            if done():
                return True
            self.step()
            for hand, seat in ((self.a, 0), (self.b, 1)):
                app = hand.app
                if app.mode != GAME:
                    bots.pop(seat, None)
                    continue
                game = app.game
                bot = bots.get(seat)
                if bot is None or bot.game is not game:
                    bot = bots[seat] = bot_class(game.GAME)(game, seat, level, rng.randrange(1 << 20))
                    bot.reset(game.clock)
                n = bot.step(game.clock)
                if n >= 0:
                    self.press_arg(hand, seat, n)
        return done()

    def press_arg(self, hand, seat, n):
        """Press the pad button(s) of ``hand`` that play engine argument ``n``: Speed's
        card, then its pile if the card was only selected (hw.games.speed.keys);
        Aggravation's column, then its line if the column was only selected."""
        app = hand.app
        game = app.game
        if game.GAME == "speed":
            from hw.games.speed.keys import pile_button, slot_button

            slot, pile = n % 5, n // 5
            hand.tap(seat * 8 + slot_button(slot))
            self.step()
            if app.mode == GAME and game.controls.selection(game, seat) == slot:
                hand.tap(seat * 8 + pile_button(seat, pile))
            return True
        if game.GAME == "aggravation":  # a column, then its line if it was only selected
            from hw.games.aggravation.keys import column_button, line_of

            button = column_button(seat, n)
            hand.tap(seat * 8 + button)
            self.step()
            if app.mode == GAME and game.controls.selection(game, seat, game.clock) >= 0:
                hand.tap(seat * 8 + (button & 4) + line_of(n))
            return True
        kind = app.kind
        for button in range(8):
            if kind.target(game, seat, button) == n:
                hand.tap(seat * 8 + button)
                return True
        return False
