"""Put a checked copy of each artifact in the cache: from the cache itself, the mirror, or the web.

:func:`obtain` returns what it did (``present``, ``copied`` from the mirror,
``downloaded``), the path and :func:`tools.cpstack.check.check`'s description, or
raises :class:`FetchError` (one line) -- :class:`Offline` when the network itself
cannot be reached, so the caller stops trying and says so once.

Implementation Notes
--------------------

* Nothing is ever half there: the bytes go to a ``.part`` file beside the target
  (named by process id, so parallel runs do not collide), are checked, and only then
  renamed over the target. A cached copy that fails its check is deleted.
* The files are small (2 MB at most): each is read whole into memory.
* Sources are tried in order; an HTTP error or a file that fails its check moves on
  to the next. Unpackers turn a source into the artifact's bytes: the bootrom comes
  from pico-bootrom's release ELF (its load segments below 16 KB, at their load
  addresses) or from rp2040js's demo ``bootrom.ts`` (the same ROM as 32-bit words).
* ``urllib`` from the standard library, 60 s timeout, no retries.
"""

import os
import re
import struct
import urllib.error
import urllib.parse
import urllib.request
from http.client import HTTPException

from tools.cpstack import CACHE_ENV, cache_dir, missing_line, mirror_dir
from tools.cpstack.check import ROM_SIZE, CheckError, check

TIMEOUT_S = 60
USER_AGENT = "california-speed-cpstack/1 (python urllib)"


class FetchError(Exception):
    """The artifact could not be put in the cache (one line)."""


class Offline(FetchError):
    """The network cannot be reached (no answer at all, not an HTTP error)."""


def elf_rom(data):
    """The mask ROM image from a 32-bit little-endian ELF: its load segments below ROM_SIZE."""
    if data[:4] != b"\x7fELF" or data[4:6] != b"\x01\x01":
        raise CheckError("not a 32-bit little-endian ELF file")
    phoff, = struct.unpack_from("<I", data, 28)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    rom, loaded = bytearray(ROM_SIZE), 0
    for i in range(phnum):
        kind, offset, _vaddr, paddr, filesz = struct.unpack_from("<5I", data, phoff + i * phentsize)
        if kind == 1 and filesz and paddr < ROM_SIZE:  # PT_LOAD, placed in the ROM
            if paddr + filesz > ROM_SIZE or offset + filesz > len(data):
                raise CheckError("a load segment runs past the ROM or the file")
            rom[paddr:paddr + filesz] = data[offset:offset + filesz]
            loaded += filesz
    if not loaded:
        raise CheckError("no load segment at the ROM's addresses")
    return bytes(rom)


def ts_words(data):
    """The bytes of the first ``Uint32Array([...])`` in a TypeScript file (little-endian)."""
    body = re.search(rb"Uint32Array\(\[([^\]]*)\]", data)
    if body is None:
        raise CheckError("no Uint32Array([...]) in it")
    words = [int(w, 16) for w in re.findall(rb"0x([0-9a-fA-F]{1,8})", body.group(1))]
    return struct.pack("<%dI" % len(words), *words)


UNPACK = {"elf_rom": elf_rom, "ts_words": ts_words}


def download(url):
    """The body at ``url``; FetchError for an HTTP error or a broken transfer, Offline if unreachable."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            return answer.read()
    except urllib.error.HTTPError as err:
        raise FetchError("HTTP %d from %s" % (err.code, url)) from None
    except urllib.error.URLError as err:
        reason = getattr(err.reason, "strerror", None) or err.reason
        raise Offline("%s: %s" % (urllib.parse.urlparse(url).netloc, reason)) from None
    except (OSError, HTTPException) as err:
        raise FetchError("the download from %s broke off (%s)" % (url, err)) from None


def place(artifact, data):
    """Check ``data`` as ``artifact`` and make it the cached file; return the check's description."""
    folder = cache_dir()
    target = folder / artifact.file
    part = folder / (".%s.%d.part" % (artifact.file, os.getpid()))
    try:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            part.write_bytes(data)
            part.chmod(0o755 if artifact.executable else 0o644)
        except OSError as err:
            raise FetchError("cannot write in %s (%s): set %s to a folder you can write"
                             % (folder, err.strerror or err, CACHE_ENV)) from None
        said = check(artifact, part)
        os.replace(part, target)
        return said
    finally:
        if part.exists():
            part.unlink()


def obtain(artifact, network=True):
    """Make sure the cache holds a checked ``artifact``: ``(how, path, description)``."""
    target = cache_dir() / artifact.file
    notes = []
    if target.is_file():
        try:
            return "present", target, check(artifact, target)
        except CheckError as err:
            notes.append("the cached copy failed its check (%s) and was removed" % err)
            target.unlink(missing_ok=True)  # another process may have removed it first
    mirror = mirror_dir()
    if mirror is not None and (mirror / artifact.file).is_file():
        try:
            return "copied", target, place(artifact, (mirror / artifact.file).read_bytes())
        except (CheckError, OSError) as err:
            notes.append("the mirror's copy (%s) fails its check (%s)" % (mirror / artifact.file, err))
    if not artifact.sources:
        raise FetchError("; ".join([missing_line(artifact.key)] + notes))
    if not network:
        raise Offline("not tried")
    for url, unpack in artifact.sources:
        try:
            data = download(url)
        except Offline:
            raise
        except FetchError as err:
            notes.append(str(err))
            continue
        try:
            return "downloaded", target, place(artifact, UNPACK[unpack](data) if unpack else data)
        except CheckError as err:
            notes.append("what %s sent fails its check (%s)" % (url, err))
    raise FetchError("%s: %s" % (artifact.file, "; ".join(notes)))
