"""``python3 -m tools.cpstack fetch|check|where|install``: the real CircuitPython 10.2.1 stack.

* ``fetch [KEY...]`` (``make cpstack``): put what is missing in the cache (from the
  mirror, else downloaded), check everything; one line per file fetched or wrong.
* ``check [KEY...]``: check what is there, change nothing.
* ``where [KEY...]``: the cache, the mirror and each file; with keys, only their paths.
* ``install KEY FILE``: check FILE and put it in the cache (a file downloaded on another
  machine, or the unix interpreter ``build_unix.sh`` built; the bootrom also as
  pico-bootrom's ``b1.elf``).

Keys: uf2, bootrom, mpy-cross, unix (all when none is named). Exit status 0 when every
file asked for is there and right, 2 otherwise (each problem is one line on stderr).
"""

import argparse
import sys
from pathlib import Path

from tools import cpstack
from tools.cpstack import ARTIFACTS, FETCH, cache_dir, find, mirror_dir
from tools.cpstack.check import CheckError, check
from tools.cpstack.fetch import FetchError, Offline, elf_rom, obtain, place

PROG = "tools.cpstack"


def _fail(message):
    sys.stderr.write("%s: %s\n" % (PROG, message))


def _fetch(keys, quiet):
    bad, offline, reason = 0, [], None
    for key in keys:
        art = ARTIFACTS[key]
        try:
            how, path, said = obtain(art, network=not offline)
        except Offline as err:
            offline.append(art.file)
            reason = reason or str(err)
            continue
        except FetchError as err:
            _fail(err)
            bad += 1
            continue
        if how != "present" or not quiet:
            print("%-10s %-9s %s (%s)" % (how, key, path, said))
    if offline:
        _fail("offline (%s): cannot download %s; run `%s` where there is internet access, "
              "then copy %s to this machine (docs/EMULATOR.md)"
              % (reason, ", ".join(offline), FETCH, cache_dir()))
    return 2 if bad or offline else 0


def _check(keys):
    bad = 0
    for key in keys:
        path = find(key)
        if path is None:
            _fail(cpstack.missing_line(key))
            bad += 1
            continue
        try:
            print("%-10s %-9s %s (%s)" % ("ok", key, path, check(ARTIFACTS[key], path)))
        except CheckError as err:
            _fail("%s is not %s: %s" % (path, ARTIFACTS[key].what, err))
            bad += 1
    return 2 if bad else 0


def _where(keys, named):
    if named:
        for key in keys:
            print(cpstack.path(key))
        return 0
    mirror = mirror_dir()
    print("cache      %s (%s)" % (cache_dir(), cpstack.CACHE_ENV))
    print("mirror     %s (%s)" % (mirror if mirror else "none", cpstack.MIRROR_ENV))
    for key in keys:
        path = find(key)
        print("%-10s %s" % (key, path if path else "missing: `%s`" % ARTIFACTS[key].get))
    return 0


def _install(key, file):
    art = ARTIFACTS[key]
    try:
        data = Path(file).read_bytes()
    except OSError as err:
        _fail("cannot read %s (%s)" % (file, err.strerror or err))
        return 2
    try:
        if art.key == "bootrom" and data[:4] == b"\x7fELF":
            data = elf_rom(data)
        said = place(art, data)
    except CheckError as err:
        _fail("%s is not %s: %s" % (file, art.what, err))
        return 2
    except FetchError as err:
        _fail(err)
        return 2
    print("%-10s %-9s %s (%s)" % ("installed", key, cache_dir() / art.file, said))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m " + PROG,
                                     description="Fetch, check and find the real CircuitPython 10.2.1 "
                                                 "stack (docs/EMULATOR.md).")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="fetch|check|where|install")
    for verb, text in (("fetch", "get what is missing, check everything"),
                       ("check", "check what is there"),
                       ("where", "where everything is")):
        sub = verbs.add_parser(verb, help=text)
        sub.add_argument("keys", nargs="*", metavar="KEY",
                         help="uf2, bootrom, mpy-cross or unix (default: all)")
        if verb == "fetch":
            sub.add_argument("--quiet", action="store_true",
                             help="print only what was fetched and what is wrong")
    sub = verbs.add_parser("install", help="check a file and put it in the cache")
    sub.add_argument("key", choices=list(ARTIFACTS))
    sub.add_argument("file")
    args = parser.parse_args(argv)
    if args.verb == "install":
        return _install(args.key, args.file)
    keys = args.keys or list(ARTIFACTS)
    unknown = [key for key in keys if key not in ARTIFACTS]
    if unknown:
        _fail("no artifact %r (the keys: %s)" % (unknown[0], ", ".join(ARTIFACTS)))
        return 2
    if args.verb == "fetch":
        return _fetch(keys, args.quiet)
    if args.verb == "check":
        return _check(keys)
    return _where(keys, bool(args.keys))


if __name__ == "__main__":
    sys.exit(main())
