"""One rule for what every tool takes on its command line: numbers and output paths.

Every tool parses its arguments with :class:`Parser`, takes its numbers through
:class:`Number` (an argparse ``type=``) and checks the files and folders it will
write with :func:`output_file` and :func:`output_folder` before it does any work,
so a bad argument costs one line on stderr and exit status 2, never a traceback
and never a run thrown away at its end.

Implementation Notes
--------------------

**Numbers.** A :class:`Number` is a whole number (``kind=int``) or a plain
decimal (``kind=float``, ``2.5``), written in ASCII digits with an optional
leading ``-``, finite and in the closed range ``[low, high]``; the range is added
to the option's ``--help`` by :class:`Parser`. Everything else is refused with one
line naming the range: ``inf``, ``nan``, ``-1`` (when ``low`` is 0), ``1e3``,
``0x10``, ``1_000``, ``+5``, Arabic-Indic or full-width digits (CPython's ``int``
and ``float`` read those; the tools do not). The same objects parse numbers
outside argparse (``tools.hil``'s ``# hil seconds=``, ``tools.simulate``'s
``normal*1.5``) with :meth:`Number.parse`.

**Outputs.** :func:`output_file` accepts a regular file that can be opened for
writing (it is opened for appending and closed: nothing changes) or a new file in
a folder where one can be created (it is created and removed again, and so are the
folders it had to make for it: the tool makes them when it writes, so a refused
command line leaves nothing behind). A folder, a FIFO (opening one for writing
blocks until a reader comes), a device (``/dev/full``, ``/dev/null``), a socket,
a read-only or full file system, a missing permission, a wrong extension
(``--gif out.txt``) are refused with one line. A disk can still fill up during a
run: each tool turns that ``OSError`` into one line too (:func:`why`).
"""

import argparse
import errno
import math
import os
import re
import stat
import sys

SECONDS_MAX = 7 * 24 * 3600  # any tool's run length: a week
SEED_MAX = (1 << 30) - 1  # LOG.md's seed range, 0 <= N < 2**30
JOBS_MAX = 256
_WHOLE = re.compile(r"-?[0-9]+\Z")
_DECIMAL = re.compile(r"-?([0-9]+(\.[0-9]*)?|\.[0-9]+)\Z")
_BLANKS = " \t"


class Number:
    """An argparse ``type=``: a finite number of ``kind`` in ``[low, high]``.

    ``unit`` (``"s"``, ``"ms"``) is only for messages and ``--help``.
    """

    def __init__(self, kind, low, high, unit=""):
        self.kind = kind
        self.low = low
        self.high = high
        self.unit = unit
        self.__name__ = "number"  # argparse names the type in some of its messages

    def describe(self):
        """``a whole number from 1 to 256`` (what :meth:`parse` accepts)."""
        what = "a whole number" if self.kind is int else "a number"
        unit = " %s" % self.unit if self.unit else ""
        return "%s from %s to %s%s" % (what, _plain(self.low), _plain(self.high), unit)

    def range_text(self):
        """``1-256`` or ``0-604800 s``, for ``--help``."""
        unit = " %s" % self.unit if self.unit else ""
        return "%s-%s%s" % (_plain(self.low), _plain(self.high), unit)

    def parse(self, text, name=None):
        """Return ``text`` as a number in range; raise ``ValueError`` naming ``name``."""
        raw = str(text)
        body = raw.strip(_BLANKS)
        pattern = _WHOLE if self.kind is int else _DECIMAL
        value = None
        if len(body) <= 40 and pattern.match(body):
            value = self.kind(body)
            if not math.isfinite(value) or not self.low <= value <= self.high:
                value = None
        if value is None:
            shown = raw if len(raw) <= 24 else raw[:21] + "..."
            raise ValueError("%smust be %s, not %r" % ("%s " % name if name else "",
                                                        self.describe(), shown))
        return value

    def __call__(self, text):
        try:
            return self.parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None


def _plain(value):
    return "%d" % value if value == int(value) else "%g" % value


def seconds(high=SECONDS_MAX, low=0):
    """A run length in seconds (decimals allowed)."""
    return Number(float, low, high, "s")


def whole(low, high, unit=""):
    """A whole number (a count, ms, a seed)."""
    return Number(int, low, high, unit)


SEED = whole(0, SEED_MAX)
JOBS = whole(1, JOBS_MAX)


