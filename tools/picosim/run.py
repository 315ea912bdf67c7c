"""One run of the emulated Pico: build the drive, start ``pico.mjs``, collect what it saw.

:func:`run` writes the CIRCUITPY image and a job file into a work folder, runs
``node tools/picosim/pico.mjs JOB`` and reads its JSON lines as they come (the
console can be echoed live). It returns a :class:`Result`: console text, the
``usb_cdc.data`` bytes, the scripted GPIO edges, the SPI bursts (one per display
refresh) and the panel's last picture.

Implementation Notes
--------------------

Times: the emulator counts nanoseconds on rp2040js's fixed 125 MHz clock from
reset. Script times are ms after ``t0``, the moment the console shows
``code.py`` (CircuitPython 10.2.1 sets the terminal title to ``code.py | 10.2.1``
once ``code.py`` runs and the host has opened the console, about 50 ms after it
starts; output printed before that, ``code.py output:`` included, does not reach
the host); the firmware then
still imports and builds for a few emulated seconds before its first frame.
"""

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tools import cpstack
from tools.picosim import drive as drives
from tools.picosim.fat import FatError, make_image

ROOT = drives.ROOT
UF2 = cpstack.path("uf2")
BOOTROM = cpstack.path("bootrom")
GLUE = Path(__file__).with_name("pico.mjs")
FAT_OFFSET = 0x100000  # CIRCUITPY: after 1020 KB of firmware and 4 KB of NVM
NVM_OFFSET = FAT_OFFSET - 4096  # microcontroller.nvm: the sector before CIRCUITPY
FAT_SECTORS = 2048  # the rest of the Pico's 2 MB flash
BOOT_TIMEOUT_MS = 30000  # emulated ms from reset to "code.py"
GAP_US = 3000  # SPI silence that ends a burst (one refresh)
PROFILE = "pico_ili9341"
FRAM_SIZE = 32768  # the MB85RC256V of fram.mjs
FRAM_SCL, FRAM_SDA = 27, 26  # I2C1, as hw.board.profiles' Pico profiles wire it


class PicoError(Exception):
    """The run cannot start or broke down (one-line message)."""


def missing():
    """Return a one-line reason the emulated Pico cannot run here, or None."""
    for key, path in (("uf2", UF2), ("bootrom", BOOTROM), ("mpy-cross", drives.MPY_CROSS)):
        if not path.is_file():
            return cpstack.missing_line(key)
    if shutil.which("node") is None:
        return "node is not on PATH (tools/picosim needs Node 20 or later)"
    if not (ROOT / "node_modules" / "rp2040js").is_dir():
        return "node_modules/rp2040js is missing: run `make node_modules`"
    return None


def pin_number(name):
    """``"GP17"`` -> 17."""
    if not name.startswith("GP"):
        raise PicoError("pin %r is not a Pico GPIO" % name)
    return int(name[2:])


def profile_pins(profile_name=PROFILE):
    """``(key pins by logical key, dc pin, cs pin)`` of a Pico profile."""
    from hw.board.profiles import PROFILES

    profile = PROFILES[profile_name]
    keys = [pin_number(p) for p in profile["buttons"]["pins"]]
    spec = profile["display"]
    return keys, pin_number(spec["dc"]), pin_number(spec["cs"])


