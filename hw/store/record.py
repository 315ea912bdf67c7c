"""Menu choices and players' stats, kept so that a power cut cannot corrupt them.

One versioned record (:class:`Record`) holds the menu choices and the stats: games and
matches won per seat, games and matches won and lost against each CPU level, win
streaks, the fastest win per seat, ties won and lost per seat, and the reaction time
(first legal press after the table changed) as a sum and a count per seat.

Each copy (a *slot*) carries a 16-bit sequence number and a CRC-32 of everything
before it; :meth:`Record.load` takes the newest slot whose CRC holds (defaults if
none does), and a save never writes over the newest good copy, so a save cut short
leaves a slot whose CRC fails and the older copy loads on the next boot. Two homes:

* **an I2C FRAM** (:class:`ByteStore`, ``hw.store.fram``), when the kit has one: two
  slots, a save writes the one that is not the newest. FRAM has no erase and writes
  each byte as it arrives, so a cut at any moment leaves the old record or the new
  one, never anything else.
* **``microcontroller.nvm``** (the Pico's flash) otherwise: a ring of slots (up to
  32, 128 bytes apart, in nvm's 4 KB); a save writes the next slot after the newest
  while that slot is still erased. When the ring is full, the save starts it over:
  one write of the whole ring, the new record in slot 0 and every other slot erased.

Implementation Notes
--------------------

**Flash behaviour (CircuitPython ``ports/raspberrypi/common-hal/nvm/ByteArray.c``):**
an assignment to ``nvm`` whose target bytes are all 0xFF only *programs* those pages;
any other assignment copies the whole 4 KB sector to RAM, *erases* it and programs it
back page by page, with interrupts off throughout. So a save into the ring is a
page program and cannot lose the old record; the save that starts the ring over
(one in 32) erases the sector, and a cut between that erase and the program of
page 0 (which then holds the new record) leaves the sector erased: both copies are
lost and the next boot has the defaults (never garbage). Nothing in the firmware can
close that window on this port: nvm is one sector that every non-blank write erases
whole, CircuitPython offers no other flash a program may write safely (CIRCUITPY is
read-only to code while USB can write it, and a FAT write is not power-safe either),
and RAM that survives a reset (``alarm.sleep_memory``) does not survive a power cut.
The ring makes the window 32 times rarer; docs/HIL.md has its measured length. An
FRAM closes it: a kit with one keeps the record there (the flash's record moves over
at the first save) and never erases anything.
Saves happen only between games (the keypad is not scanned while interrupts are off).

**Allocation:** the record is one preallocated ``bytearray`` (the slot image); counters
are read and written in place; the CRC-32 is computed bitwise in two 16-bit halves so
that every intermediate stays a small int (no long ints, no table, no ``binascii``,
which not every CircuitPython board has). A save into the ring is one slice
assignment and allocates nothing; the save that starts the ring over allocates the
ring's image (about 4 KB) for that one write, left as garbage (without the memory it writes
slot 0 alone: correct, the ring stays full and the next save tries again).

**Format:** little-endian; version 3: the menu's common choices, the stats, the
chosen game (its index in ``hw.games.GAMES``) and each game's own options (a row of
:data:`OPTION_BYTES` per game, :data:`MAX_GAMES` rows: 0xFF means "not chosen yet",
the game's default), then the CRC. Every older format still loads: version 2 (the
game and the row and Speed options in eight bytes after the stats, ``V2_MORE``; or,
written before those existed, its CRC at ``V2_OLD_CRC``) and version 1 (the menu's
old 7-byte store: a magic byte 0xC5 and six choices). The next save writes version 3.

**Which slot is the newest:** a save writes the newest slot's sequence number plus one
(16 bits, wrapping), so the newest valid slot is the one whose successor no valid slot
holds (the end of its chain); should a damaged or foreign image hold several such
ends, the highest slot. A save into the ring checks that a load would then take the
slot it wrote, and otherwise starts the ring over, so no image, however made, can
shadow a save; on the FRAM the other slot always holds the newest's predecessor.

**Software and Dependencies:** none (pure Python, runs on CPython and CircuitPython).
"""

MAGIC0 = 0x43  # "C"
MAGIC1 = 0x53  # "S"
VERSION = 3