class HelpFormatter(argparse.HelpFormatter):
    """Adds each :class:`Number` option's range to its help."""

    def _get_help_string(self, action):
        text = action.help or ""
        if isinstance(action.type, Number) and "%(" not in text:
            text = "%s (%s)" % (text, action.type.range_text()) if text else \
                "(%s)" % action.type.range_text()
        return text


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line: ``NAME: message``, exit 2."""

    def __init__(self, name=None, **kwargs):
        kwargs.setdefault("prog", name)
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(**kwargs)
        self.name = name or self.prog  # (a subparser gets only prog)

    def error(self, message):
        message = " ".join(str(message).split())  # one line, whatever argparse wrote
        if message.startswith("argument ") and ": " in message:
            option, rest = message[len("argument "):].split(": ", 1)
            if rest.startswith("must "):
                message = "%s %s" % (option, rest)
        self.exit(2, "%s: %s (see --help)\n" % (self.name, message))


class OutputError(Exception):
    """An output that cannot be written: one line, naming the option and the path."""


def why(err):
    """A short reason for an ``OSError`` (its ``strerror``, else its text)."""
    return getattr(err, "strerror", None) or str(err) or type(err).__name__


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _kind(mode):
    for test, name in _KINDS:
        if test(mode):
            return name
    return None if stat.S_ISREG(mode) else "not a regular file"


class _Why(Exception):
    """Why a path cannot be used (the caller names the option and the path)."""


def _made_folders(folder):
    """Create ``folder`` and its missing parents; return the ones created, deepest first
    (none left behind if one cannot be made)."""
    missing = []
    path = folder
    while not os.path.lexists(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    if os.path.lexists(path) and not os.path.isdir(path):
        raise _Why("%s is not a folder" % path)
    made = []
    try:
        for created in reversed(missing):
            os.mkdir(created)
            made.insert(0, created)
    except OSError:
        _remove(made)
        raise
    return made


def _remove(paths):
    for path in paths:
        try:
            os.rmdir(path)
        except OSError:
            pass


def _check_space(folder):
    try:
        info = os.statvfs(folder)
    except (OSError, AttributeError):
        return
    if info.f_bfree == 0:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def output_file(option, path, suffixes=(), size_max=None, read_too=False):
    """Raise :class:`OutputError` unless ``path`` can be written (nothing changes).

    ``suffixes``: the extensions allowed (``(".gif",)``), any case. ``size_max``: an
    existing file longer than this is refused (a model's file: an nvm image, not a
    document given by mistake, which the tool would overwrite). ``read_too``: the
    file is also read (an nvm or FRAM image).
    """
    label = "%s %s" % (option, path)
    if not path:
        raise OutputError("%s needs a file name" % option)
    if suffixes and not str(path).lower().endswith(tuple(suffixes)):
        raise OutputError("%s must end in %s" % (label, " or ".join(suffixes)))
    path = os.fspath(path)
    try:
        if os.path.exists(path):
            kind = _kind(os.stat(path).st_mode)
            if kind:
                raise _Why("it is %s" % kind)
            size = os.path.getsize(path)
            if size_max is not None and size > size_max:
                raise _Why("it is %d bytes, more than the %d of what it holds (another file?)"
                           % (size, size_max))
            with open(path, "r+b" if read_too else "ab"):
                pass
            _check_space(os.path.dirname(os.path.abspath(path)))
            return
        target = os.path.realpath(path)  # a dangling link: its target gets written
        _create_and_remove(target, _made_folders(os.path.dirname(target)))
    except _Why as err:
        raise OutputError("cannot write %s: %s" % (label, err)) from None
    except OSError as err:
        raise OutputError("cannot write %s: %s" % (label, why(err))) from None


def _create_and_remove(path, made):
    """Check the free space where ``path`` goes, create it and remove it again; then
    take away the folders ``made`` for the probe (the tool makes them when it writes)."""
    try:
        _check_space(os.path.dirname(path))
        with open(path, "xb"):
            pass
        os.remove(path)
    finally:
        _remove(made)


def output_folder(option, path):
    """Raise :class:`OutputError` unless files can be written into folder ``path``."""
    label = "%s %s" % (option, path)
    if not path:
        raise OutputError("%s needs a folder name" % option)
    path = os.fspath(path)
    probe = os.path.join(path, ".write-probe-%d" % os.getpid())
    try:
        made = []
        if os.path.exists(path):
            kind = _kind(os.stat(path).st_mode)
            if kind != "a folder":
                raise _Why("it is %s, not a folder" % (kind or "a file"))
        else:
            made = _made_folders(os.path.abspath(path))
        _create_and_remove(probe, made)
    except _Why as err:
        raise OutputError("cannot write into %s: %s" % (label, err)) from None
    except OSError as err:
        raise OutputError("cannot write into %s: %s" % (label, why(err))) from None


def input_file(option, path):
    """Raise :class:`OutputError` unless ``path`` is a regular file that can be read."""
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind:
            raise OutputError("cannot read %s %s: it is %s" % (option, path, kind))
        with open(path, "rb"):
            pass
    except OSError as err:
        raise OutputError("cannot read %s %s: %s" % (option, path, why(err))) from None


def fail(name, message, status=2):
    """Print ``NAME: message`` on stderr (one line); return ``status``."""
    sys.stderr.write("%s: %s\n" % (name, " ".join(str(message).split())))
    return status
