"""The desktop emulator (tools/emulate) running the unchanged firmware, headless.

One scripted two-player session (virtual clock, across the 2**29 wrap) is shared by
most tests: its serial log is read back through the pseudo-terminal with pyserial
and replayed; screenshots taken mid-game are decoded card by card and compared with
the engine's tops; both players' keys read in one pass reach the engine as one
tick; every dirty-rectangle refresh equals a full redraw.
"""

import os
import subprocess
import sys
import threading
from pathlib import Path

os.environ["SDL_VIDEODRIVER"] = "dummy"  # no window, whatever the session has
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
import serial  # noqa: E402  (pyserial)

ROOT = Path(__file__).resolve().parent.parent
PROBES_MS = (2950, 5000, 8000, 12000, 17000, 21500, 27000, 33000)
RUN_MS = 38000


def blind_script():
    """Title -> menu; penalty off; match; then both players hammer their keys."""
    lines = ["300 tap START",  # title -> menu (cursor on "Players")
             "400 tap w", "500 tap w", "600 tap w",  # A's "down" x3: Match, Ties, Penalty
             "700 tap e", "800 tap e",  # A's "-" x2: 500 ms -> 250 ms -> off
             "1100 tap START"]  # begin the match; its first game deals 1.5 s later
    for i, t in enumerate(range(3000, RUN_MS - 1000, 45)):
        lines.append("%d tap A%d" % (t, i % 8))
        lines.append("%d tap B%d" % (t + 20, (5 * i + 3) % 8))
        if i % 40 == 7:  # now and then both in the same millisecond
            lines.append("%d tap A%d" % (t + 30, (i * 3) % 8))
            lines.append("%d tap B%d" % (t + 30, (i * 3) % 8))
    return "\n".join(lines) + "\n"


class Session:
    """What one emulated run produced."""


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    import pygame

    from engine.family import PLAY
    from tools.emulate import script
    from tools.emulate.keys import POSITION_KEYS, key_event
    from tools.emulate.main import Emulator

    tmp = tmp_path_factory.mktemp("emulate")
    out = Session()
    out.nvm = str(tmp / "nvm.bin")
    out.trace_path = str(tmp / "live.trace")
    emu = Emulator(virtual=True, seed=1234, nvm_path=out.nvm, until_ms=RUN_MS,
                   trace_path=out.trace_path, log_path=str(tmp / "tee.log"))
    emu.add_script(script.parse(blind_script()))
    out.emu = emu

    # The serial port, read like a board's: pyserial on the pty, in a thread.
    received = bytearray()
    done = threading.Event()
    tty = serial.Serial(emu.port.path, timeout=0.02)

    def reader():
        while not done.is_set():
            received.extend(tty.read(4096))
        received.extend(tty.read(1 << 16))
    thread = threading.Thread(target=reader)
    thread.start()

    out.shots = []  # (ms, pixels, tops, shown tops, pixels after a full redraw)
    for ms in PROBES_MS:
        def shoot(e, ms=ms):
            game = e.app.game
            before = e.display.pixels()
            e.display.full_refresh()
            out.shots.append((ms, before, bytes(game.tops), e.app.table, e.display.pixels(),
                              e.app.mode))
        emu.schedule(ms, shoot)

    out.together = None  # (tick, position) of the same-pass presses

    def both_at_once(e, now):
        game = e.app.game if e.app else None
        if out.together or game is None or e.app.mode != 3 or game.phase != PLAY:
            return
        coverable = game.coverable
        if not coverable or e.elapsed() < 2700:
            return
        pos = (coverable & -coverable).bit_length() - 1
        for seat in (0, 1):  # queued now, read by the same pass below
            pygame.event.post(key_event(POSITION_KEYS[seat][pos], True))
        for seat in (0, 1):
            e.schedule(e.elapsed() + 40,
                       lambda e2, s=seat: pygame.event.post(key_event(POSITION_KEYS[s][pos], False)))
        out.together = (now, pos)
    emu.every_loop.append(both_at_once)

    out.areas = []  # pixels redrawn by each refresh during play

    def areas(e, now):
        if e.app and e.app.mode == 3 and e.display.refreshes != getattr(e, "_seen", -1):
            e._seen = e.display.refreshes
            out.areas.append(sum(r.w * r.h for r in e.display.changed))
    emu.every_loop.append(areas)

    out.app = emu.run()
    out.penalty = out.app.game.rules.penalty
    done.set()
    thread.join()
    tty.close()
    out.log = received.decode()
    out.written = bytes(emu.port.written).decode()
    out.tee = (tmp / "tee.log").read_text()
    out.log_path = tmp / "serial.log"
    out.log_path.write_text(out.log)
    out.live = Path(out.trace_path).read_text().splitlines()
    out.size = (emu.display.width, emu.display.height)
    emu.close()
    return out


