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
bytes a buffer at a time (:meth:`Decoder.scan`: one loop, as a call per byte would cost
the device more than the decoding) and stops when a whole, valid frame is in its buffer. A receiver
resynchronises at the next ``START`` whatever came before it: a frame cut short,
damaged or of an unknown type or length is dropped and counted.

Implementation Notes
--------------------

CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF; ``crc16(b"123456789") ==
0x29B1``), a nibble at a time from a 16-entry table, every intermediate a small int. It detects every error of up to 3 bits and every burst of up to 16
bits in a frame; a frame damaged otherwise passes with odds of about 1 in 65536, and
the decoder's checks of type and length (a fixed length per type) cut those further.
Nothing here allocates after construction.
"""

from engine.compat import const

START = const(0x7E)
_ESC = const(0x7D)
_FLIP = const(0x20)

# Frame types. RELIABLE ones are numbered, acknowledged and resent until acknowledged.
_RELIABLE = const(0x40)
_HELLO = const(0x01)  # role, version, nonce (2): "here I am", while not linked
_ASSIGN = const(0x02)  # seat, guest nonce (2), host nonce (2): the host gives a seat
_ACK = const(0x03)  # nothing: the header's ack field says it (also a heartbeat)
_NACK = const(0x04)  # nothing: "resend from the header's ack field"
_SYNC_REQ = const(0x05)  # t1 (4), 8 zero bytes: as long as the reply, so both take as long
_SYNC_REP = const(0x06)  # t1, t2, t3 (4 each)
_WATERMARK = const(0x07)  # t (4): every press stamped up to t was sent before this frame
_LOG = const(0x41)  # whole CSLOG 1 lines, each with its newline (host -> guests)
PRESS = const(0x42)  # t (4), key, arg: a guest's press on its own clock

_HOST = const(0)  # the host's seat; guests get 1..4
_NO_SEAT = const(0x0F)
VERSION = const(2)  # 2: a LOG frame carries whole lines (1: one, no newline)

_HEADER = const(5)  # seat, type, seq, ack, length
_MAX_PAYLOAD = const(200)  # a CSLOG line (the longest, a deck, is 160 bytes)
_BODY_MAX = const(207)  # _HEADER + _MAX_PAYLOAD + 2 (CRC)
_FRAME_MAX = const(415)  # START + every body byte escaped
# Decoder.stats
_BAD_CRC = const(0)
_BAD_HEADER = const(1)
_CUT = const(2)
_BAD_ESCAPE = const(3)
_NOISE = const(4)

# CRC-16/CCITT-FALSE, a table entry per nibble (16 small ints; the 256-entry byte
# table took 592 B of heap for 10 us less per byte on the device: docs/LINK.md). Entry
# i is nibble i shifted through the polynomial 0x1021, which for four bits is i * 0x1021
# (tests/test_link_frames.py checks it against the bitwise CRC).
# A folded tuple: no global, no array, no interned name for either.
_CRC = const((0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50A5, 0x60C6, 0x70E7,
              0x8108, 0x9129, 0xA14A, 0xB16B, 0xC18C, 0xD1AD, 0xE1CE, 0xF1EF))

_HDR = bytearray(_HEADER)  # encode's header, before stuffing


def encode(out, seat, kind, seq, ack, payload, n, start=0):
    """Write a frame into ``out`` (``FRAME_MAX`` bytes hold any); return its length.

    ``payload[start:start + n]`` is the payload (``payload`` may be None when ``n`` is 0).
    """
    hdr = _HDR
    hdr[0] = seat
    hdr[1] = kind
    hdr[2] = seq
    hdr[3] = ack
    hdr[4] = n
    table = _CRC
    crc = 0xFFFF
    out[0] = START
    j = 1
    for k in range(_HEADER):
        b = hdr[k]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b & 15)]
        if b == START or b == _ESC:
            out[j] = _ESC
            b ^= _FLIP
            j += 1
        out[j] = b
        j += 1
    for k in range(start, start + n):
        b = payload[k]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b & 15)]
        if b == START or b == _ESC:
            out[j] = _ESC
            b ^= _FLIP
            j += 1
        out[j] = b
        j += 1
    hdr[0] = crc >> 8
    hdr[1] = crc & 0xFF
    for k in range(2):
        b = hdr[k]
        if b == START or b == _ESC:
            out[j] = _ESC
            b ^= _FLIP
            j += 1
        out[j] = b
        j += 1
    return j


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
    """Bytes in; :meth:`scan` stops after each valid frame.

    The frame is then in ``buf``: header fields as attributes (``seat``, ``kind``,
    ``seq``, ``ack``, ``length``), the payload at ``buf[_HEADER:_HEADER + length]``,
    valid until the next scan. Counters: ``frames``, and in ``stats`` (one list, not
    an attribute each: each name would be interned on the device) ``stats[_BAD_CRC]``,
    ``[_BAD_HEADER]`` (unknown type or a length it cannot have), ``[_CUT]`` (a frame
    interrupted by a ``START``), ``[_BAD_ESCAPE]``, ``[_NOISE]`` (bytes outside any frame).
    """

    def __init__(self, buf=None):
        self.buf = buf if buf is not None else bytearray(_BODY_MAX)
        self.n = -1  # body bytes of the frame so far; -1: waiting for a START
        self.need = _BODY_MAX
        self.escaped = False
        self.crc = 0xFFFF
        self.seat = self.kind = self.seq = self.ack = self.length = 0
        self.frames = 0
        self.stats = [0] * 5

    def scan(self, src, i, end):
        """Decode ``src[i:end]`` up to the end of the next valid frame.

        Returns the index after that frame's last byte, or -1 when every byte was taken
        without completing one.
        """
        buf = self.buf
        table = _CRC
        n = self.n
        need = self.need
        crc = self.crc
        escaped = self.escaped
        while i < end:
            b = src[i]
            i += 1
            if b == START:
                if n > 0:
                    self.stats[_CUT] += 1
                n = 0
                need = _BODY_MAX
                escaped = False
                crc = 0xFFFF
                continue
            if n < 0:
                self.stats[_NOISE] += 1
                continue
            if b == _ESC:
                escaped = True
                continue
            if escaped:
                escaped = False
                if b != 0x5E and b != 0x5D:  # only START and _ESC are ever escaped
                    self.stats[_BAD_ESCAPE] += 1
                    n = -1
                    continue
                b ^= _FLIP
            buf[n] = b
            n += 1
            if n <= need - 2:
                crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b >> 4)]
                crc = ((crc << 4) & 0xFFFF) ^ table[(crc >> 12) ^ (b & 15)]
                if n == _HEADER:  # a known type, with a length it may have?
                    kind = buf[1]
                    size = buf[4]
                    if kind == _LOG:
                        ok = 0 < size <= _MAX_PAYLOAD
                    elif kind == _ACK or kind == _NACK:
                        ok = size == 0
                    elif kind == _SYNC_REQ or kind == _SYNC_REP:
                        ok = size == 12
                    elif kind == _WATERMARK or kind == _HELLO:
                        ok = size == 4
                    elif kind == PRESS:
                        ok = size == 6
                    else:
                        ok = kind == _ASSIGN and size == 5
                    if not ok:
                        self.stats[_BAD_HEADER] += 1
                        n = -1
                        continue
                    need = _HEADER + size + 2
                continue
            if n < need:
                continue
            n = -1
            if crc != (buf[need - 2] << 8) | buf[need - 1]:
                self.stats[_BAD_CRC] += 1
                continue
            self.n = -1
            self.escaped = False
            self.seat = buf[0]
            self.kind = buf[1]
            self.seq = buf[2]
            self.ack = buf[3]
            self.length = buf[4]
            self.frames += 1
            return i
        self.n = n
        self.need = need
        self.crc = crc
        self.escaped = escaped
        return -1

