"""The shared-row game in the desktop emulator (tools/emulate, Blinka displayio):
chosen in the menu with the keyboard, played with the key map, remembered in the nvm
file, and every match streamed replays to the emulator's live trace."""

from pathlib import Path

from engine.trace import replay_text

RUN_MS = 40000


def row_script():
    """Title -> menu; Game: Shared row; Piles: 6; match; then both players' keys."""
    lines = ["300 tap START",  # title -> menu (cursor on "Players")
             "400 tap q", "450 tap q",  # A's up, up: the 2x4 game's option, the Game heading
             "500 tap r",  # A's +: Shared row
             "600 tap w", "700 tap r",  # Piles: 4 -> 6
             "1000 tap START"]  # the match; its first game deals 1.5 s later
    for i, t in enumerate(range(3000, RUN_MS - 1000, 45)):
        lines.append("%d tap A%d" % (t, i % 8))
        lines.append("%d tap B%d" % (t + 20, (5 * i + 3) % 8))
    return "\n".join(lines) + "\n"


def test_row_game_in_the_emulator_replays_and_is_remembered(tmp_path):
    from hw.menu import Menu
    from tools.emulate import script
    from tools.emulate.main import Emulator
    from tools.emulate.nvm import FileNVM

    nvm = str(tmp_path / "nvm.bin")
    trace_path = tmp_path / "live.trace"
    log_path = tmp_path / "tee.log"
    emu = Emulator(virtual=True, seed=99, nvm_path=nvm, until_ms=RUN_MS,
                   trace_path=str(trace_path), log_path=str(log_path))
    emu.add_script(script.parse(row_script()))
    shown = []

    def probe(e, now):  # the screen follows the engine, pile for pile
        app = e.app
        if app and app.mode == 3 and app.kind.KEY == "row" and e.loops % 50 == 0:
            view = app.table
            shown.append(all(view.shown_top(p) == app.game.tops[p]
                             for p in range(app.game.piles)))
    emu.every_loop.append(probe)
    try:
        app = emu.run()
    finally:
        emu.close()
    assert app.kind.KEY == "row" and app.game.piles == 6
    assert shown and all(shown)
    text = log_path.read_text()
    matches = ["CSLOG 1" + m for m in text.split("CSLOG 1")[1:]]
    assert matches
    assert matches[0].splitlines()[1].startswith("rules game=row piles=6 match=either redeal=all")
    presses = [l.split() for m in matches for l in m.splitlines() if l.startswith("press ")]
    assert {p[2] for p in presses} == {"A", "B"}
    assert {int(p[3]) for p in presses} == set(range(6))  # the key map reaches every pile
    replayed = []
    for m in matches:
        trace, err = replay_text(m)
        assert err is None, err
        replayed += trace
    live = Path(trace_path).read_text().splitlines()
    assert replayed == live  # the emulated games, card for card
    menu = Menu(levels=("a", "b", "c"))
    menu.load(FileNVM(nvm))
    assert menu.kind().KEY == "row" and menu.option(0) == 2  # remembered: Shared row, 6