@dataclass
class Result:
    """What one run saw (times in emulated ns from reset unless said otherwise)."""

    console: str = ""
    console_chunks: list = field(default_factory=list)  # (ns, text) as they came
    data: bytes = b""
    t0: int = None
    edges: list = field(default_factory=list)  # {"t", "pin", "high"}
    usb: list = field(default_factory=list)  # the host's enumeration steps
    notes: list = field(default_factory=list)  # other lines the emulator printed
    bursts: list = field(default_factory=list)  # see pico.mjs
    done: dict = field(default_factory=dict)
    wall_s: float = 0.0
    frame: np.ndarray = None  # (h, w, 3) uint8: the panel at the end
    frames_path: Path = None  # raw RGB565 frames, one per changing burst
    flash_ops: list = field(default_factory=list)  # flash model: {"op", "addr", "len", "t", "step"}
    irqoff: list = field(default_factory=list)  # flash model: {"start", "end", "ops"} ns
    nvm: bytes = None  # flash model: the nvm sector at the end (or at the power cut)
    fram_ops: list = field(default_factory=list)  # FRAM model: transfers, images, the cut
    fram: bytes = None  # FRAM model: its 32 KB at the end (or at the power cut)
    workdir: Path = None
    boot_wall_s: float = None  # wall time from start to "code.py"

    @property
    def emulated_s(self):
        """Emulated seconds from reset to the end."""
        return self.done.get("t", 0) / 1e9

    def ms(self, t):
        """Emulated ns from reset -> ms after t0."""
        return (t - self.t0) / 1e6

    def frames(self):
        """Yield ``(ms after t0, (h, w, 3) uint8 array)`` of every captured frame."""
        if self.frames_path is None or not self.frames_path.is_file():
            return
        w, h = self.done["width"], self.done["height"]
        by_index = {b["frame"]: b for b in self.bursts if b.get("frame") is not None}
        raw = np.fromfile(self.frames_path, dtype="<u2")
        for i in range(len(raw) // (w * h)):
            words = raw[i * w * h:(i + 1) * w * h]
            yield self.ms(by_index[i]["end"]), rgb565_to_rgb(words, w, h)


def rgb565_to_rgb(words, width, height):
    """``(height, width, 3)`` uint8 from RGB565 values (bit replication, as tools/emulate)."""
    p = np.asarray(words, dtype=np.uint16)
    r, g, b = (p >> 11) & 31, (p >> 5) & 63, p & 31
    rgb = np.stack([(r << 3) | (r >> 2), (g << 2) | (g >> 4), (b << 3) | (b >> 2)], axis=-1)
    return rgb.astype(np.uint8).reshape(height, width, 3)


def build_image(workdir, settings=None, mpy=None, code=None, libraries=()):
    """Write the CIRCUITPY image into ``workdir``; return its path."""
    try:
        files = drives.drive_files(settings, mpy=mpy, code=code, libraries=libraries)
        image = make_image(files, FAT_SECTORS)
    except (drives.DriveError, FatError, OSError) as err:
        raise PicoError(str(err)) from None
    path = Path(workdir) / "circuitpy.img"
    path.write_bytes(image)
    return path


def _fram_job(workdir, fram):
    """``job["fram"]`` of pico.mjs from run()'s ``fram`` dict (images go to files)."""
    job = {"cutAfter": fram.get("cut_after", -1), "pins": [FRAM_SDA, FRAM_SCL]}
    if fram.get("cut_in_address") is not None:
        transfer, byte = fram["cut_in_address"]
        job["cutInAddress"] = {"transfer": transfer, "byte": byte}
    if fram.get("image") is not None:
        path = workdir / "fram-in.bin"
        path.write_bytes(bytes(fram["image"])[:FRAM_SIZE])
        job["in"] = str(path)
    images = []
    for i, image in enumerate(fram.get("images") or ()):
        path = workdir / ("fram-image-%03d.bin" % i)
        path.write_bytes(bytes(image)[:FRAM_SIZE])
        images.append(str(path))
    job["images"] = images
    return job


def run(workdir, *, seconds, events=(), settings=None, mpy=None, code=None,
        capture_frames=False, on_console=None, gap_us=GAP_US, profile=PROFILE, flash=None,
        fram=None, stop_on=None, libraries=()):
    """Boot the Pico and run ``seconds`` of emulated time after t0; return a Result.

    ``events``: ``[(ms after t0, logical key, down)]``; a key down drives its pin low.
    ``stop_on``: stop as soon as the console shows this text (``done["reason"]``
    says which way the run ended). ``libraries``: more top-level modules whose
    libraries go on the drive (a measurement's), beside those the firmware imports.
    ``flash``: ``None`` (rp2040js ignores flash writes), or a dict turning on the
    serial-flash model of ``flash.mjs``: ``nvm`` (bytes: the nvm sector at reset),
    ``cut_after`` (stop after this many erase/program steps in the nvm sector: a
    power cut), ``partial`` (the next step is half done when the power goes),
    ``seed`` (of those half-done bits), ``timing`` (``"typ"`` or ``"max"``: the
    W25Q16JV datasheet's typical or maximum busy times).
    ``fram``: ``None`` (no FRAM fitted: GP26/GP27 read low, ``busio.I2C`` finds no
    pull-ups), or a dict fitting the MB85RC256V of ``fram.mjs`` on I2C1: ``image``
    (its 32 KB at reset; zeros if None), ``cut_after`` (a power cut once this many
    data bytes of memory writes are stored), ``cut_in_address`` (``(transfer,
    byte)``: a cut inside that memory write's address bytes), ``images`` (a list of
    32 KB images, each loaded as a read starts at address 0).
    """
    reason = missing()
    if reason:
        raise PicoError(reason)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    image = build_image(workdir, settings, mpy, code, libraries)
    keys, dc, cs = profile_pins(profile)
    job = {
        "uf2": str(UF2), "bootrom": str(BOOTROM), "fat": str(image), "fatOffset": FAT_OFFSET,
        "outDir": str(workdir), "untilMs": seconds * 1000.0, "bootTimeoutMs": BOOT_TIMEOUT_MS,
        "holdHigh": keys, "dcPin": dc, "csPin": cs, "gapUs": gap_us,
        "captureFrames": bool(capture_frames), "stopOn": stop_on,
        "events": [{"ms": ms, "pin": keys[key], "high": not down} for ms, key, down in events],
    }
    if flash is not None:
        job["flash"] = {"nvmOffset": NVM_OFFSET, "cutAfter": flash.get("cut_after", -1),
                        "cutPartial": bool(flash.get("partial")), "seed": flash.get("seed", 1),
                        "timing": flash.get("timing", "typ")}
        if flash.get("nvm") is not None:
            nvm_in = workdir / "nvm-in.bin"
            nvm_in.write_bytes(bytes(flash["nvm"])[:4096])  # one sector; CIRCUITPY follows
            job["flash"]["nvmIn"] = str(nvm_in)
    if fram is not None:
        job["fram"] = _fram_job(workdir, fram)
    job_path = workdir / "job.json"
    job_path.write_text(json.dumps(job), encoding="utf-8")
    result = Result(workdir=workdir)
    console = []
    started = time.monotonic()
    # stderr to a file: rp2040js's error log could fill a pipe nobody reads meanwhile.
    stderr_path = workdir / "node-stderr.txt"
    try:
        with open(stderr_path, "w", encoding="utf-8") as stderr_file:
            proc = subprocess.Popen(["node", str(GLUE), str(job_path)], cwd=str(ROOT),
                                    stdout=subprocess.PIPE, stderr=stderr_file, text=True,
                                    encoding="utf-8", errors="replace")
    except OSError as err:
        raise PicoError("cannot start node: %s" % err) from None
    try:
        for line in proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:  # rp2040js's own log lines (errors only)
                result.notes.append(line.rstrip())
                continue
            kind = msg["type"]
            if kind == "console":
                console.append(msg["text"])
                result.console_chunks.append((msg["t"], msg["text"]))
                if on_console is not None:
                    on_console(msg["text"])
            elif kind == "burst":
                result.bursts.append(msg)
            elif kind == "edge":
                result.edges.append(msg)
            elif kind == "flash":
                result.flash_ops.append(msg)
            elif kind == "fram":
                result.fram_ops.append(msg)
            elif kind == "irqoff":
                result.irqoff.append(msg)
            elif kind == "t0":
                result.t0 = msg["t"]
                result.boot_wall_s = time.monotonic() - started
            elif kind == "usb":
                result.usb.append(msg)
            elif kind == "done":
                result.done = msg
    except KeyboardInterrupt:
        proc.terminate()
        proc.wait()
        raise
    finally:
        proc.wait()
        stderr = stderr_path.read_text(encoding="utf-8", errors="replace")
    result.wall_s = time.monotonic() - started
    if proc.returncode != 0 or not result.done:
        last = (stderr.strip().splitlines() or ["exit status %s" % proc.returncode])[-1]
        raise PicoError("the emulator stopped: %s" % last)
    result.console = "".join(console)
    (workdir / "console.txt").write_text(result.console, encoding="utf-8")
    result.data = (workdir / "data.bin").read_bytes()
    w, h = result.done["width"], result.done["height"]
    raw = np.fromfile(workdir / "final.raw", dtype="<u2")
    result.frame = rgb565_to_rgb(raw, w, h)
    if flash is not None and (workdir / "nvm.bin").is_file():
        result.nvm = (workdir / "nvm.bin").read_bytes()
    if fram is not None and (workdir / "fram.bin").is_file():
        result.fram = (workdir / "fram.bin").read_bytes()
    if capture_frames:
        result.frames_path = workdir / "frames.bin"
    if result.t0 is None:
        raise PicoError("no 'code.py' on the console within %d emulated s of reset"
                        % (BOOT_TIMEOUT_MS // 1000))
    return result
