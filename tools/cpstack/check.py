"""Is this file the pinned artifact? One check per kind; a wrong file gets one line saying why.

:func:`check` returns a short description of what the file was found to be
(``CircuitPython 10.2.1, Raspberry Pi Pico with rp2040, 3651 UF2 blocks``) or raises
:class:`CheckError`.

Implementation Notes
--------------------

* UF2 (Microsoft's format, as ``tools/uf2`` writes it): 512-byte blocks, three magic
  words, block numbers 0..N-1 each stating N, the RP2040 family id in every block.
  The payloads, joined, hold ``Adafruit CircuitPython <version> on <date>; <board>
  with <mcu>`` (the REPL banner) and the board id as a C string (``boot_out.txt``'s
  ``Board ID``); a Pico W build says "Pico W" and ``raspberry_pi_pico_w``.
* ``mpy-cross --version`` prints ``CircuitPython <version> on <date>; mpy-cross
  emitting mpy v6.3``: the release's own mpy format, which CircuitPython 10 loads.
* The interpreter must be the 32-bit build (``sys.maxsize`` 2**31-1: small ints as on
  the board) with single-precision floats (``float('1.0000001') == 1.0``).
* Programs are run with a 10 s timeout: a wrong binary must not hang ``make test``.
"""

import hashlib
import re
import struct
import subprocess

from tools.cpstack import VERSION

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_PRESENT = 0x2000
RP2040_FAMILY = 0xE48BFF56
BOARD, MCU, BOARD_ID = "Raspberry Pi Pico", "rp2040", b"raspberry_pi_pico"
MPY = "v6.3"
ROM_SIZE = 16384
RUN_TIMEOUT_S = 10


class CheckError(Exception):
    """The file is not the artifact (the message says why, in one line)."""


def uf2_image(data):
    """The payloads of a UF2 file's blocks, joined; raise CheckError unless whole and RP2040."""
    if not data or len(data) % 512:
        raise CheckError("not a UF2 file (%d bytes is not a whole number of 512-byte blocks)"
                         % len(data))
    parts, total = [], None
    for number, at in enumerate(range(0, len(data), 512)):
        head = struct.unpack_from("<8I", data, at)
        magic = (head[0], head[1], struct.unpack_from("<I", data, at + 508)[0])
        flags, size, block, blocks, family = head[2], head[4], head[5], head[6], head[7]
        if magic != UF2_MAGIC or size > 476:
            raise CheckError("block %d is not a UF2 block" % number)
        if not flags & UF2_FAMILY_PRESENT or family != RP2040_FAMILY:
            raise CheckError("block %d is not for an RP2040 (family 0x%08x)" % (number, family))
        if block != number or blocks != (total or blocks):
            raise CheckError("block %d is numbered %d of %d" % (number, block, blocks))
        total = blocks
        parts.append(data[at + 32:at + 32 + size])
    if len(parts) != total:
        raise CheckError("truncated: %d of its %d UF2 blocks" % (len(parts), total))
    return b"".join(parts)


def check_uf2(path):
    data = path.read_bytes()
    image = uf2_image(data)
    banner = re.search(rb"Adafruit CircuitPython ([^ \x00]+) on [^;\x00]+; ([^\x00]+?) with "
                       rb"([^\x00\s]+)\x00", image)
    if banner is None:
        raise CheckError("no CircuitPython banner inside: not a CircuitPython UF2")
    version, board, mcu = (g.decode("utf-8", "replace") for g in banner.groups())
    if version != VERSION:
        raise CheckError("it is CircuitPython %s, not %s" % (version, VERSION))
    if (board, mcu) != (BOARD, MCU) or b"\x00" + BOARD_ID + b"\x00" not in image:
        raise CheckError("it is for the %s with %s, not the %s" % (board, mcu, BOARD))
    return "CircuitPython %s, %s with %s, %d UF2 blocks" % (
        version, board, mcu, len(data) // 512)


def check_sha256(path, artifact):
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != artifact.sha256:
        raise CheckError("SHA-256 %s... is not the pinned %s... (%d bytes)"
                         % (digest[:16], artifact.sha256[:16], len(data)))
    return "%d bytes, SHA-256 %s..." % (len(data), digest[:16])


def _run(path, *args):
    try:
        done = subprocess.run([str(path), *args], capture_output=True, text=True,
                              errors="replace", timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise CheckError("it did not answer within %d s" % RUN_TIMEOUT_S) from None
    except OSError as err:
        raise CheckError("it cannot run here (%s)" % (err.strerror or err)) from None
    if done.returncode != 0:
        raise CheckError("it exits %d: %s" % (done.returncode, (done.stderr or done.stdout)
                                              .strip().replace("\n", " ")[:120]))
    return done.stdout.strip()


def check_mpy_cross(path):
    said = _run(path, "--version")
    found = re.match(r"CircuitPython (\S+) on \S+; mpy-cross emitting mpy (\S+)$", said)
    if found is None:
        raise CheckError("its --version says %r: not CircuitPython's mpy-cross" % said[:80])
    if found.groups() != (VERSION, MPY):
        raise CheckError("it is CircuitPython %s's mpy-cross (mpy %s), not %s's (mpy %s)"
                         % (found.group(1), found.group(2), VERSION, MPY))
    return said


PROBE = ("import sys; i = sys.implementation; "
         "print(i.name, '%d.%d.%d' % i.version[:3], sys.maxsize, float('1.0000001') == 1.0)")


def check_unix(path):
    said = _run(path, "-c", PROBE)
    want = "circuitpython %s %d True" % (VERSION, 2**31 - 1)
    if said != want:
        raise CheckError("it says %r (name, version, sys.maxsize, float32), not %r"
                         % (said[:80], want))
    return "CircuitPython %s, 32-bit, float32" % VERSION


def check(artifact, path):
    """Describe ``path`` if it is ``artifact``; raise CheckError if not."""
    if artifact.sha256:
        return check_sha256(path, artifact)
    return {"uf2": check_uf2, "mpy-cross": check_mpy_cross, "unix": check_unix}[artifact.key](path)