LEVELS = 4  # CPU levels with a column in the record (beginner, normal, expert, spare)
MENU_ITEMS = 6
MAX_GAMES = 8  # games with a row of options (hw.games.GAMES: room for more than today's)
OPTION_BYTES = 4  # options per game
UNSET = 0xFF  # an option never chosen: the game's default

# offsets in a slot
_SEQ = 3  # u16
MENU = 5  # MENU_ITEMS bytes
STATS = MENU + MENU_ITEMS  # first stats byte: everything from here is reset by reset_stats()
GAMES = STATS  # u16 per seat: games won
MATCHES = GAMES + 4  # u16 per seat: matches won
VS = MATCHES + 4  # per level: u16 games won, games lost, matches won, matches lost (seat A vs CPU)
BEST = VS + 8 * LEVELS  # u16 per seat: longest run of games won
STREAK = BEST + 4  # u16: current run, by STREAK_SEAT
STREAK_SEAT = STREAK + 2  # u8: 0/1, 0xFF none
FASTEST = STREAK_SEAT + 1  # u16 per seat, tens of ms; 0xFFFF none
TIES_WON = FASTEST + 4  # u16 per seat
TIES_LOST = TIES_WON + 4  # u16 per seat
REACT_SUM = TIES_LOST + 4  # u32 per seat (kept below 2**30), ms
REACT_N = REACT_SUM + 8  # u16 per seat
GAME = REACT_N + 4  # u8: the chosen game (not a stat: reset_stats keeps it)
OPTIONS = GAME + 1  # MAX_GAMES rows of OPTION_BYTES: each game's own options
CRC = OPTIONS + MAX_GAMES * OPTION_BYTES  # u32 CRC-32 of bytes [0, CRC)
SLOT = CRC + 4
SPACING = 128  # a slot fits in 128 bytes; half a flash page, so no slot spans two pages
RING = 32  # slots at most: 4 KB
NVM_BYTES = SPACING + SLOT  # the smallest nvm used: two slots (slot i is at i * SPACING)

# Version 2, still loaded: the game and the row and Speed options after the stats.
V2_MORE = GAME  # game, row piles, match, redeal, Speed cards, same, remake, points
V2_CRC = V2_MORE + 8
V2_OLD_CRC = V2_MORE  # a version 2 slot written before V2_MORE existed
_V2_OPTIONS = ((1, 1, 3), (2, 4, 4))  # (game index, first byte in V2_MORE, count)

# vs-CPU columns
VS_GAMES_WON = 0
VS_GAMES_LOST = 1
VS_MATCHES_WON = 2
VS_MATCHES_LOST = 3

U16_MAX = 0xFFFF
REACT_MAX = 0x3FFFFFFF  # sums stay small ints in MicroPython
FASTEST_UNIT_MS = 10

_OLD_MAGIC = 0xC5  # version 1: magic + MENU_ITEMS choices at nvm[0]
_FAILED = bytearray(RING)  # best_slot's marks (made once: a save allocates nothing)


def crc_at(data, start, end, store):
    """CRC-32 (zlib's) of ``data[start:end]``, stored little-endian at ``data[end:end + 4]``
    (``store``) or compared with what is there.

    Returns True if stored or equal. Inlined halves: no tuple, no long int.
    """
    hi = 0xFFFF
    lo = 0xFFFF
    for i in range(start, end):
        lo ^= data[i]
        for _ in range(8):
            odd = lo & 1
            lo = (lo >> 1) | ((hi & 1) << 15)
            hi >>= 1
            if odd:
                hi ^= 0xEDB8
                lo ^= 0x8320
    hi ^= 0xFFFF
    lo ^= 0xFFFF
    if store:
        data[end] = lo & 0xFF
        data[end + 1] = lo >> 8
        data[end + 2] = hi & 0xFF
        data[end + 3] = hi >> 8
        return True
    return (data[end] == lo & 0xFF and data[end + 1] == lo >> 8
            and data[end + 2] == hi & 0xFF and data[end + 3] == hi >> 8)


def _header_ok(data, off):
    """True if the slot at ``off`` of ``data`` starts with the magic and a known version."""
    return data[off] == MAGIC0 and data[off + 1] == MAGIC1 and 2 <= data[off + 2] <= VERSION


