"""hw.link.frame: frames survive the wire, damaged ones never pass as good ones."""

import random

from hypothesis import given, settings, strategies as st

from hw.link import frame as fr

FIXED = {fr._HELLO: 4, fr._ASSIGN: 5, fr._ACK: 0, fr._NACK: 0, fr._SYNC_REQ: 12, fr._SYNC_REP: 12,
         fr._WATERMARK: 4, fr.PRESS: 6}
KINDS = sorted(FIXED) + [fr._LOG]


@st.composite
def frames(draw):
    """(seat, kind, seq, ack, payload) of a valid frame; bytes that need escaping are likely."""
    kind = draw(st.sampled_from(KINDS))
    n = FIXED[kind] if kind in FIXED else draw(st.integers(1, fr._MAX_PAYLOAD))
    byte = st.one_of(st.sampled_from([fr.START, fr._ESC, 0x5E, 0x5D]), st.integers(0, 255))
    payload = bytes(draw(st.lists(byte, min_size=n, max_size=n)))
    return (draw(st.integers(0, 255)), kind, draw(st.integers(0, 255)), draw(st.integers(0, 255)),
            payload)


def encoded(f):
    seat, kind, seq, ack, payload = f
    out = bytearray(fr._FRAME_MAX)
    n = fr.encode(out, seat, kind, seq, ack, payload, len(payload))
    return bytes(out[:n])


def decode_all(data, dec=None, chunk=None):
    """Every frame the decoder accepts from ``data``, as (seat, kind, seq, ack, payload).

    ``chunk``: scan that many bytes at a time (None: all at once), as reads come.
    """
    dec = dec or fr.Decoder()
    got = []
    chunk = chunk or max(1, len(data))
    for at in range(0, len(data), chunk):
        piece = data[at:at + chunk]
        i = 0
        while i < len(piece):
            i = dec.scan(piece, i, len(piece))
            if i < 0:
                break
            got.append((dec.seat, dec.kind, dec.seq, dec.ack,
                        bytes(dec.buf[fr._HEADER:fr._HEADER + dec.length])))
    return got