# ------------------------------------------------------------------ the log


def test_serial_log_arrives_whole_through_the_pty(session):
    assert session.log.startswith("CSLOG 1\n")
    assert session.log == session.written == session.tee
    presses = [l for l in session.log.splitlines() if l.startswith("press ")]
    assert {l.split()[2] for l in presses} == {"A", "B"}
    assert len(presses) > 200


def test_log_replays_to_the_emulated_games_trace(session):
    replayed = subprocess.run([sys.executable, "-m", "tools.replay", str(session.log_path)],
                              cwd=ROOT, capture_output=True, text=True, check=True)
    trace = replayed.stdout.splitlines()
    assert trace == session.live
    assert session.penalty == 0  # the script turned the penalty off in the menu
    for word in ('"r": "cover"', '"r": "illegal"', '"r": "tie"', '"ev": "stuck"'):
        assert any(word in line for line in trace), word


def test_session_crosses_the_tick_wrap(session):
    from tools.emulate.clock import WRAP

    times = [int(l.split()[1]) for l in session.log.splitlines()
             if l.split()[:1] in (["press"], ["start"], ["clock"])]
    assert times[0] > WRAP - 20000
    wraps = [i for i in range(1, len(times)) if times[i] < times[i - 1]]
    assert len(wraps) == 1 and times[-1] < 20000


def test_both_players_keys_in_one_pass_are_one_tick(session):
    import json

    now, pos = session.together
    # Both keys went down in one pass; the scan debounces them together (4-6 ms later).
    stamps = [t % (1 << 29) for t in range(now, now + 10)
              if ("press %d A %d" % (t % (1 << 29), pos)) in session.log]
    assert len(stamps) == 1
    now = stamps[0]
    assert ("press %d B %d" % (now, pos)) in session.log
    events = [json.loads(l) for l in session.live]
    at = [e for e in events if e["t"] == now and e["ev"] in ("press", "tick")]
    assert [(e["ev"], e.get("p"), e.get("r")) for e in at] == [
        ("press", "A", "tie"), ("press", "B", "tie"), ("tick", None, None)]


# --------------------------------------------------------------- the screen


def _mask_of(tile_bitmap, index, tile_w, tile_h, scale, flipped):
    """The ink mask of tile ``index`` of a sheet, scaled (and turned for seat B)."""
    cells = np.array([[tile_bitmap[index * tile_w + x, y] for x in range(tile_w)]
                      for y in range(tile_h)])
    if flipped:
        cells = cells[::-1, ::-1]
    return np.kron(cells, np.ones((scale, scale), int))


