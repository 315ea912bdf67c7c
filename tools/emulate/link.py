"""Two emulators on one link cable: ``python -m tools.emulate --link`` (docs/EMULATOR.md).

:func:`run_pair` starts two emulator processes, the host (A) and the guest (B), each
with its own firmware, screen, keyboard, serial log and clock, joined by a socket
pair: the cable. Each starts on the link screen in its role (as if *Link* had been
chosen in its menu); either START begins a match. In each process a :class:`Cable`
is the firmware's ``busio.UART`` on the profile's link pins (GP20 TX, GP21 RX).

* **Byte time.** A byte leaves when the line is free and arrives one byte time
  later (10 bits at the baud rate the firmware asked for: 21.7 us at 460800), so
  bytes written together arrive one after the other, as on a wire; ``write``
  returns only once all but 33 bytes are on the wire (32 in the TX FIFO, one in the
  shift register), as CircuitPython's does on an RP2040. The receiver keeps
  ``receiver_buffer_size`` bytes: bytes arriving to a full buffer are lost.
* **Clocks.** The guest's clock can run ``--ppm`` fast (negative: slow). In a
  window, true time is the machine's monotonic clock. Headless, time is virtual and
  the two run in lockstep on true time: an end may run its loop at true time T only
  once the other has promised to send nothing starting before T less a little
  under one byte time (a byte takes that long to arrive), so what one end sees never depends on how fast
  the other process happens to run, and a run gives the same two logs every time.
  Inside one pass of the firmware's loop, time passes only while it reads an empty
  port over and over (the host's spin for a sync reply: 40 us a read) or waits in
  ``write``.
* **Autoplay** (``--autoplay LEVEL``): on each handheld a CPU player reads its own
  copy of the match and presses that handheld's keys (the keypad stand-in, stamped
  like a person's); the host's presses START once linked. Each ends 3 s after its
  first match is over.

Implementation Notes
--------------------

Messages on the socket (``<cqH``: kind, true ns, length, then the bytes): ``D``
bytes whose first start bit leaves at that time, back to back at the byte time
(``q`` ns, sent once in ``B``); ``P`` a promise: nothing more will start before
that time; ``E`` the end stopped (the cable is then as if pulled). A window run
sends no promises and never waits.

Not modelled: the RX FIFO's timeout interrupt and line noise (the emulated Pico pair,
``tools/picosim/link.py``, models the chip's UART); the emulator's loop runs at most
every 1 ms (headless) or 2 ms (window), where a board's takes as long as its work.
"""

import os
import select
import socket
import struct
import subprocess
import sys
import threading
import time
from collections import deque

HEAD = struct.Struct("<cqH")
LOOKAHEAD_SLACK_NS = 1000  # the lookahead is the other end's byte time less this
SPIN_NS = 40000  # headless: what one read of an empty port costs, when repeated
FIFO_BYTES = 33  # write returns once all but these are on the wire (FIFO + shift register)
FAR = 1 << 62  # a promise that holds for ever (the other end stopped)
SEATS = "AB"
STOP_AFTER_MATCH_MS = 3000


