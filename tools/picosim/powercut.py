"""Power cuts at every flash step of a record save, on the real firmware in the emulated Pico.

A *cut run* boots CircuitPython 10.2.1 with a given nvm sector, and its ``code.py``
(``nvm_save_code.py``) saves the record once (``hw.store.record.Record.save``, as the
firmware does between games). The flash model (``flash.mjs``) stops the emulator as
erase/program step N+1 of that save is issued (or with it half done: ``partial``),
keeping the flash as it was. A *check run* boots the firmware itself
(``nvm_check_code.py``: ``hw.main.build`` loads the record through the menu, as at
every boot) on the nvm the cut left and reports which record it loaded. Each
outcome must be the old record, the new one, or (only when the save erased the
sector) the defaults, with the firmware on its title and running.

Usage: ``python -m tools.picosim.powercut [--all] [--timing typ|max]`` prints one
line per cut point and the stall figures; ``--all`` tries every step, whole and
half done (``make powercut``); without it, a short set (the one ``make test`` runs).

Implementation Notes
--------------------

Two starting nvm images, made on CPython with ``hw.store.record`` in the emulator's RP2040
nvm model (``tools.emulate.nvm.FileNVM``, ``mode="rp2040"``): ``ring`` (3 saves
done: the next save programs slot 3, one page program) and ``full`` (32 saves: the
ring is full and the next save starts it over: one 4 KB erase and 16 page
programs). The save without a cut must leave exactly the bytes the CPython model
leaves: that checks the flash model against CircuitPython's ``ByteArray.c`` logic.
The engine and hw packages go on the drive as ``.mpy`` (faster boots).
"""

import random
import sys
from pathlib import Path

from tools import cli

HERE = Path(__file__).resolve().parent / "device"  # scripts that run on the Pico
SAVE_CODE = HERE / "nvm_save_code.py"
CHECK_CODE = HERE / "nvm_check_code.py"
MPY = ("lib", "project")
SCENARIOS = {"ring": 3, "full": 32}
# make test's cut points (scenario, steps let through, half done): a half-programmed
# slot (old), the erase window (defaults), page 0 programmed (new)
SHORT = (("ring", 0, True), ("full", 1, False), ("full", 2, False))


class CutError(Exception):
    """A cut point gave something else than old / new / defaults (one-line message)."""