def decode_card(pixels, table, pos):
    """Read the card drawn at ``pos`` off a screenshot: a card code, or None if empty.

    Each seat's index (its rank and suit tiles) is cut out of the picture, turned back
    for seat B (as B reads it), and its ink matched against the sheets' tiles: exactly
    one rank and one suit must match, and both seats must read the same card.
    """
    from hw.draw import gfx

    card = table.cards[pos]
    scale = card.ranks[0].tile_height // gfx.RANK_TILE_H
    suit_scale = card.indices[0][1].tile_height // gfx.SUIT_SIZE
    face = np.array([(gfx.FACE >> 16) & 0xF8, (gfx.FACE >> 8) & 0xFC, gfx.FACE & 0xF8])
    read = []
    for seat, (rank_tile, suit_tile) in enumerate(card.indices):
        found = []
        for tile, sheet, tile_w, tile_h, count, s in (
                (rank_tile, gfx.rank_sheet(), gfx.RANK_TILE_W, gfx.RANK_TILE_H, 13, scale),
                (suit_tile, gfx.suit_sheet(), gfx.SUIT_SIZE, gfx.SUIT_SIZE, 4, suit_scale)):
            x, y = card.x + tile.x, card.y + tile.y
            region = pixels[y:y + tile_h * s, x:x + tile_w * s].astype(int)
            if seat == 1:
                region = region[::-1, ::-1]  # read seat B's index the way B reads it
            ink = (np.abs((region & [0xF8, 0xFC, 0xF8]) - face).sum(axis=2) > 0).astype(int)
            if ink.all():
                return None  # no face colour at all: an empty position (felt)
            matches = [i for i in range(count)
                       if np.array_equal(ink, np.sign(_mask_of(sheet, i, tile_w, tile_h, s,
                                                               False)))]
            assert len(matches) == 1, (pos, seat, matches)
            red = region[ink == 1][:, 0].mean() > 150
            found.append((matches[0], red))
        (rank, rank_red), (suit, suit_red) = found
        assert rank_red == suit_red == (suit in (1, 2))  # diamonds and hearts in red
        read.append(rank * 4 + suit)
    assert read[0] == read[1], (pos, read)  # both seats read the same card
    return read[0]


def test_screenshots_show_the_engines_tops(session):
    from engine.cards import NO_CARD

    from hw.app.modes import DONE, GAME, RESULT

    assert len(session.shots) == len(PROBES_MS)
    checked = set()
    for ms, pixels, tops, table, _, mode in session.shots:
        if mode not in (GAME, RESULT, DONE):
            continue
        shown = [decode_card(pixels, table, pos) for pos in range(8)]
        assert shown == [None if t == NO_CARD else t for t in tops], ms
        checked.add(tops)
    assert len(checked) >= 5  # five different layouts, read card by card


