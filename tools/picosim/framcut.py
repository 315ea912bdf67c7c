"""Power cuts at every byte of a record save to the FRAM, on the real firmware in the emulated Pico.

With the record's FRAM fitted (``fram.mjs``: an MB85RC256V on GP27/GP26), a save is
one I2C write of a 98-byte slot (``hw.store.fram.FramStore.write``) then its read-back.
FRAM stores each byte as it arrives, so a cut after N data bytes leaves the slot's
first N bytes new and the rest as they were. Each cut image must load as the old
record or the new one, never the defaults or anything else.

Per scenario: a *save run* (``fram_save_code.py``: the store opened the firmware's
way, one save) without a cut gives the bytes written and the figures; *cut runs*
(the same save with the FRAM model cutting the power after N data bytes, or inside
the address bytes) give real cut images; *one load boot* (``fram_load_code.py``)
loads every cut image in turn through ``hw.store.fram`` and ``hw.store.record`` on the Pico
(the model serves the next image at each read from address 0); and *firmware boots*
(``nvm_check_code.py``: ``hw.main.build``) check a few points whole. Every answer
is compared with the CPython model (``hw.store.fram`` on ``tools.emulate.fram.FileFRAM``
behind the ``tools.cpstubs`` ``busio.I2C``).

Usage: ``python -m tools.picosim.framcut [--all]``: without ``--all`` the short set
``make test`` runs; with it every data byte of every scenario (``make powercut``).

Implementation Notes
--------------------

Scenarios: ``a`` (3 saves done: the save writes slot 1, at 128), ``b`` (4 saves:
slot 0, at 0) and ``moved`` (a blank FRAM and the record in the flash's nvm: the
first save moves it over into slot 0; a cut loads the flash's record again).
The image after a cut of N data bytes is the image before the save with the first
N bytes of the slot written: the cut runs show the model leaves exactly that (the
address cuts leave it untouched), so the load boot serves the images for all N
made that way from the save run's bytes, without 99 save runs per scenario.
The engine and hw packages go on the drive as ``.mpy`` (faster boots).
"""

import contextlib
import random
import sys
from pathlib import Path

from tools import cli

HERE = Path(__file__).resolve().parent / "device"  # scripts that run on the Pico
SAVE_CODE = HERE / "fram_save_code.py"
LOAD_CODE = HERE / "fram_load_code.py"
CHECK_CODE = HERE / "nvm_check_code.py"
MPY = ("lib", "project")
IRQ_OFF_NS = 100e3  # a save with interrupts off longer than this stalls like flash does
FRAM_SIZE = 32768
FREQUENCY = 400000  # hw.main.FRAM_I2C_HZ (tests/test_fram.py keeps them equal)
SCENARIOS = {"a": 3, "b": 4, "moved": 0}  # FRAM saves before the one cut (moved: nvm's 3)
NVM_SAVES = 3  # the flash record of "moved"
# Cut points: N data bytes, or "mid" (half the slot), "last" (all but one), "all".
# make test: scenarios, real cuts (scenario, ("data", N) | ("address", k)), the images
# loaded, firmware boots (scenario, N)
SHORT = ("a", "moved")
SHORT_CUTS = (("a", ("data", "mid")), ("a", ("address", 2)))
SHORT_LOADS = (0, 1, "mid", "last", "all")
SHORT_BOOTS = (("a", "mid"),)
ALL_CUTS = (("address", 0), ("address", 1), ("address", 2), ("data", 0), ("data", 1),
            ("data", "mid"), ("data", "last"), ("data", "all"))
ALL_BOOTS = (0, "mid", "all")  # before the first data byte, mid-slot, after the last


class CutError(Exception):
    """A cut gave something else than the old or the new record, or a run broke (one line)."""


class _Pin:
    def __init__(self, name):
        self.name = name


