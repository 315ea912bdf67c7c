"""The real CircuitPython 10.2.1 stack the project tests on: what it is, where each file is.

Four pinned files, nothing else of the project needs the network:

=========  =========================================  ====================================
key        file                                       from
=========  =========================================  ====================================
uf2        raspberry_pi_pico-circuitpython-10.2.1.uf2 circuitpython.org's 10.2.1 release
                                                      for the Raspberry Pi Pico, en_US
bootrom    rp2040-bootrom-b1.bin                      Raspberry Pi's pico-bootrom, tag b1
mpy-cross  mpy-cross-10.2.1-x86_64                    CircuitPython's released mpy-cross
unix       circuitpython-unix-10.2.1-i386             built from the 10.2.1 source
                                                      (``make cpstack-unix``)
=========  =========================================  ====================================

``python3 -m tools.cpstack fetch|check|where|install`` (``make cpstack``) manages them;
every other tool and test asks :func:`path` and :func:`missing_line` here.

Implementation Notes
--------------------

* Kept in the cache folder ``$CSPEED_CIRCUITPYTHON``, else
  ``${XDG_CACHE_HOME:-~/.cache}/california-speed/circuitpython-10.2.1``. A local mirror
  laid out the same way (``../shared/circuitpython/`` beside the checkout, or
  ``$CSPEED_CIRCUITPYTHON_MIRROR``; empty: none) is looked in after the cache, and
  ``fetch`` copies from it (checked) before it downloads anything.
* How each is checked (:mod:`.check`): the bootrom by its SHA-256 (a mask ROM: every
  copy is the same bytes); the UF2 by its UF2 blocks (RP2040 family, none missing) and
  the version, banner and board id CircuitPython builds into it; ``mpy-cross`` by its
  ``--version``; the interpreter by its ``sys.implementation`` and 32-bit word size.
  Builds of the same release differ in their build date, so they have no common hash.
* Lookups here only test that the file is there (and executable where it must be):
  they run at import time in many tools. The full check runs on ``fetch``, ``check``
  and ``install``.
* Standard library only: ``tools.deploy`` uses it and needs nothing but python3.
"""

import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VERSION = "10.2.1"
CACHE_ENV = "CSPEED_CIRCUITPYTHON"
MIRROR_ENV = "CSPEED_CIRCUITPYTHON_MIRROR"
DEFAULT_MIRROR = ROOT.parent / "shared" / "circuitpython"
FETCH = "make cpstack"
# How the firmware is compiled for the board: -O3 leaves out the line-number tables
# (about 7 % of the bytecode, which the heap holds: 2.6 KB more free after build on a
# Pico). A traceback then names the function and its .mpy, not the line; deploy
# with ``--py`` to get line numbers back.
MPY_CROSS_FLAGS = ("-O3",)
BUILD = "make cpstack-unix"
RP2040JS_COMMIT = "7701ee065f50a04380f81361befd754810cb9e28"  # its demo/bootrom.ts is B1


@dataclass(frozen=True)
class Artifact:
    """One pinned file: what it is, where it comes from, how it is known to be right."""

    key: str
    file: str  # its name in the cache and in the mirror
    what: str
    sources: tuple = ()  # (url, unpack name or None), tried in order
    sha256: str = None  # where the bytes themselves are reproducible
    executable: bool = False
    get: str = FETCH  # the command that puts it in the cache


ARTIFACTS = {a.key: a for a in (
    Artifact(
        "uf2", "raspberry_pi_pico-circuitpython-%s.uf2" % VERSION,
        "CircuitPython %s for the Raspberry Pi Pico, en_US" % VERSION,
        sources=tuple((base + "/bin/raspberry_pi_pico/en_US/adafruit-circuitpython-"
                       "raspberry_pi_pico-en_US-%s.uf2" % VERSION, None)
                      for base in ("https://downloads.circuitpython.org",
                                   "https://adafruit-circuit-python.s3.amazonaws.com"))),
    Artifact(
        "bootrom", "rp2040-bootrom-b1.bin", "the RP2040's B1 mask ROM",
        sources=(("https://github.com/raspberrypi/pico-bootrom/releases/download/b1/b1.elf",
                  "elf_rom"),
                 ("https://raw.githubusercontent.com/wokwi/rp2040js/%s/demo/bootrom.ts"
                  % RP2040JS_COMMIT, "ts_words")),
        sha256="90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"),
    Artifact(
        "mpy-cross", "mpy-cross-%s-x86_64" % VERSION,
        "CircuitPython's mpy-cross %s for x86-64 Linux" % VERSION,
        sources=(("https://adafruit-circuit-python.s3.amazonaws.com/bin/mpy-cross/linux-amd64/"
                  "mpy-cross-linux-amd64-%s.static" % VERSION, None),),
        executable=True),
    Artifact(
        "unix", "circuitpython-unix-%s-i386" % VERSION,
        "CircuitPython %s's unix interpreter, 32-bit" % VERSION,
        executable=True, get=BUILD),
)}


def cache_dir():
    """The folder the artifacts are fetched into."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "california-speed" / ("circuitpython-" + VERSION)


def mirror_dir():
    """The local mirror (a folder laid out as the cache), or None."""
    if MIRROR_ENV in os.environ:
        return Path(os.environ[MIRROR_ENV]).expanduser() if os.environ[MIRROR_ENV] else None
    return DEFAULT_MIRROR


def usable(path, artifact):
    """True if ``path`` is a file (an executable one where the artifact must run)."""
    path = Path(path)
    return path.is_file() and (not artifact.executable or os.access(path, os.X_OK))


def find(key):
    """The artifact's file, from the cache, else from the mirror; None if neither has it."""
    art = ARTIFACTS[key]
    for folder in (cache_dir(), mirror_dir()):
        if folder is not None and usable(folder / art.file, art):
            return folder / art.file
    return None


def path(key):
    """Where the artifact is, or where ``fetch`` will put it."""
    return find(key) or cache_dir() / ARTIFACTS[key].file


def missing_line(key):
    """The one line saying the artifact is missing and which command gets it."""
    art = ARTIFACTS[key]
    how = ("fetch it into %s" % cache_dir() if art.get == FETCH else
           "build it from the CircuitPython %s source into %s; needs git and gcc-multilib"
           % (VERSION, cache_dir()))
    return "%s (%s) is missing: run `%s` (%s)" % (art.file, art.what, art.get, how)


def missing(*keys):
    """The missing line of the first of ``keys`` not found, or None if all are there."""
    for key in keys:
        if find(key) is None:
            return missing_line(key)
    return None
