"""Link frames on the wire: byte-stuffed, CRC-16 checked, decoded one byte at a time.

A frame is ``START``, then -- each byte that equals ``START`` or ``ESC`` sent as ``ESC``
and the byte XOR ``0x20`` -- the header ``seat type seq ack length``, ``length``
payload bytes and the CRC-16 of header and payload (big-endian). ``seat`` is the
sender's seat in the high nibble and the addressee's in the low one (``NO_SEAT``:
none yet / everyone). ``seq`` numbers a reliable frame (type with the ``RELIABLE``
bit); in any other frame it is the sender's next reliable number. ``ack`` is the next
reliable number the sender expects from the addressee. docs/LINK.md has the types and
their payloads.

:func:`encode` writes a whole frame into a caller's buffer; :class:`Decoder` takes
bytes one at a time and says when a whole, valid frame is in its buffer. A receiver
resynchronises at the next ``START`` whatever came before it: a frame cut short,
damaged or of an unknown type or length is dropped and counted.

Implementation Notes
--------------------

CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF; ``crc16(b"123456789") ==
0x29B1``), computed four bits at a time from a 16-entry table so every intermediate
stays a small int. It detects every error of up to 3 bits and every burst of up to 16
bits in a frame; a frame damaged otherwise passes with odds of about 1 in 65536, and
the decoder's checks of type and length (a fixed length per type) cut those further.
Nothing here allocates after construction.
"""

from engine.compat import const

START = const(0x7E)
ESC = const(0x7D)
_FLIP = const(0x20)

# Frame types. RELIABLE ones are numbered, acknowledged and resent until acknowledged.
RELIABLE = const(0x40)
HELLO = const(0x01)  # role, version, nonce (2): "here I am", while not linked
ASSIGN = const(0x02)  # seat, guest nonce (2), host nonce (2): the host gives a seat
ACK = const(0x03)  # nothing: the header's ack field says it (also a heartbeat)
NACK = const(0x04)  # nothing: "resend from the header's ack field"
SYNC_REQ = const(0x05)  # t1 (4), 8 zero bytes: as long as the reply, so both take as long
SYNC_REP = const(0x06)  # t1, t2, t3 (4 each)
WATERMARK = const(0x07)  # t (4): every press stamped up to t was sent before this frame
LOG = const(0x41)  # a CSLOG 1 line without its newline (host -> guests)
PRESS = const(0x42)  # t (4), key, arg: a guest's press on its own clock

HOST = const(0)  # the host's seat; guests get 1..4
NO_SEAT = const(0x0F)
VERSION = const(1)

HEADER = const(5)  # seat, type, seq, ack, length
MAX_PAYLOAD = const(200)  # a CSLOG line (the longest, a deck, is 160 bytes)
BODY_MAX = const(207)  # HEADER + MAX_PAYLOAD + 2 (CRC)
FRAME_MAX = const(415)  # START + every body byte escaped

_CRC_NIBBLE = (0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
               0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF)


def crc16_byte(crc, b):
    """CRC-16/CCITT-FALSE of ``crc`` followed by byte ``b``."""
    crc = ((crc << 4) & 0xFFFF) ^ _CRC_NIBBLE[(crc >> 12) ^ (b >> 4)]
    return ((crc << 4) & 0xFFFF) ^ _CRC_NIBBLE[(crc >> 12) ^ (b & 0x0F)]