def crc16_reference(data):
    """CRC-16/CCITT-FALSE, bit by bit."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021 if crc & 0x8000 else crc << 1) & 0xFFFF
    return crc


def unstuff(data):
    """The body of one encoded frame (after START, escapes undone)."""
    out, esc = bytearray(), False
    for b in data[1:]:
        if b == fr._ESC:
            esc = True
            continue
        out.append(b ^ 0x20 if esc else b)
        esc = False
    return bytes(out)


def test_the_crc_is_ccitt_false():
    assert crc16_reference(b"123456789") == 0x29B1
    body = unstuff(encoded((0x10, fr._LOG, 1, 2, bytes(range(256))[:fr._MAX_PAYLOAD])))
    assert int.from_bytes(body[-2:], "big") == crc16_reference(body[:-2])


@settings(max_examples=300, deadline=None)
@given(frames())
def test_a_frame_round_trips_and_its_start_byte_is_never_inside(f):
    data = encoded(f)
    assert data[0] == fr.START and fr.START not in data[1:]
    assert len(data) <= fr._FRAME_MAX
    assert decode_all(data) == [f] == decode_all(data, chunk=1) == decode_all(data, chunk=5)
    body = unstuff(data)
    assert int.from_bytes(body[-2:], "big") == crc16_reference(body[:-2])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), frames())
def test_the_decoder_resynchronises_after_any_garbage(garbage, f):
    dec = fr.Decoder()
    decode_all(garbage, dec)
    assert decode_all(encoded(f), dec) == [f]


def test_a_start_byte_right_after_an_escape_still_starts_a_frame():
    f = (0x10, fr.PRESS, 1, 2, bytes(6))
    for garbage in (bytes([fr.START, fr._ESC]), bytes([fr.START, 1, 2, fr._ESC])):
        assert decode_all(garbage + encoded(f)) == [f]
        assert decode_all(garbage + encoded(f), chunk=1) == [f]


def test_a_frame_can_use_a_payload_from_inside_a_bigger_buffer():
    store = bytearray(b"xxxxpress 1 A 3yyyy")
    out = bytearray(fr._FRAME_MAX)
    n = fr.encode(out, 0x01, fr._LOG, 7, 9, store, 11, 4)
    assert decode_all(out[:n]) == [(0x01, fr._LOG, 7, 9, b"press 1 A 3")]


def test_types_and_lengths_are_checked_before_the_crc():
    dec = fr.Decoder()
    bad = bytearray(fr._FRAME_MAX)
    for kind, n in ((0x09, 4), (fr.PRESS, 5), (fr._LOG, 0), (fr._ACK, 1)):
        size = fr.encode(bad, 0x01, kind, 0, 0, bytes(n), n)
        assert decode_all(bad[:size], dec) == []
    assert dec.stats[fr._BAD_HEADER] == 4 and dec.stats[fr._BAD_CRC] == 0 and dec.frames == 0


def test_counters_say_what_went_wrong():
    dec = fr.Decoder()
    good = encoded((0x10, fr._WATERMARK, 3, 4, b"\x00\x01\x02\x03"))
    damaged = bytearray(good)
    damaged[7] ^= 0x04
    stream = b"noise" + bytes(damaged) + good[:6] + good + bytes([fr.START, fr._ESC, 0x11])
    assert len(decode_all(stream, dec)) == 1
    stats = dec.stats
    assert stats[fr._NOISE] == 5 and stats[fr._BAD_CRC] == 1
    assert stats[fr._CUT] == 1 and stats[fr._BAD_ESCAPE] == 1


def damage(rng, data, ops):
    """``data`` with ``ops`` random flips, drops, duplicates and insertions; the touched indices."""
    out = list(data)
    marks = [False] * len(out)  # per byte: damaged, or next to a damage
    for _ in range(ops):
        if not out:
            break
        i = rng.randrange(len(out))
        op = rng.randrange(4)
        if op == 0:
            out[i] ^= 1 << rng.randrange(8)
            marks[i] = True
        elif op == 1:
            del out[i]
            del marks[i]
            if i < len(marks):
                marks[i] = True
            if i:
                marks[i - 1] = True
        elif op == 2:
            out.insert(i, out[i])
            marks.insert(i, True)
            marks[i + 1] = True
        else:
            junk = [rng.randrange(256) for _ in range(rng.randrange(1, 6))]
            out[i:i] = junk
            marks[i:i] = [True] * len(junk)
    return bytes(out), marks


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(frames(), min_size=1, max_size=12), st.integers(0, 2**32 - 1),
       st.integers(1, 12))
def test_damage_never_yields_a_wrong_frame_and_spares_the_untouched_ones(sent, seed, ops):
    # derandomize: a 16-bit CRC lets about 1 in 2**16 damaged frames through (fewer with
    # the type and length checks): random examples would make this test flaky, fixed
    # ones prove the mechanism; the rate is measured in test_false_accepts_are_rare.
    rng = random.Random(seed)
    pieces = [encoded(f) for f in sent]
    data, marks = damage(rng, b"".join(pieces), ops)
    got = decode_all(data)
    # every accepted frame was sent, and they come in the order sent
    it = iter(sent)
    assert all(any(g == s for s in it) for g in got), (sent, got)
    # every frame whose bytes were all left alone is accepted (damage keeps the order,
    # so look for each one after the last found)
    intact = pos = 0
    for piece in pieces:
        at = data.find(piece, pos)
        while at >= 0 and any(marks[at:at + len(piece)]):
            at = data.find(piece, at + 1)
        if at >= 0:
            intact += 1
            pos = at + len(piece)
    assert len(got) >= intact


def test_false_accepts_are_rare():
    """Random damage to 20,000 frames: none is accepted changed (expected well below 1)."""
    rng = random.Random(7)
    wrong = damaged = 0
    for _ in range(20000):
        kind = rng.choice(KINDS)
        n = FIXED.get(kind, rng.randrange(1, 40))
        f = (rng.randrange(256), kind, rng.randrange(256), rng.randrange(256),
             bytes(rng.randrange(256) for _ in range(n)))
        data, _ = damage(rng, encoded(f), rng.randrange(1, 4))
        if data == encoded(f):
            continue
        damaged += 1
        wrong += sum(1 for g in decode_all(data) if g != f)
    assert damaged > 15000 and wrong == 0