def test_dirty_refresh_equals_full_redraw(session):
    for ms, dirty, _, _, full, _ in session.shots:
        assert np.array_equal(dirty, full), ms
    screen = session.size[0] * session.size[1]
    drawn = sorted(a for a in session.areas if a)
    assert drawn and drawn[len(drawn) // 2] < screen // 4  # a typical frame: a card or two
    assert 0 in session.areas  # most loops change nothing and draw nothing


def test_odd_sized_areas_refresh_exactly():
    """A 3x3 (odd pixel count) tile changing: the dirty path draws it right."""
    import displayio

    from tools.emulate.display import EmuDisplay

    displayio.release_displays()
    display = EmuDisplay(31, 17, scale=1)
    pal = displayio.Palette(3)
    pal[0], pal[1], pal[2] = 0x000000, 0xFF0000, 0x00FF00
    root = displayio.Group()
    small = displayio.Bitmap(3, 3, 3)
    root.append(displayio.TileGrid(small, pixel_shader=pal, x=5, y=7))
    display.root_group = root
    display.refresh()
    for i in range(9):
        small[i % 3, i // 3] = 1 + i % 2
        display.refresh()
        assert all((r.w * r.h) <= 9 for r in display.changed)
        dirty = display.pixels()
        display.full_refresh()
        assert np.array_equal(dirty, display.pixels())
    assert display.pixels()[7, 5].tolist() == [255, 0, 0]
    displayio.release_displays()


# ---------------------------------------------------------- nvm, script, CLI


def test_menu_choices_persist_in_the_nvm_file(session):
    data = Path(session.nvm).read_bytes()
    assert len(data) == 4096 and data[0:3] == b"CS\x03"  # hw.store.record saved the choices


def test_nvm_file_round_trip(tmp_path):
    from tools.emulate.nvm import FileNVM

    path = str(tmp_path / "sub" / "nvm.bin")
    nvm = FileNVM(path, size=16)
    assert nvm[0] == 0xFF
    nvm[0:3] = b"\xc5\x01\x02"
    assert FileNVM(path, size=16)[0:3] == b"\xc5\x01\x02"
    with pytest.raises(ValueError):
        nvm[0:2] = b"\x00"


def test_script_format():
    from tools.emulate.script import ScriptError, parse

    events = parse("# warm-up\n10 tap START\n20 tap A3 60\n20 down ;\n30 q up\n")
    assert events == [(10, "space", True), (20, "f", True), (20, ";", True),
                      (30, "q", False), (50, "space", False), (80, "f", False)]
    for bad in ("x tap A1", "5 tap A9", "5 jump A1", "-1 tap A1", "5 tap A1 0"):
        with pytest.raises(ScriptError, match="line 1"):
            parse(bad)


def test_make_play_without_a_display_records_the_attract_mode(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("SDL_VIDEODRIVER", None)
    env.pop("CSPEED_ATTRACT_S", None)
    run = subprocess.run([sys.executable, "-m", "tools.emulate", "--seconds", "90", "--seed", "3"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "no display found" in run.stdout
    assert "attract mode (CPU vs CPU) starts after 20 s" in run.stdout
    demo = tmp_path / "build" / "emulator-play"
    assert "animated GIF: build/emulator-play/demo.gif" in run.stdout
    from PIL import Image

    gif = Image.open(demo / "demo.gif")
    assert gif.n_frames > 10 and gif.size == (320, 240)
    assert gif.info["duration"] == 3000  # the 20 s idle title, cut short in the GIF
    frames = sorted((demo / "frames").glob("frame_*.png"))
    assert len(frames) == gif.n_frames
    assert int(frames[1].stem.split("_")[1]) >= 20000  # nothing moved before the demo
    log = (demo / "match.log").read_text().splitlines()
    assert log[:2] == ["# attract", "CSLOG 1"] and log.count("CSLOG 1") == 1
    assert {l.split()[2] for l in log if l.startswith("press ")} == {"A", "B"}
    ran = float(run.stdout.split("ran ")[1].split(" s ")[0])
    assert ran < 90  # stopped 3 s after the demo match was won
    replay = subprocess.run([sys.executable, "-m", "tools.replay", str(demo / "match.log")],
                            cwd=ROOT, capture_output=True, text=True)
    assert replay.returncode == 0 and '"r": "cover"' in replay.stdout
    assert '"ev": "match"' in replay.stdout


def test_attract_in_the_emulator_and_any_key_returns_to_the_title(monkeypatch):
    """Idle title -> the firmware's attract mode; a key of the key map ends it."""
    from engine.family import PLAY
    from hw.app.modes import GAME, TITLE
    from tools.emulate import script
    from tools.emulate.main import Emulator

    monkeypatch.setenv("CSPEED_ATTRACT_S", "2")  # os.getenv, as settings.toml on a board
    emu = Emulator(virtual=True, seed=5, until_ms=9000)
    emu.add_script(script.parse("8000 tap k\n"))  # B's key over position 1
    seen = {}

    def probe(e, now):
        app = e.app
        if app is None:
            return
        if app.attract and app.mode == GAME and app.game.phase == PLAY:
            seen.setdefault("tops", bytes(app.game.tops))
            seen["last_tops"] = bytes(app.game.tops)
            seen["covers"] = sum(app.game.covers)
    emu.every_loop.append(probe)
    try:
        app = emu.run()
    finally:
        emu.close()
    assert seen["covers"] > 0 and seen["tops"] != seen["last_tops"]
    assert app.mode == TITLE and not app.attract
    written = bytes(emu.port.written).decode().splitlines()
    assert written[:2] == ["# attract", "CSLOG 1"]
    assert written[-1] == "# attract stopped (button)"  # and nothing after it
    key_tick = (emu.clock.start + 8000) % (1 << 29)
    presses = [int(l.split()[1]) for l in written if l.startswith("press ")]
    assert presses and key_tick not in presses  # the bots pressed; the key was not played