def _load_save_code():
    import importlib.util

    spec = importlib.util.spec_from_file_location("nvm_save_code", SAVE_CODE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def images(saves):
    """``(nvm before, nvm after, old image, new image, defaults image)`` for a scenario."""
    from hw.store import record as rec
    from hw.menu import DEFAULTS
    from tools.emulate.nvm import FileNVM

    nvm = FileNVM(None, mode="rp2040")
    r = rec.Record(DEFAULTS)
    r.load(nvm)
    rnd = random.Random(saves)
    for _ in range(saves):
        r.game_won(rnd.randrange(2), rnd.randrange(9000, 60000), rnd.choice((-1, 0, 1)))
        r.reaction(rnd.randrange(2), rnd.randrange(200, 900))
        r.save(nvm)
    before = bytes(nvm._data)
    again = rec.Record(DEFAULTS)
    again.load(nvm)
    old = bytes(again.buf[rec.MENU:rec.CRC])
    _load_save_code().change(again)
    again.save(nvm)
    new = bytes(again.buf[rec.MENU:rec.CRC])
    defaults = bytes(rec.Record(DEFAULTS).buf[rec.MENU:rec.CRC])
    return before, bytes(nvm._data), old, new, defaults


def _line(console, tag):
    """The ``key=value`` fields of the console line holding ``tag`` (after any terminal title)."""
    for line in console.splitlines():
        at = line.find(tag)
        if at >= 0:
            return dict(part.split("=", 1) for part in line[at:].split()[1:])
    return None


def save_run(workdir, nvm, cut_after=-1, partial=False, timing="typ", seed=1):
    """One save on the Pico; return the run's Result (``nvm``: the sector afterwards)."""
    from tools.picosim.run import run

    flash = {"nvm": nvm, "cut_after": cut_after, "partial": partial, "timing": timing,
             "seed": seed}
    return run(workdir, seconds=20, code=str(SAVE_CODE), mpy=MPY, flash=flash,
               stop_on="cutsave saved=")


def check_run(workdir, nvm):
    """Boot the firmware on ``nvm``; return ``(slot, on title, image bytes, ran)``."""
    from tools.picosim.run import run

    result = run(workdir, seconds=30, code=str(CHECK_CODE), mpy=MPY, flash={"nvm": nvm},
                 stop_on="cutcheck ran")
    found = _line(result.console, "cutcheck slot=")
    if found is None or "Traceback" in result.console:
        tail = result.console.strip().splitlines()[-1:] or ["no output"]
        raise CutError("the firmware did not start: %s" % tail[0])
    return (int(found["slot"]), found["title"] == "1", bytes.fromhex(found["image"]),
            "cutcheck ran" in result.console)


def stall(result):
    """``(interrupts-off ns, nvm steps in it)`` of the save, from the flash model."""
    spans = [s for s in result.irqoff if s["ops"]]
    if not spans:
        return None
    return max(s["end"] - s["start"] for s in spans), sum(s["ops"] for s in spans)


def cut_point(workdir, scenario, steps, partial, timing="typ", cache=None):
    """Cut ``scenario``'s save after ``steps`` steps; return ``(outcome, detail)``.

    ``outcome`` is "old", "new" or "defaults" (only after an erase); anything else
    raises :class:`CutError`. ``cache`` maps an nvm image to a check's answer (the
    same image boots the same way: deterministic).
    """
    before, _, old, new, defaults = images(SCENARIOS[scenario])
    workdir = Path(workdir)
    cut = save_run(workdir / "save", before, cut_after=steps, partial=partial, timing=timing,
                   seed=steps + 1)
    if not cut.done.get("reason", "").startswith("power cut"):
        raise CutError("%s: the save ended after %d steps, before the cut"
                       % (scenario, len([op for op in cut.flash_ops if op.get("nvm")])))
    erased = any(op["op"] == "erase" for op in cut.flash_ops if op.get("nvm"))
    key = bytes(cut.nvm)
    if cache is not None and key in cache:
        answer = cache[key]
    else:
        answer = check_run(workdir / "check", cut.nvm)
        if cache is not None:
            cache[key] = answer
    slot, title, image, ran = answer
    if not (title and ran):
        raise CutError("%s step %d: the firmware did not reach its title and run"
                       % (scenario, steps))
    if image == old:
        outcome = "old"
    elif image == new:
        outcome = "new"
    elif image == defaults and slot < 0 and (erased or partial):
        outcome = "defaults"
    else:
        raise CutError("%s cut after %d steps%s: the firmware loaded neither the old nor the "
                       "new record (slot %d)" % (scenario, steps, " (half done)" if partial
                                                 else "", slot))
    return outcome, "slot %d" % slot


def full_save(workdir, scenario, timing="typ"):
    """The save without a cut: ``(Result, steps, stall ns, device ms)``; checks the bytes."""
    before, after, *_ = images(SCENARIOS[scenario])
    result = save_run(Path(workdir) / ("whole-" + scenario), before, timing=timing)
    if result.nvm != after:
        raise CutError("%s: the Pico's nvm after the save differs from the RP2040 model's"
                       % scenario)
    steps = len([op for op in result.flash_ops if op.get("nvm")])
    found = _line(result.console, "cutsave saved=")
    ns, _ = stall(result) or (0, 0)
    return result, steps, ns, int(found["ms"]) if found else -1


def sweep(workdir, points=None, timing="typ", say=print):
    """Run the cut points (``None``: all); return ``[(scenario, steps, partial, outcome)]``."""
    workdir = Path(workdir)
    out = []
    cache = {}
    totals = {}
    for scenario in SCENARIOS:
        result, steps, ns, ms = full_save(workdir, scenario, timing)
        totals[scenario] = steps
        ops = [op for op in result.flash_ops if op.get("nvm")]
        erase = [op for op in ops if op["op"] == "erase"]
        say("%s save: %d steps (%d erase, %d page programs), interrupts off %.2f ms emulated "
            "(flash busy times: W25Q16JV %s), save() %d ms on CircuitPython's clock"
            % (scenario, steps, len(erase), len(ops) - len(erase), ns / 1e6, timing, ms))
        if erase:
            first_program = next(op for op in ops if op["op"] == "program")
            window = first_program["t"] + first_program["busyNs"] - erase[0]["t"]
            say("%s save: erase window (erase issued .. page 0 programmed) %.2f ms emulated"
                % (scenario, window / 1e6))
    wanted = points if points is not None else [
        (s, n, p) for s in SCENARIOS for n in range(totals[s]) for p in (False, True)]
    for scenario, steps, partial in wanted:
        name = "%s-%d%s" % (scenario, steps, "p" if partial else "")
        outcome, detail = cut_point(workdir / name, scenario, steps, partial, timing, cache)
        say("%s: cut %s step %d -> %s (%s)" % (scenario, "during" if partial else "before",
                                              steps + 1, outcome, detail))
        out.append((scenario, steps, partial, outcome))
    say("%d cut points tried" % len(out))
    return out


def main(argv=None):
    from tools.picosim.run import PicoError, missing

    p = cli.Parser("powercut", prog="python -m tools.picosim.powercut",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--all", action="store_true",
                   help="every erase/program step, whole and half done")
    p.add_argument("--timing", choices=("typ", "max"), default="typ",
                   help="W25Q16JV busy times: typical (default) or maximum")
    p.add_argument("--workdir", default="/tmp/cspeed-powercut")
    args = p.parse_args(argv)
    reason = missing()
    if reason:
        print("powercut: %s" % reason, file=sys.stderr)
        return 2
    try:
        cli.output_folder("--workdir", args.workdir)
    except cli.OutputError as err:
        return cli.fail("powercut", err)
    try:
        sweep(args.workdir, None if args.all else list(SHORT), args.timing)
    except (PicoError, CutError) as err:
        print("powercut: %s" % err, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