class Cable:
    """This process's end of the cable (the firmware's UART) and its clock."""

    def __init__(self, sock, seat, ppm=0.0, virtual=True):
        self.sock = sock
        sock.setblocking(False)
        self.seat = seat
        self.rate = 1.0 + ppm / 1e6
        self.virtual = virtual
        self.true_ns = 0  # headless: this end's true time
        self.epoch_ns = time.monotonic_ns()  # window: this end's session began
        self.peer_promise = 0  # headless: the other end sends nothing starting before this
        self.promised = -1
        self.peer_gone = False
        self.incoming = deque()  # [arrival ns, byte]
        self.raw = bytearray()  # socket bytes not yet parsed
        self.byte_ns = 86806  # ours and the other end's (set by the UART's baud rate)
        self.peer_byte_ns = 86806
        self.line_free = 0  # our line: when the last byte's stop bit leaves
        self.rx = deque()
        self.rx_size = 64
        self.open = False
        self.empty_at = -1  # true ns of the last read that found nothing
        self.sent = 0
        self.received = 0
        self.overruns = 0
        self.on_time = None  # fn(): time passed inside a pass (the emulator's clock follows)

    # ------------------------------------------------------------ time
    def now_ns(self):
        """True time, ns (in a window, the machine's monotonic clock: both ends read it)."""
        if self.virtual:
            return self.true_ns
        return time.monotonic_ns()

    def local_ms(self):
        """This end's own clock: ms since the session began, ``rate`` fast."""
        if self.virtual:
            return int(self.true_ns * self.rate) // 1000000
        return int((time.monotonic_ns() - self.epoch_ns) * self.rate) // 1000000

    def reach_ms(self, ms):
        """Headless: move true time on until this end's clock reads ``ms`` (lockstep)."""
        target = int(ms * 1000000 / self.rate)
        while int(target * self.rate) // 1000000 < ms:
            target += 1
        if target > self.true_ns:
            self._pass_to(target)

    def _pass_to(self, target):
        """Headless: true time goes to ``target`` once the other end allows it.

        Waiting, this end runs nothing, so it sends nothing before ``target``: it
        promises that first (of two ends waiting, the one behind can always go on)."""
        self._promise(target)
        while not self.peer_gone and \
                self.peer_promise < target - (self.peer_byte_ns - LOOKAHEAD_SLACK_NS):
            self._receive(wait=True)
        self.true_ns = target
        self._promise(target)

    def pass_ns(self, ns):
        """Time passes inside a pass of the firmware's loop (a spin, a blocking write)."""
        if self.virtual:
            self._pass_to(self.true_ns + ns)
        elif ns > 0:
            time.sleep(ns / 1e9)
        if self.on_time is not None:
            self.on_time()

    # ------------------------------------------------------------ the socket
    def _send(self, kind, t, data=b""):
        if self.peer_gone:
            return
        try:
            self.sock.setblocking(True)
            self.sock.sendall(HEAD.pack(kind, t, len(data)) + data)
        except OSError:
            self.peer_gone = True
        finally:
            try:
                self.sock.setblocking(False)
            except OSError:
                pass

    def _promise(self, t):
        if self.virtual and t > self.promised:
            self.promised = t
            self._send(b"P", t)

    def _receive(self, wait=False):
        if self.peer_gone:
            return
        if wait:
            select.select([self.sock], [], [], 5.0)
        while True:
            try:
                chunk = self.sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                chunk = b""
            if not chunk:
                self.peer_gone = True
                self.peer_promise = FAR
                break
            self.raw += chunk
        raw = self.raw
        at = 0
        while len(raw) - at >= HEAD.size:
            kind, t, n = HEAD.unpack_from(raw, at)
            if len(raw) - at - HEAD.size < n:
                break
            data = raw[at + HEAD.size:at + HEAD.size + n]
            at += HEAD.size + n
            if kind == b"D":
                step = self.peer_byte_ns
                for k, byte in enumerate(data):
                    self.incoming.append((t + (k + 1) * step, byte))
                self.peer_promise = max(self.peer_promise, t)
            elif kind == b"B":
                self.peer_byte_ns = t
            elif kind == b"P":
                self.peer_promise = max(self.peer_promise, t)
            elif kind == b"E":
                self.peer_gone = True
                self.peer_promise = FAR
        del raw[:at]

    def close(self):
        """This end stops: the other end's cable goes quiet."""
        self._send(b"E", self.now_ns())
        self.peer_gone = True
        try:
            self.sock.close()
        except OSError:
            pass

    # ------------------------------------------------------------ the UART
    def uart_class(self):
        """``busio.UART`` for the firmware: this cable on any pins it names."""
        return _uart_class(self)

    def _arrived(self):
        self._receive()
        now = self.now_ns()
        incoming = self.incoming
        rx = self.rx
        while incoming and incoming[0][0] <= now:
            byte = incoming.popleft()[1]
            if not self.open:
                continue
            if len(rx) >= self.rx_size:
                self.overruns += 1
                continue
            rx.append(byte)
            self.received += 1

    def read_into(self, buf):
        """Up to ``len(buf)`` bytes that have arrived; None if none (``timeout=0``)."""
        self._arrived()
        rx = self.rx
        if not rx:
            now = self.now_ns()
            if now == self.empty_at:  # read again at once: the loop spins on the port
                self.pass_ns(SPIN_NS)
                self.empty_at = self.now_ns()
            else:
                self.empty_at = now
                if not self.virtual and self.on_time is not None:
                    self.on_time()
            return None
        n = min(len(buf), len(rx))
        for k in range(n):
            buf[k] = rx.popleft()
        return n

    def write(self, data):
        """Send ``data``; return once all but :data:`FIFO_BYTES` of it are on the wire."""
        if not data:
            return 0
        start = max(self.line_free, self.now_ns())
        self.line_free = start + len(data) * self.byte_ns
        self.sent += len(data)
        self._send(b"D", start, bytes(data))
        wait = self.line_free - FIFO_BYTES * self.byte_ns - self.now_ns()
        if wait > 0:
            self.pass_ns(wait)
        return len(data)

    def set_baud(self, baudrate):
        self.byte_ns = 10 * 1000000000 // baudrate
        self._send(b"B", self.byte_ns)


