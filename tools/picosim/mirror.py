"""Play a picosim session again in ``tools/emulate``, so the two pictures can be compared.

:func:`mirror` runs the desktop emulator (Blinka displayio, virtual time) with the
same firmware source, the same ``--seed`` and the same settings, and drives it
through the same session as a picosim :class:`~tools.picosim.run.Result`:

1. the scripted keys before the last match (title, attract, menu) at the same
   times after the firmware's first frame (the picosim's first refresh that drew
   pixels; the desktop session starts at its first frame);
2. the presses of the device's last match, read from its ``usb_cdc.data`` log, at
   exactly the device's times relative to that game's ``start`` line (the
   desktop's own ``start`` line gives its origin), straight into the firmware's
   ``keypad`` stand-in with those timestamps;
3. stop at the device's last moment, on the same relative clock.

So both engines see the same presses at the same game times, and both screens
should show the same picture; :func:`mirror` returns the desktop's pixels, its
engine's tops and its log.

Implementation Notes
--------------------

Needs the seed: the game's shuffle comes from the firmware's seed generator, which
both runs must have consumed alike (same attract/menu flow). The returned
``seed_ok`` says whether the desktop's last match got the device's ``seed`` line.
The device's ``ticks_ms`` at its last moment comes from the scripted presses'
edges (:func:`tools.picosim.analyze.ticks_offset`).
"""

import contextlib
import os

from tools.picosim import analyze

WRAP = 1 << 29
HOLD_MS = 40


@contextlib.contextmanager
def _environment(settings):
    saved = {k: os.environ.get(k) for k in settings}
    os.environ.update({k: str(v) for k, v in settings.items()})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def last_match(data):
    """``(seed, start tick, [(T, seat, pos)])`` of the last match's last game in a log."""
    seed = start = None
    presses = []
    for raw in data.decode("utf-8", "replace").splitlines():
        fields = raw.split()
        if not fields:
            continue
        if fields[0] == "CSLOG":
            seed = start = None
            presses = []
        elif fields[0] == "seed":
            seed = int(fields[1])
        elif fields[0] == "start":
            start = int(fields[1])
            presses = []
        elif fields[0] == "press" and start is not None:
            presses.append((int(fields[1]), "AB".index(fields[2]), int(fields[3])))
    return seed, start, presses


def first_frame_ms(result):
    """Ms after t0 of the start of the picosim's first refresh that drew pixels."""
    for burst in result.bursts:
        if burst["changed"]:
            return result.ms(burst["start"])
    raise ValueError("the picosim drew nothing")


class Mirror:
    """What the desktop emulator showed (see :func:`mirror`)."""

    pixels = None
    tops = None
    log = ""
    seed_ok = False
    start = None


def mirror(result, events, seed, settings, key_pins, nvm=None):
    """Replay ``result``'s session on ``tools/emulate``; return a :class:`Mirror`.

    ``events``: the picosim's script ``[(ms after t0, logical key, down)]``; ``nvm``:
    the device's nvm sector at reset (bytes; None: erased), e.g. a game chosen.
    A logged press is turned back into the pad button that makes it with the
    firmware's own mapping (``hw.games``: the 2x4 game's positions, the row's piles).
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from hw.board.profiles import KEY_START
    from tools.emulate.keys import logical_keys
    from tools.emulate.main import Emulator

    dev_seed, dev_start, dev_presses = last_match(result.data)
    if dev_start is None:
        raise ValueError("the device's log has no game")
    offset = analyze.ticks_offset(result, key_pins)
    if offset is None:
        raise ValueError("no scripted press found in the device's log")
    dev_end = round(result.ms(result.done["t"]) + offset) % WRAP
    shift = first_frame_ms(result)
    names = {key: name for name, key in logical_keys().items()}
    # The match's presses: pad edges after the last scripted START (the menu's own pad
    # keys before it are played as scripted keys, like START).
    last_start = max((ms for ms, key, down in events if key == KEY_START and down), default=0)
    match_ms = result.ms(min(e["t"] for e in result.edges if e["pin"] in
                             {key_pins[seat * 8 + b] for seat in range(2) for b in range(8)}
                             and not e["high"]
                             and result.ms(e["t"]) > last_start)) if dev_presses else None
    before = [(ms, key, down) for ms, key, down in events
              if match_ms is None or ms < match_ms]
    out = Mirror()
    nvm_path = None
    if nvm is not None:
        import tempfile

        handle, nvm_path = tempfile.mkstemp(suffix=".nvm")
        os.write(handle, bytes(nvm))
        os.close(handle)
    with _environment(settings):
        emu = Emulator(virtual=True, seed=seed, nvm_path=nvm_path, until_ms=None)
        try:
            emu.add_script([(max(0, round(ms - shift)), names[key], down)
                            for ms, key, down in before])
            state = {}

            def watch(e, now):
                if "start" in state:
                    return
                _, start, _ = last_match(bytes(e.port.written))
                got_seed = last_match(bytes(e.port.written))[0]
                if start is None or got_seed != dev_seed:
                    return
                state["start"] = start
                origin = (start - e.clock.start) % WRAP
                scanner = e.app.buttons.scanner
                kind, game = e.app.kind, e.app.game
                for t, seat, pos in dev_presses:
                    delta = (t - dev_start) % WRAP
                    key = seat * 8 + next(b for b in range(8)
                                          if kind.target(game, seat, b) == pos)
                    tick = (start + delta) % WRAP
                    e.schedule(origin + delta,
                               lambda e, k=key, tk=tick: scanner.press(k, tk))
                    e.schedule(origin + delta + HOLD_MS,
                               lambda e, k=key, tk=tick: scanner.release(k, tk + HOLD_MS))
                e.until_ms = origin + (dev_end - dev_start) % WRAP
            emu.every_loop.append(watch)
            emu.until_ms = round(result.ms(result.done["t"]) - shift) + 60000  # safety stop
            emu.run()
            out.pixels = emu.display.pixels()
            out.tops = list(emu.app.game.tops)
            out.log = bytes(emu.port.written).decode("utf-8", "replace")
            out.seed_ok = "start" in state
            out.start = state.get("start")
        finally:
            emu.close()
            if nvm_path is not None:
                os.remove(nvm_path)
    return out