def _load_save_code():
    import importlib.util

    spec = importlib.util.spec_from_file_location("fram_save_code", SAVE_CODE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def model_store(fram_image, nvm):
    """The CPython model: ``(chip, hw.store.fram.FramStore)`` on a FileFRAM holding
    ``fram_image``; its bus lets go of GP27/GP26 when the ``with`` block ends, as a
    board's would on ``deinit``."""
    from hw.store.fram import FramStore
    from tools.cpstubs import busio
    from tools.emulate.fram import FileFRAM

    chip = FileFRAM()
    chip.data[:] = fram_image
    busio.detach_all()
    busio.attach("GP27", "GP26", chip)
    try:
        i2c = busio.I2C(_Pin("GP27"), _Pin("GP26"), frequency=FREQUENCY)
    finally:
        busio.detach_all()
    try:
        yield chip, FramStore(i2c, nvm)
    finally:
        i2c.deinit()


def model_load(fram_image, nvm):
    """``(slot, menu+stats bytes)`` the CPython model loads from ``fram_image``."""
    from hw.menu import DEFAULTS
    from hw.store.record import CRC, MENU, Record

    r = Record(DEFAULTS)
    with model_store(fram_image, nvm) as (_, store):
        slot = r.load(store)
    return slot, bytes(r.buf[MENU:CRC])


class Case:
    """A scenario on CPython: FRAM and nvm before the save, the slot it writes, old and new."""

    def __init__(self, name):
        from hw.menu import DEFAULTS
        from hw.store.record import CRC, MENU, Record
        from tools.emulate.nvm import FileNVM

        self.name = name
        rnd = random.Random(7 + SCENARIOS[name])
        nvm = FileNVM(None, mode="rp2040")
        if name == "moved":
            r = Record(DEFAULTS)
            r.load(nvm)
            for _ in range(NVM_SAVES):
                r.game_won(rnd.randrange(2), rnd.randrange(9000, 60000), rnd.choice((-1, 0, 1)))
                r.save(nvm)
        self.nvm = bytes(nvm._data)
        with model_store(bytes(FRAM_SIZE), self.nvm) as (chip, store):
            r = Record(DEFAULTS)
            r.load(store)
            for _ in range(SCENARIOS[name]):
                r.game_won(rnd.randrange(2), rnd.randrange(9000, 60000), rnd.choice((-1, 0, 1)))
                r.reaction(rnd.randrange(2), rnd.randrange(200, 900))
                r.save(store)
            self.before = bytes(chip.data)
        with model_store(self.before, self.nvm) as (chip, store):
            again = Record(DEFAULTS)
            again.load(store)
            self.old = bytes(again.buf[MENU:CRC])
            _load_save_code().change(again)
            self.slot = again.save(store)
            self.new = bytes(again.buf[MENU:CRC])
            self.after = bytes(chip.data)
        changed = [i for i in range(FRAM_SIZE) if self.before[i] != self.after[i]]
        self.offset = self.slot * 128
        self.length = len(again.buf)
        if not changed or changed[0] < self.offset or changed[-1] >= self.offset + self.length:
            raise CutError("%s: the CPython model's save wrote outside slot %d" % (name, self.slot))

    def point(self, n):
        """A cut point's number of data bytes (``"mid"``, ``"last"``, ``"all"`` or N)."""
        return {"mid": self.length // 2, "last": self.length - 1, "all": self.length}.get(n, n)

    def cut_image(self, n):
        """The FRAM after a cut once ``n`` data bytes of the slot were stored."""
        image = bytearray(self.before)
        image[self.offset:self.offset + n] = self.after[self.offset:self.offset + n]
        return bytes(image)

    def outcome(self, image_bytes):
        """"old", "new" or None for a loaded record's bytes."""
        return {self.old: "old", self.new: "new"}.get(image_bytes)


def _line(console, tag):
    """The ``key=value`` fields of the console line holding ``tag``."""
    from tools.picosim.powercut import _line as line

    return line(console, tag)


def _fail(result, what):
    tail = (result.console.strip().splitlines() or ["no output"])[-1]
    return CutError("%s: %s" % (what, tail[-120:]))


def save_run(workdir, case, cut_after=-1, cut_in_address=None):
    """One save on the Pico with the FRAM fitted; return the run's Result."""
    from tools.picosim.run import run

    fram = {"image": case.before, "cut_after": cut_after, "cut_in_address": cut_in_address}
    result = run(workdir, seconds=20, code=str(SAVE_CODE), mpy=MPY, fram=fram,
                 flash={"nvm": case.nvm}, stop_on="fcutsave saved=")
    if "Traceback" in result.console or result.fram is None:
        raise _fail(result, "%s save" % case.name)
    return result


def whole_save(workdir, case):
    """The save without a cut, checked against the model: a dict of figures."""
    result = save_run(Path(workdir) / ("whole-" + case.name), case)
    store = _line(result.console, "fcutsave store=")
    saved = _line(result.console, "fcutsave saved=")
    if store is None or store["store"] != "FramStore" or saved is None:
        raise _fail(result, "%s save: the record did not go to the FRAM" % case.name)
    if int(saved["saved"]) != case.slot:
        raise CutError("%s save: the Pico wrote slot %s, the model slot %d"
                       % (case.name, saved["saved"], case.slot))
    if result.fram != case.after:
        raise CutError("%s save: the Pico's FRAM after the save differs from the model's"
                       % case.name)
    ops = [op for op in result.fram_ops if op.get("op") in ("write", "read", "address")]
    writes = [op for op in ops if op["op"] == "write"]
    if len(writes) != 1 or (writes[0]["addr"], writes[0]["len"]) != (case.offset, case.length):
        raise CutError("%s save: expected one %d-byte write at %d, the bus had %s"
                       % (case.name, case.length, case.offset, writes))
    write = writes[0]
    back = [op for op in ops if op["op"] == "read" and op["start"] > write["end"]]
    if not back or (back[0]["addr"], back[0]["len"]) != (case.offset, case.length):
        raise CutError("%s save: no read-back of the slot after its write" % case.name)
    nvm_ops = [op for op in result.flash_ops if op.get("nvm")]
    return {"result": result, "transfer": write["n"], "write_ns": write["end"] - write["start"],
            "save_ns": back[0]["end"] - write["start"], "ms": int(saved["ms"]),
            "irq_off_bytes": result.done["fram"]["irqOffBytes"],
            "bytes": result.done["fram"]["bytes"], "nvm_ops": len(nvm_ops),
            "irq_off_stretches": result.done["fram"]["irqOffStretches"],
            "irq_off_in_save": write.get("irqOffCount", 0) + back[0].get("irqOffCount", 0),
            "irq_off_ns": max(write.get("irqOffNs", 0), back[0].get("irqOffNs", 0))}


def cut_run(workdir, case, point, transfer):
    """Cut the save at ``point`` (``("data", N)`` or ``("address", k)``); return the FRAM left."""
    kind, n = point
    if kind == "data":
        result = save_run(workdir, case, cut_after=n)
    else:
        result = save_run(workdir, case, cut_in_address=(transfer, n))
    if not result.done.get("reason", "").startswith("power cut"):
        raise CutError("%s %s %d: the save ended before the cut" % (case.name, kind, n))
    return result.fram


def load_boot(workdir, images, nvm):
    """Load the record from each FRAM image on the Pico, one boot; ``[(slot, bytes)]``."""
    from tools.picosim.run import run

    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    code = workdir / "fram_load_code.py"
    code.write_text(LOAD_CODE.read_text(encoding="utf-8").replace(
        "COUNT = 1 ", "COUNT = %d " % len(images), 1), encoding="utf-8")
    result = run(workdir, seconds=30 + len(images) // 5, code=str(code), mpy=MPY,
                 fram={"images": images}, flash={"nvm": nvm}, stop_on="fcutload done")
    answers = {}
    for line in result.console.splitlines():
        at = line.find("fcutload k=")
        if at >= 0:
            fields = dict(part.split("=", 1) for part in line[at:].split()[1:])
            answers[int(fields["k"])] = (int(fields["slot"]), bytes.fromhex(fields["image"]))
    served = [op for op in result.fram_ops if "image" in op]
    if len(answers) != len(images) or len(served) != len(images):
        raise _fail(result, "load boot: %d of %d images loaded (%d served)"
                    % (len(answers), len(images), len(served)))
    return [answers[k] for k in range(len(images))], result


def check_boot(workdir, image, nvm):
    """Boot the firmware with ``image`` in the FRAM; ``(slot, on title, bytes, ran)``."""
    from tools.picosim.run import run

    result = run(workdir, seconds=30, code=str(CHECK_CODE), mpy=MPY, fram={"image": image},
                 flash={"nvm": nvm}, stop_on="cutcheck ran")
    found = _line(result.console, "cutcheck slot=")
    if found is None or "Traceback" in result.console:
        raise _fail(result, "the firmware did not start")
    if "record: on the FRAM" not in result.console:
        raise _fail(result, "the firmware did not open the FRAM")
    return (int(found["slot"]), found["title"] == "1", bytes.fromhex(found["image"]),
            "cutcheck ran" in result.console)


def sweep(workdir, names=None, every=False, cuts=None, loads=None, boots=None, say=print):
    """Run the scenarios; return ``{scenario: {N: outcome}}`` (raises CutError on a bad one).

    ``every``: load the images of every data byte (else ``loads``); ``cuts``: real
    cut runs ``[(scenario, point)]``; ``boots``: firmware boots ``[(scenario, N)]``.
    """
    workdir = Path(workdir)
    names = list(SCENARIOS) if names is None else names
    cuts = [(s, p) for s in names for p in ALL_CUTS] if cuts is None else cuts
    boots = [(s, n) for s in names for n in ALL_BOOTS] if boots is None else boots
    outcomes = {}
    counts = {"cut runs": 0, "images loaded": 0, "firmware boots": 0}
    for name in names:
        case = Case(name)
        whole = whole_save(workdir / name, case)
        say("%s save: slot %d (%d bytes at %d): I2C write %.3f ms, write + read-back %.3f ms "
            "emulated (400 kHz); save() %d ms on CircuitPython's clock; interrupts off at most "
            "%.1f us at a time during the write and read-back (%d of the run's %d stretches "
            "with them off; %d of %d bus bytes ended with them off); %d nvm erase/program steps"
            % (name, case.slot, case.length, case.offset, whole["write_ns"] / 1e6,
               whole["save_ns"] / 1e6, whole["ms"], whole["irq_off_ns"] / 1e3,
               whole["irq_off_in_save"], whole["irq_off_stretches"], whole["irq_off_bytes"],
               whole["bytes"], whole["nvm_ops"]))
        if whole["irq_off_ns"] > IRQ_OFF_NS or whole["nvm_ops"]:
            raise CutError("%s save: interrupts off %.1f us during the I2C transfer, or the "
                           "flash touched" % (name, whole["irq_off_ns"] / 1e3))
        for scenario, point in cuts:
            if scenario != name:
                continue
            point = (point[0], case.point(point[1]))
            left = cut_run(workdir / name / ("cut-%s-%d" % point), case, point,
                           whole["transfer"])
            want = case.cut_image(point[1] if point[0] == "data" else 0)
            if left != want:
                raise CutError("%s cut %s %d: the FRAM left differs from the first N bytes "
                               "written" % ((name,) + point))
            say("%s: real cut %s -> the FRAM left is the image the load boot checks"
                % (name, "after %d data bytes" % point[1] if point[0] == "data"
                   else "in address byte %d of the write" % point[1]))
            counts["cut runs"] += 1
        points = list(range(case.length + 1)) if every else sorted(
            {case.point(n) for n in (loads if loads is not None else SHORT_LOADS)})
        images = [case.cut_image(n) for n in points]
        answers, result = load_boot(workdir / name / "load", images, case.nvm)
        outcomes[name] = {}
        for n, image, (slot, got) in zip(points, images, answers):
            model_slot, model = model_load(image, case.nvm)
            outcome = case.outcome(got)
            if got != model or slot != model_slot:
                raise CutError("%s cut after %d bytes: the Pico loaded slot %d, the model slot %d"
                               "%s" % (name, n, slot, model_slot,
                                       "" if got == model else " (other bytes)"))
            if outcome is None:
                raise CutError("%s cut after %d bytes: neither the old nor the new record"
                               % (name, n))
            outcomes[name][n] = outcome
        olds = [n for n, o in outcomes[name].items() if o == "old"]
        news = [n for n, o in outcomes[name].items() if o == "new"]
        say("%s: %d cut points loaded in one boot (%.1f s wall): old after %s, new after %s "
            "data bytes; the CPython model agrees on each"
            % (name, len(points), result.wall_s, _ranges(olds), _ranges(news)))
        for scenario, n in boots:
            if scenario != name:
                continue
            n = case.point(n)
            slot, title, got, ran = check_boot(workdir / name / ("boot-%d" % n),
                                               case.cut_image(n), case.nvm)
            outcome = case.outcome(got)
            if outcome != outcomes[name].get(n, case.outcome(model_load(case.cut_image(n),
                                                                       case.nvm)[1])):
                raise CutError("%s cut after %d bytes: the firmware loaded %s" % (name, n, outcome))
            if not (title and ran):
                raise CutError("%s cut after %d bytes: the firmware did not reach its title"
                               % (name, n))
            say("%s: firmware boot after a cut of %d bytes -> %s (slot %d), title, ran"
                % (name, n, outcome, slot))
            counts["firmware boots"] += 1
        counts["images loaded"] += len(points)
    say("%s: real CircuitPython 10.2.1 in the emulated Pico"
        % ", ".join("%d %s" % (v, k) for k, v in counts.items()))
    return outcomes


def _ranges(values):
    """``[0, 1, 2, 5]`` -> ``"0-2, 5"``."""
    out = []
    for v in sorted(values):
        if out and v == out[-1][1] + 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return ", ".join("%d" % a if a == b else "%d-%d" % (a, b) for a, b in out) or "none"


def main(argv=None):
    from tools.picosim.run import PicoError, missing

    p = cli.Parser("framcut", prog="python -m tools.picosim.framcut",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--all", action="store_true",
                   help="every data byte of every scenario, cuts in the address bytes, "
                        "three firmware boots per scenario")
    p.add_argument("--workdir", default="/tmp/cspeed-framcut")
    args = p.parse_args(argv)
    reason = missing()
    if reason:
        print("framcut: %s" % reason, file=sys.stderr)
        return 2
    try:
        cli.output_folder("--workdir", args.workdir)
    except cli.OutputError as err:
        return cli.fail("framcut", err)
    try:
        if args.all:
            sweep(args.workdir, every=True)
        else:
            sweep(args.workdir, list(SHORT), cuts=list(SHORT_CUTS), boots=list(SHORT_BOOTS))
    except (PicoError, CutError, OSError) as err:
        print("framcut: %s" % err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