def _uart_class(cable):
    from tools.cpstubs.microcontroller import claim, release

    class UART:
        """``busio.UART`` (CircuitPython 10.2.1) whose wire is the link cable."""

        def __init__(self, tx=None, rx=None, *, baudrate=9600, bits=8, parity=None, stop=1,
                     timeout=1, receiver_buffer_size=64, **_):
            if tx is None and rx is None:
                raise ValueError("Must specify at least one of tx or rx")
            claim(tx, rx)
            self._pins = (tx, rx)
            self.baudrate = baudrate
            self.timeout = timeout
            cable.set_baud(baudrate)
            cable.rx_size = receiver_buffer_size
            cable.rx.clear()
            cable.open = True
            self._deinited = False

        def _check(self):
            if self._deinited:
                raise ValueError("Object has been deinitialized and can no longer be used."
                                 " Create a new object.")

        def readinto(self, buf):
            self._check()
            return cable.read_into(buf)

        def write(self, buf, n=None):
            self._check()
            data = bytes(buf) if n is None else bytes(buf[:n])
            return cable.write(data)

        @property
        def in_waiting(self):
            self._check()
            cable._arrived()  # pylint: disable=protected-access
            return len(cable.rx)

        def reset_input_buffer(self):
            self._check()
            cable.rx.clear()

        def deinit(self):
            if not self._deinited:
                self._deinited = True
                cable.open = False
                cable.rx.clear()
                release(*self._pins)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.deinit()

    return UART


class LinkClock:
    """The emulator's clock on a cable: ``ticks_ms`` of this end (skewed, lockstep headless)."""

    def __init__(self, cable, start):
        from tools.emulate.clock import WRAP

        self.cable = cable
        self.start = start % WRAP
        self.wrap = WRAP
        self.virtual = cable.virtual

    def elapsed(self):
        """Milliseconds of this end's clock since the session started."""
        return self.cable.local_ms()

    def now(self):
        """The current tick (mod 2**29)."""
        return (self.start + self.elapsed()) % self.wrap

    def advance_to(self, elapsed):
        """Headless: move on to ``elapsed`` ms (never back), in step with the other end."""
        if elapsed > self.elapsed():
            self.cable.reach_ms(elapsed)


# ------------------------------------------------------------------ in each emulator

def attach(emu, cable, seat, autoplay=None, seed=0):
    """Set ``emu`` (an :class:`~tools.emulate.main.Emulator`) up as seat ``seat`` on
    ``cable``: the link screen in its role at the first turn, and the CPU player."""
    import supervisor

    def follow_clock():
        emu.now = emu.clock.now()
        supervisor.set_ticks(emu.now)
    cable.on_time = follow_clock

    def open_link(emu):
        app = emu.app
        if app is None or app.menu.link < 0:
            emu.failure = "the firmware offers no Link (its profile has no link pins)"
            return
        app.menu.link = seat
        from hw.app.linked import start

        start(app)
    emu.schedule(0, open_link)
    if autoplay is not None:
        emu.every_loop.append(Autoplay(seat, autoplay, seed))