def _slot_crc(data, off):
    """Where the slot at ``off`` of ``data`` has its good CRC (CRC; V2_CRC or V2_OLD_CRC
    for a version 2 slot), or 0 (no magic, another version, or no good CRC)."""
    if not _header_ok(data, off):
        return 0
    if data[off + 2] == VERSION:
        return CRC if crc_at(data, off, off + CRC, False) else 0
    if crc_at(data, off, off + V2_CRC, False):
        return V2_CRC
    if crc_at(data, off, off + V2_OLD_CRC, False):
        return V2_OLD_CRC
    return 0


def _seq(data, off):
    return data[off + _SEQ] | (data[off + _SEQ + 1] << 8)


def _slots(nvm):
    """How many ring slots fit in ``nvm`` (0 if not two)."""
    n = len(nvm)
    if n < NVM_BYTES:
        return 0
    return min(RING, (n - SLOT) // SPACING + 1)


def _erased(data, off):
    for i in range(off, off + SLOT):
        if data[i] != 0xFF:
            return False
    return True


def best_slot(data):
    """The index of the newest slot of ``data`` whose CRC holds, or -1 (see the module
    notes: the valid slot whose successor no valid slot holds; the highest on a tie).

    A CRC is computed only for the slot about to be taken (one, on a healthy image);
    a slot that fails it is set aside and the choice made again.
    """
    count = _slots(data)
    failed = _FAILED
    for index in range(count):
        failed[index] = 0
    while True:
        best = -1
        for index in range(count):
            off = index * SPACING
            if failed[index] or not _header_ok(data, off):
                continue
            after = (_seq(data, off) + 1) & 0xFFFF
            ends = True
            for other in range(count):
                o_off = other * SPACING
                if (other != index and not failed[other] and _header_ok(data, o_off)
                        and _seq(data, o_off) == after):
                    ends = False
                    break
            if ends:
                best = index
        if best < 0 or _slot_crc(data, best * SPACING):
            return best
        failed[best] = 1


class ByteStore:
    """A store written in place, byte by byte, with no erase: an I2C FRAM (``hw.store.fram``).

    :meth:`Record.load` and :meth:`Record.save` hand themselves to its ``load(record)``
    and ``save(record)``, so the code for it is loaded only with it.
    """


class Record:
    """The record in RAM: one slot image, changed in place, written with :meth:`save`."""

    def __init__(self, menu_defaults=bytes(MENU_ITEMS)):
        self.buf = bytearray(SLOT)
        self.defaults = bytes(menu_defaults)
        self.slot = -1  # index of the slot loaded or last written, -1: none
        self.dirty = False
        self.saves = 0  # saves written since boot
        self.wraps = 0  # of which started the ring over (erased the sector)
        self.clear()

    # ----------------------------------------------------------- load, save

    def clear(self):
        """Defaults: menu defaults, all stats zero (fastest: none)."""
        buf = self.buf
        for i in range(SLOT):
            buf[i] = 0
        buf[0] = MAGIC0
        buf[1] = MAGIC1
        buf[2] = VERSION
        buf[MENU:MENU + MENU_ITEMS] = self.defaults
        for i in range(OPTIONS, CRC):
            buf[i] = UNSET
        self._reset_stats()

    def _reset_stats(self):
        buf = self.buf
        for i in range(STATS, GAME):
            buf[i] = 0
        buf[STREAK_SEAT] = 0xFF
        for seat in range(2):
            self._put16(FASTEST + 2 * seat, U16_MAX)

    def load(self, nvm):
        """Load the newest valid slot of ``nvm``; return its index, or -1 (defaults kept).

        ``nvm`` is the flash (``microcontroller.nvm``) or a :class:`ByteStore`. With
        no valid slot but the old (version 1) menu store at ``nvm[0]``, its menu
        choices are taken (stats start at zero) and -1 is returned.
        """
        self.clear()
        self.slot = -1
        if nvm is None:
            return -1
        if isinstance(nvm, ByteStore):
            return nvm.load(self)
        best = best_slot(nvm)
        if best >= 0:
            self.take_slot(nvm, best)
        elif len(nvm) > MENU_ITEMS and nvm[0] == _OLD_MAGIC:
            for i in range(MENU_ITEMS):
                self.buf[MENU + i] = nvm[1 + i]
            self.dirty = True
        return best

    def take_slot(self, data, index):
        """Copy the valid slot ``index`` of ``data`` into the record (load's step; a
        ``ByteStore`` uses it too); an older version's slot is converted, and marked
        dirty so that the next save writes the current format."""
        off = index * SPACING
        buf = self.buf
        end = _slot_crc(data, off)
        self.slot = index
        if end == CRC:
            for i in range(SLOT):
                buf[i] = data[off + i]
            return
        for i in range(V2_OLD_CRC):  # header, menu and stats: the same in version 2
            buf[i] = data[off + i]
        buf[2] = VERSION
        if end == V2_CRC:  # the game, then the row's and Speed's options
            buf[GAME] = data[off + V2_MORE]
            for game, first, count in _V2_OPTIONS:
                for i in range(count):
                    buf[OPTIONS + game * OPTION_BYTES + i] = data[off + V2_MORE + first + i]
        self.dirty = True

    def stamp(self):
        """The next sequence number and the CRC, before a write."""
        self._put16(_SEQ, (self._get16(_SEQ) + 1) & 0xFFFF)
        crc_at(self.buf, 0, CRC, True)

    def save(self, nvm):
        """Write the record (see the module notes); return the slot written or -1.

        Nothing is written if nothing changed since the last load or save.
        """
        if nvm is None or not self.dirty:
            return -1
        if isinstance(nvm, ByteStore):
            return nvm.save(self)
        if len(nvm) < NVM_BYTES:
            return -1
        count = _slots(nvm)
        target = self.slot + 1
        if self.slot < 0:  # no valid copy: the first erased slot
            target = 0
            while target < count and not _erased(nvm, target * SPACING):
                target += 1
        self.stamp()
        if target < count and _erased(nvm, target * SPACING):
            off = target * SPACING
            nvm[off:off + SLOT] = self.buf  # programs erased bytes only
            if best_slot(nvm) == target:
                return self.mark_saved(target)
            # A damaged or foreign image would shadow it: keep this record alone.
        target = 0
        self._start_over(nvm, count)
        return self.mark_saved(target)

    def mark_saved(self, target):
        """Slot ``target`` now holds the record (after a write)."""
        self.slot = target
        self.dirty = False
        self.saves += 1
        return target

    def _start_over(self, nvm, count):
        """The ring is full: one write of the new record in slot 0 and the rest erased."""
        size = (count - 1) * SPACING + SLOT
        try:
            image = bytearray(size)  # (MicroPython has no bytearray * int)
        except MemoryError:  # slot 0 alone (the sector is erased and written back)
            nvm[0:SLOT] = self.buf
            return
        image[0:SLOT] = self.buf
        for i in range(SLOT, size):  # the other slots: erased
            image[i] = 0xFF
        nvm[0:len(image)] = image
        self.wraps += 1

    # --------------------------------------------------------------- fields

    def _get16(self, off):
        buf = self.buf
        return buf[off] | (buf[off + 1] << 8)

    def _put16(self, off, value):
        buf = self.buf
        buf[off] = value & 0xFF
        buf[off + 1] = (value >> 8) & 0xFF

    def _add16(self, off):
        value = self._get16(off)
        if value < U16_MAX:  # saturate: never wrap into a small number
            self._put16(off, value + 1)
        self.dirty = True

    def _get32(self, off):
        buf = self.buf
        return (buf[off] | (buf[off + 1] << 8) | (buf[off + 2] << 16)
                | ((buf[off + 3] & 0x3F) << 24))

    def _put32(self, off, value):
        buf = self.buf
        buf[off] = value & 0xFF
        buf[off + 1] = (value >> 8) & 0xFF
        buf[off + 2] = (value >> 16) & 0xFF
        buf[off + 3] = (value >> 24) & 0x3F

    def menu_value(self, item):
        return self.buf[MENU + item]

    def game(self):
        """The chosen game's index (``hw.games.GAMES``)."""
        return self.buf[GAME]

    def option(self, game, i):
        """Option ``i`` of game ``game``, or :data:`UNSET` (never chosen: its default)."""
        return self.buf[OPTIONS + game * OPTION_BYTES + i]

    def buf_option(self, k):
        """Byte ``k`` of the options rows (``game * OPTION_BYTES + i``)."""
        return self.buf[OPTIONS + k]

    def set_menu(self, values, game=None, options=None):
        """Take the menu's choices: ``values`` (MENU_ITEMS common choices), the game's
        index and ``options`` (every game's options, MAX_GAMES * OPTION_BYTES);
        mark dirty if they changed."""
        self._take(MENU, values, MENU_ITEMS)
        if game is not None and self.buf[GAME] != game:
            self.buf[GAME] = game
            self.dirty = True
        if options is not None:
            self._take(OPTIONS, options, MAX_GAMES * OPTION_BYTES)

    def _take(self, off, values, n):
        buf = self.buf
        for i in range(n):
            if buf[off + i] != values[i]:
                buf[off + i] = values[i]
                self.dirty = True

    def games(self, seat):
        return self._get16(GAMES + 2 * seat)

    def matches(self, seat):
        return self._get16(MATCHES + 2 * seat)

    def vs(self, level, column):
        """Seat A against CPU ``level``: one of the VS_* columns."""
        return self._get16(VS + 8 * level + 2 * column)

    def best_streak(self, seat):
        return self._get16(BEST + 2 * seat)

    def streak(self, seat):
        """The current run of games won by ``seat`` (0 if the other seat won last)."""
        return self._get16(STREAK) if self.buf[STREAK_SEAT] == seat else 0

    def fastest_ms(self, seat):
        """The fastest game won by ``seat`` in ms, or -1 if none."""
        value = self._get16(FASTEST + 2 * seat)
        return -1 if value == U16_MAX else value * FASTEST_UNIT_MS

    def ties_won(self, seat):
        return self._get16(TIES_WON + 2 * seat)

    def ties_lost(self, seat):
        return self._get16(TIES_LOST + 2 * seat)

    def reactions(self, seat):
        return self._get16(REACT_N + 2 * seat)

    def reaction_ms(self, seat):
        """The average reaction of ``seat`` in ms, or -1 if none was timed."""
        n = self._get16(REACT_N + 2 * seat)
        if n == 0:
            return -1
        return self._get32(REACT_SUM + 4 * seat) // n

    # -------------------------------------------------------------- updates

    def game_won(self, seat, ms, level=-1):
        """A game won by ``seat`` in ``ms``; ``level``: the CPU level seat B played, or -1.

        Against the CPU, seat B's own stats (games, streak, fastest) are not kept.
        """
        if 0 <= level < LEVELS:
            column = VS_GAMES_WON if seat == 0 else VS_GAMES_LOST
            self._add16(VS + 8 * level + 2 * column)
            if seat == 1:
                self.buf[STREAK_SEAT] = 0xFF  # seat A's run is over
                self._put16(STREAK, 0)
                return
        self._add16(GAMES + 2 * seat)
        buf = self.buf
        if buf[STREAK_SEAT] == seat:
            self._add16(STREAK)
        else:
            buf[STREAK_SEAT] = seat
            self._put16(STREAK, 1)
        run = self._get16(STREAK)
        if run > self._get16(BEST + 2 * seat):
            self._put16(BEST + 2 * seat, run)
        if ms >= 0:
            units = min(ms // FASTEST_UNIT_MS, U16_MAX - 1)
            if units < self._get16(FASTEST + 2 * seat):
                self._put16(FASTEST + 2 * seat, units)
        self.dirty = True

    def match_won(self, seat, level=-1):
        """A match won by ``seat``; ``level`` as in :meth:`game_won`."""
        if 0 <= level < LEVELS:
            column = VS_MATCHES_WON if seat == 0 else VS_MATCHES_LOST
            self._add16(VS + 8 * level + 2 * column)
            if seat == 1:
                return
        self._add16(MATCHES + 2 * seat)

    def tie(self, winner):
        """A tie (both seats on one position in one tick) that ``winner`` got."""
        self._add16(TIES_WON + 2 * winner)
        self._add16(TIES_LOST + 2 * (1 - winner))

    def reaction(self, seat, ms):
        """A reaction of ``ms`` by ``seat``; sum and count halve together before saturating."""
        if ms < 0:
            return
        ms = min(ms, 0xFFFF)
        s_off = REACT_SUM + 4 * seat
        n_off = REACT_N + 2 * seat
        total = self._get32(s_off)
        n = self._get16(n_off)
        if n >= U16_MAX or total + ms > REACT_MAX:
            total >>= 1  # keeps the average, makes room
            n >>= 1
        self._put32(s_off, total + ms)
        self._put16(n_off, n + 1)
        self.dirty = True

    def reset_stats(self):
        """Zero every stat (the menu choices stay)."""
        self._reset_stats()
        self.dirty = True
