"""Speed in the desktop emulator (tools/emulate): chosen in the menu with the keyboard,
played with the card-then-pile keys, the log replays to the emulated engine's live
trace, the presses are stamped with the key that made the play, the picture shows
the engine's hands and piles."""

import os
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json  # noqa: E402
import io  # noqa: E402

WRAP = 1 << 29
A_CARDS, A_PILES = "asdfe", "qr"  # cards 0-4; pile left, pile right (docs/EMULATOR.md)
B_CARDS, B_PILES = "poiuk", ";j"


def script_text():
    lines = ["300 tap START",  # title -> menu, cursor on Players
             "400 tap a", "450 tap a",  # A's up, up: the 2x4 game's option, the Game item
             "500 tap f", "600 tap f",  # 2x4 -> Shared row -> Speed
             "900 tap START"]  # a Speed match; its first game deals 1.5 s later
    for i, t in enumerate(range(3000, 16000, 70)):
        cards, piles, seat_t = (A_CARDS, A_PILES, t) if i % 2 == 0 else (B_CARDS, B_PILES, t + 30)
        key = piles[(i // 6) % 2] if i % 3 == 2 else cards[(i * 7 // 2) % 5]
        lines.append("%d tap %s" % (seat_t, key))
    return "\n".join(lines) + "\n"


def test_speed_in_the_emulator_replays_and_is_drawn(tmp_path):
    from engine.cards import NO_CARD
    from tools.emulate import script
    from tools.emulate.main import Emulator
    from tools.replay import replay

    trace_path = tmp_path / "live.trace"
    emu = Emulator(virtual=True, seed=77, nvm_path=str(tmp_path / "nvm.bin"), until_ms=17000,
                   trace_path=str(trace_path))
    parsed = script.parse(script_text())
    emu.add_script(parsed)
    seen = {}

    def probe(e, now):
        app = e.app
        if app is None or app.kind.KEY != "speed" or app.table is None:
            return
        game = app.game
        view = app.table
        app.table.update(game, now, app.message(now), app.hints)
        seen["hands_ok"] = seen.get("hands_ok", True) and all(
            view.shown_hand(s, k) == game.hands[s * 5 + k] for s in range(2) for k in range(5))
        seen["tops_ok"] = seen.get("tops_ok", True) and all(
            view.shown_top(p) == game.tops[p] for p in range(2))
    emu.every_loop.append(probe)
    try:
        app = emu.run()
        start = emu.clock.start
    finally:
        emu.close()
    assert app.kind.KEY == "speed" and seen["hands_ok"] and seen["tops_ok"]
    log = bytes(emu.port.written).decode()
    match = log[log.rindex("CSLOG 1"):]
    assert "rules game=speed " in match
    out = io.StringIO()
    assert replay(io.StringIO(match), out) == 0
    replayed = [json.loads(line) for line in out.getvalue().splitlines()]
    live = [json.loads(line) for line in Path(trace_path).read_text().splitlines()]
    assert live[-len(replayed):] == replayed  # the log replays to the emulated game
    presses = [e for e in replayed if e["ev"] == "press"]
    assert sum(1 for e in presses if e["r"] == "cover") >= 5
    # Each play is stamped with the tick at which the key that made it was read: a
    # card key (one press) or a pile key (the second press); the keys are 30+ ms apart.
    ticks = {}
    for ms, name, down in parsed:
        if down and name not in ("START",):
            ticks.setdefault((start + ms) % WRAP, set()).add(name)
    kinds = set()
    for e in presses:  # the key read last before the press's tick (a pass reads it <10 ms on)
        near = [(e["t"] - t) % WRAP for t in ticks if (e["t"] - t) % WRAP < 10]
        assert near, e
        names = ticks[(e["t"] - min(near)) % WRAP]
        kinds |= {"card" if n in A_CARDS + B_CARDS else "pile" for n in names}
    assert kinds == {"card", "pile"}
    assert app.game.hands[0] != NO_CARD or app.game.draws[0] == 0