class Autoplay:
    """A CPU player pressing this handheld's keys (``--autoplay LEVEL``)."""

    def __init__(self, seat, level, seed):
        self.seat = seat
        self.level = level
        self.seed = seed
        self.bot = None
        self.started = False
        self.second = None  # (n, first button, time): Speed's pile or Aggravation's line next
        self.ending = False

    def __call__(self, emu, now):
        from hw.app.modes import DONE, GAME, LINK
        from hw.board.pads import KEY_START

        app = emu.app
        session = app.session if app is not None else None
        if session is None:
            return
        scanner = emu.keyboard.scanner
        if app.mode == LINK and session.host and session.linked and not self.started:
            self.started = True
            scanner.tap(KEY_START, now, hold=40)
        if app.mode == DONE and not self.ending:
            self.ending = True
            emu.until_ms = emu.elapsed() + STOP_AFTER_MATCH_MS
        if app.mode != GAME:
            self.bot = None
            self.second = None
            return
        game = app.game
        if self.second is not None:  # a press that may need a second one
            n, button, at = self.second
            if now - at >= 12:  # the first press has been read (debounce, a pass)
                self.second = None
                if game.GAME == "speed" and game.controls.selection(game, self.seat) == n % 5:
                    from hw.games.speed.keys import pile_button

                    scanner.tap(self.seat * 8 + pile_button(self.seat, n // 5), now, hold=20)
                elif game.GAME == "aggravation" and \
                        game.controls.selection(game, self.seat, game.clock) >= 0:
                    from hw.games.aggravation.keys import line_of

                    scanner.tap(self.seat * 8 + (button & 4) + line_of(n), now, hold=20)
            return
        bot = self.bot
        if bot is None or bot.game is not game:
            from engine.games import bot_class

            bot = self.bot = bot_class(game.GAME)(game, self.seat, self.level, self.seed)
            bot.reset(game.clock)
        # The guest's engine moves only when a line comes: its player acts on the
        # host's time as the guest's screen shows it.
        n = bot.step(game.clock if session.host else session.host_now(now))
        if n < 0:
            return
        if game.GAME == "speed":  # the card; its pile next if it was only selected
            from hw.games.speed.keys import slot_button

            scanner.tap(self.seat * 8 + slot_button(n % 5), now, hold=20)
            self.second = (n, 0, now)
            return
        if game.GAME == "aggravation":  # the column; its line next if only selected
            from hw.games.aggravation.keys import column_button

            button = column_button(self.seat, n)
            scanner.tap(self.seat * 8 + button, now, hold=20)
            self.second = (n, button, now)
            return
        for button in range(8):
            if app.kind.target(game, self.seat, button) == n:
                scanner.tap(self.seat * 8 + button, now, hold=20)
                return


# ------------------------------------------------------------------ the two processes

def seat_path(path, seat):
    """``path`` for seat ``seat``: ``build/x.log`` -> ``build/x-A.log``."""
    if path is None or path == "none":
        return path
    root, ext = os.path.splitext(path)
    return "%s-%s%s" % (root, SEATS[seat], ext)


def child_argv(args, seat, fd):
    """The command line of seat ``seat``'s emulator."""
    argv = [sys.executable, "-m", "tools.emulate", "--link-end", "%d:%d:%s" % (
        seat, fd, repr(args.ppm if seat else 0.0))]
    argv.append("--headless" if args.headless else "--window")
    argv += ["--scale", str(args.scale), "--size", args.size]
    if args.until is not None:
        argv += ["--until", str(args.until)]
    if args.seed is not None:
        argv += ["--seed", str((args.seed + seat) % (1 << 30))]
    for option, value in (("--game", args.game), ("--start-ticks", args.start_ticks),
                          ("--autoplay", args.autoplay)):
        if value is not None:
            argv += [option, str(value)]
    script = args.script if seat == 0 else args.script_b
    if script:
        argv += ["--script", script]
    for option, value in (("--log", args.log), ("--trace", args.trace),
                          ("--screenshot", args.screenshot), ("--window-shot", args.window_shot),
                          ("--gif", args.gif), ("--nvm", args.nvm), ("--fram", args.fram)):
        if value is not None:
            argv += [option, seat_path(value, seat)]
    if args.frames:
        argv += ["--frames", os.path.join(args.frames, SEATS[seat])]
    return argv


def _echo(stream, prefix, out):
    for line in iter(stream.readline, b""):
        out.write(prefix + line.decode("utf-8", "replace"))
        out.flush()
    stream.close()


def run_pair(args):
    """Run host and guest emulators on one cable; their worst exit status."""
    for seat in (0, 1):  # the two would race to make a folder both write into
        for path in (args.log, args.trace, args.screenshot, args.window_shot, args.gif):
            if path:
                os.makedirs(os.path.dirname(os.path.abspath(seat_path(path, seat))),
                            exist_ok=True)
    ends = socket.socketpair()
    procs = []
    threads = []
    try:
        for seat, end in enumerate(ends):
            fd = end.fileno()
            os.set_inheritable(fd, True)
            proc = subprocess.Popen(child_argv(args, seat, fd), pass_fds=(fd,),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            procs.append(proc)
            for stream, out in ((proc.stdout, sys.stdout), (proc.stderr, sys.stderr)):
                thread = threading.Thread(target=_echo, args=(stream, SEATS[seat] + "| ", out),
                                          daemon=True)
                thread.start()
                threads.append(thread)
        for end in ends:
            end.close()
        while any(proc.poll() is None for proc in procs):
            if any(proc.poll() for proc in procs):  # one failed: the other would wait alone
                for proc in procs:
                    if proc.poll() is None:
                        proc.terminate()
            time.sleep(0.05)
        statuses = [proc.wait() for proc in procs]
    except KeyboardInterrupt:
        for proc in procs:
            proc.terminate()
        statuses = [proc.wait() for proc in procs]
    for thread in threads:
        thread.join(5)
    return max(statuses) if statuses else 1
