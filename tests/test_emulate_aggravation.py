"""Aggravation in the desktop emulator (tools/emulate): chosen in the menu with the
keyboard, played with the column-then-line keys, the log replays to the emulated engine's
live trace, each press is stamped with the key that made it (a column key, or a line key
after a selected column), and the picture shows the engine's rows."""

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import io  # noqa: E402
import json  # noqa: E402

WRAP = 1 << 29
# Each pad's buttons 0-7 (near row from the seat's left, then far row): docs/EMULATOR.md
A_KEYS = "asdfqwer"
B_KEYS = "poiu;lkj"


def script_text():
    lines = ["300 tap START",  # title -> menu, cursor on Players
             "400 tap a", "450 tap a",  # up, up: the Game item
             "500 tap f", "600 tap f", "700 tap f",  # 2x4 -> Shared row -> Speed -> Aggravation
             "900 tap START"]  # a match; its first game deals 1.5 s later
    for i, t in enumerate(range(3000, 20000, 60)):
        keys, seat_t = (A_KEYS, t) if i % 2 == 0 else (B_KEYS, t + 25)
        lines.append("%d tap %s" % (seat_t, keys[(i * 5 // 2) % 8]))
    return "\n".join(lines) + "\n"


def test_aggravation_in_the_emulator_replays_and_is_drawn(tmp_path):
    from tools.emulate import script
    from tools.emulate.main import Emulator
    from tools.replay import replay

    trace_path = tmp_path / "live.trace"
    emu = Emulator(virtual=True, seed=41, nvm_path=str(tmp_path / "nvm.bin"), until_ms=21000,
                   trace_path=str(trace_path))
    parsed = script.parse(script_text())
    emu.add_script(parsed)
    seen = {"frames": 0, "selected": 0}

    def probe(e, now):
        app = e.app
        if app is None or app.kind.KEY != "aggravation" or app.table is None:
            return
        game = app.game
        view = app.table
        view.update(game, now, app.message(now), app.hints, app.feedback)
        ok = all(view.shown_top(owner * 14 + k) == game.tops[owner * 14 + k]
                 for owner in range(2) for k in range(game.row_len[owner]))
        seen["tops_ok"] = seen.get("tops_ok", True) and ok
        seen["frames"] += 1
        if any(not label.hidden for label in view.labels):
            seen["selected"] += 1
    emu.every_loop.append(probe)
    try:
        app = emu.run()
        start = emu.clock.start
    finally:
        emu.close()
    assert app.kind.KEY == "aggravation" and seen["tops_ok"] and seen["frames"] > 100
    assert seen["selected"] > 0  # a column was selected (its labels drawn) at some point
    log = bytes(emu.port.written).decode()
    match = log[log.rindex("CSLOG 1"):]
    assert "rules game=aggravation frustration=0 target=10 call=400 " in match
    out = io.StringIO()
    assert replay(io.StringIO(match), out) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    live = [json.loads(line) for line in Path(trace_path).read_text().splitlines()]
    assert live[-len(replayed):] == replayed  # the log replays to the emulated game
    presses = [e for e in replayed if e["ev"] == "press"]
    assert sum(1 for e in presses if e["r"] == "cover") >= 5
    # Each press is stamped with the tick at which the key that made it was read; the
    # keys are 25+ ms apart, so the key is known: a press's stack is in that key's
    # column, or (a line key, after a selection) that key chose its line.
    from hw.games.aggravation.keys import column_button, line_of

    ticks = {}
    for ms, name, down in parsed:
        if down and name != "space":
            ticks.setdefault((start + ms) % WRAP, []).append(name)
    kinds = set()
    for e in presses:
        near = [(e["t"] - t) % WRAP for t in ticks if (e["t"] - t) % WRAP < 10]
        assert near, e
        name = ticks[(e["t"] - min(near)) % WRAP][0]
        seat = "AB".index(e["p"])
        button = (A_KEYS if seat == 0 else B_KEYS).index(name.lower())
        if button == column_button(seat, e["pos"]):
            kinds.add("column")
        else:
            assert button == (column_button(seat, e["pos"]) & 4) + line_of(e["pos"]), e
            kinds.add("line")
    assert kinds == {"column", "line"}