def crc16(buf, start=0, end=-1, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of ``buf[start:end]`` (``end`` -1: to the end)."""
    if end < 0:
        end = len(buf)
    for i in range(start, end):
        crc = crc16_byte(crc, buf[i])
    return crc


def payload_ok(kind, n):
    """True if a frame of type ``kind`` may carry ``n`` payload bytes."""
    if kind == LOG:
        return 0 < n <= MAX_PAYLOAD
    if kind == ACK or kind == NACK:
        return n == 0
    if kind == SYNC_REQ or kind == SYNC_REP:
        return n == 12
    if kind == WATERMARK or kind == HELLO:
        return n == 4
    if kind == PRESS:
        return n == 6
    if kind == ASSIGN:
        return n == 5
    return False


def _put(out, i, b):
    if b == START or b == ESC:
        out[i] = ESC
        out[i + 1] = b ^ _FLIP
        return i + 2
    out[i] = b
    return i + 1


def encode(out, seat, kind, seq, ack, payload, n, start=0):
    """Write a frame into ``out`` (``FRAME_MAX`` bytes hold any); return its length.

    ``payload[start:start + n]`` is the payload (``payload`` may be None when ``n`` is 0).
    """
    out[0] = START
    crc = crc16_byte(0xFFFF, seat)
    i = _put(out, 1, seat)
    crc = crc16_byte(crc, kind)
    i = _put(out, i, kind)
    crc = crc16_byte(crc, seq)
    i = _put(out, i, seq)
    crc = crc16_byte(crc, ack)
    i = _put(out, i, ack)
    crc = crc16_byte(crc, n)
    i = _put(out, i, n)
    for k in range(start, start + n):
        b = payload[k]
        crc = crc16_byte(crc, b)
        i = _put(out, i, b)
    i = _put(out, i, crc >> 8)
    return _put(out, i, crc & 0xFF)


def put_u32(buf, i, v):
    """Write ``v`` (0 <= v < 2**30) big-endian at ``buf[i:i+4]``."""
    buf[i] = (v >> 24) & 0xFF
    buf[i + 1] = (v >> 16) & 0xFF
    buf[i + 2] = (v >> 8) & 0xFF
    buf[i + 3] = v & 0xFF


def get_u32(buf, i):
    """Read a big-endian value below 2**30 from ``buf[i:i+4]`` (the top 2 bits are dropped)."""
    return ((buf[i] & 0x3F) << 24) | (buf[i + 1] << 16) | (buf[i + 2] << 8) | buf[i + 3]


class Decoder:
    """Bytes in, one at a time; :meth:`feed` is True when a valid frame has just ended.

    The frame is then in ``buf``: header fields as attributes (``seat``, ``kind``,
    ``seq``, ``ack``, ``length``), the payload at ``buf[HEADER:HEADER + length]``,
    valid until the next byte is fed. Counters: ``frames``, ``bad_crc``,
    ``bad_header`` (unknown type or a length it cannot have), ``cut`` (a frame
    interrupted by a ``START``), ``bad_escape``, ``noise`` (bytes outside any frame).
    """

    def __init__(self, buf=None):
        self.buf = buf if buf is not None else bytearray(BODY_MAX)
        self.n = -1  # body bytes of the frame so far; -1: waiting for a START
        self.need = BODY_MAX
        self.escaped = False
        self.crc = 0xFFFF
        self.seat = self.kind = self.seq = self.ack = self.length = 0
        self.frames = self.bad_crc = self.bad_header = self.cut = 0
        self.bad_escape = self.noise = 0

    def feed(self, b):
        """Take one byte; True if it completed a valid frame."""
        if b == START:
            if self.n > 0:
                self.cut += 1
            self.n = 0
            self.need = BODY_MAX
            self.escaped = False
            self.crc = 0xFFFF
            return False
        n = self.n
        if n < 0:
            self.noise += 1
            return False
        if b == ESC:
            self.escaped = True
            return False
        if self.escaped:
            self.escaped = False
            if b != 0x5E and b != 0x5D:  # only START and ESC are ever escaped
                self.bad_escape += 1
                self.n = -1
                return False
            b ^= _FLIP
        buf = self.buf
        buf[n] = b
        n += 1
        self.n = n
        if n <= self.need - 2:
            self.crc = crc16_byte(self.crc, b)
        if n == HEADER:
            length = buf[4]
            if not payload_ok(buf[1], length):
                self.bad_header += 1
                self.n = -1
                return False
            self.need = HEADER + length + 2
            return False
        if n < self.need:
            return False
        self.n = -1
        if self.crc != (buf[n - 2] << 8) | buf[n - 1]:
            self.bad_crc += 1
            return False
        self.seat = buf[0]
        self.kind = buf[1]
        self.seq = buf[2]
        self.ack = buf[3]
        self.length = buf[4]
        self.frames += 1
        return True
