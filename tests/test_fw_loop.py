"""The whole firmware loop on CPython: scripted pads in, serial log out, replayed.

Every test runs the real hw/ firmware (built by hw.main.build as code.py does) on
the cpstubs keypad/supervisor/usb_cdc and Blinka's displayio. The central check:
the log the firmware streamed over usb_cdc.data, replayed on a fresh engine, gives
exactly the trace the firmware's own engine produced.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from fw_rig import WRAP, Rig, key_for, replay, split_matches

from hw.app.modes import DONE, GAME, MENU, READY, RESULT
from hw.board.profiles import KEY_START

ROOT = Path(__file__).resolve().parent.parent


def play_scripted_match(rig, limit_ms=400000):
    """Both pads play until the match is won, with ties, simultaneous presses,
    illegal presses, a queue overflow and a stale timestamp along the way."""
    game = rig.game
    k = 0
    wait = 0
    burst_done = False
    stale_done = False
    spent = 0
    while rig.app.mode != DONE:
        assert spent < limit_ms, "the match did not end"
        if rig.app.mode == GAME and game.phase == 2 and wait <= 0:
            cov = rig.coverable()
            now = rig.now
            if cov:
                k += 1
                if k % 7 == 0:  # both on the same position, same scan: a tie
                    rig.press_pos(0, cov[0], now)
                    rig.press_pos(1, cov[0], now)
                elif k % 7 == 1 and len(cov) > 1:  # same scan, different positions
                    rig.press_pos(0, cov[0], now)
                    rig.press_pos(1, cov[-1], now)
                elif k % 11 == 5:  # A presses a position that is not coverable
                    bad = [p for p in range(8) if p not in cov]
                    rig.press_pos(0, bad[0], now)
                else:
                    rig.press_pos(k & 1, cov[k % len(cov)], now)
                wait = 40
            if k == 12 and not burst_done:
                burst_done = True
                events = rig.scanner.events
                for i in range(40):  # 80 events in one scan: the queue holds 64
                    key = 8 + (i % 8)
                    events.inject(key, True, now)
                    events.inject(key, False, now)
            if k == 20 and not stale_done:
                stale_done = True
                # An event stamped behind the engine's clock (a scanner should never
                # do this): the firmware clamps it to the clock and says so.
                rig.scanner.events.inject(key_for(1, 0), True, (game.clock - 50) % WRAP)
                rig.scanner.events.inject(key_for(1, 0), False, game.clock)
        rig.step(4)
        wait -= 4
        spent += 4
    assert burst_done and stale_done


@pytest.fixture(scope="module")
def played():
    """One full best-of-3 match that starts 4 s before the 2**29 wrap."""
    rig = Rig(start=WRAP - 4000)
    rig.start_match()
    play_scripted_match(rig)
    return rig


def test_streamed_log_replays_to_the_device_trace(played):
    matches = split_matches(played.log_text())
    assert len(matches) == 1
    device = played.device_trace()
    assert replay(matches[0]) == device
    events = [json.loads(line) for line in device]
    assert events[-1]["ev"] == "match"
    assert max(events[-1]["score"]) == 2


def test_the_log_covers_ties_simultaneity_locks_and_the_wrap(played):
    events = [json.loads(line) for line in played.device_trace()]
    results = [e["r"] for e in events if e["ev"] == "press"]
    assert "tie" in results
    assert "illegal" in results
    assert "locked" in results or results.count("illegal") > 1
    # A and B pressed in the same scan: one tick judged both presses.
    same_tick = False
    for i in range(len(events) - 2):
        a, b, c = events[i], events[i + 1], events[i + 2]
        if (a["ev"] == "press" and b["ev"] == "press" and c["ev"] == "tick"
                and a["t"] == b["t"] == c["t"] and a["p"] != b["p"]
                and a["r"] == b["r"] == "cover"):
            same_tick = True
    assert same_tick
    times = [int(line.split()[1]) for line in played.log_text().splitlines()
             if line.startswith("press ")]
    assert max(times) > WRAP - 4000 and min(times) < 100000  # played across the wrap


def test_overflow_and_clamp_are_counted_and_logged(played):
    app = played.app
    text = played.log_text()
    assert app.overflows == 1
    assert played.scanner.events.dropped >= 80 - 64  # plus what was queued already
    assert "# keypad queue overflowed: presses were lost" in text
    assert app.clamps == 1
    clamp = [line for line in text.splitlines() if "clamped" in line]
    assert len(clamp) == 1
    # The clamped press is logged at the clock time, never behind an earlier line.
    lines = text.splitlines()
    i = lines.index(clamp[0])
    nxt = next(line for line in lines[i + 1:] if line.startswith("press "))
    assert nxt.split()[2] == "B"


def test_every_line_is_log_format_and_times_never_go_back(played):
    last = None
    for line in played.log_text().splitlines():
        kind = line.split(" ")[0]
        assert kind in ("CSLOG", "rules", "seed", "start", "press", "clock", "#"), line
        if kind in ("start", "press", "clock"):
            t = int(line.split()[1])
            if last is not None:
                assert ((t - last + (1 << 28)) & (WRAP - 1)) - (1 << 28) >= 0
            last = t


def test_replay_tool_on_the_streamed_log(played, tmp_path):
    log = tmp_path / "match.cslog"
    log.write_text(split_matches(played.log_text())[0])
    out = subprocess.run([sys.executable, "-m", "tools.replay", str(log)], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == played.device_trace()


def test_each_game_has_a_fresh_seed_and_the_match_header_once(played):
    text = played.log_text()
    seeds = [line for line in text.splitlines() if line.startswith("seed ")]
    starts = [line for line in text.splitlines() if line.startswith("start ")]
    assert len(seeds) == len(starts) >= 2
    assert len(set(seeds)) == len(seeds)
    assert text.count("CSLOG 1\n") == 1
    assert text.count("\nrules ") == 1


def test_same_timestamp_presses_are_one_tick_whatever_the_key_order():
    """B's key is read before A's (B's event queued first) in the same scan: the
    engine still judges them together, as one tick."""
    traces = []
    for order in ((0, 1), (1, 0)):
        rig = Rig(start=5000, seed=777)
        rig.start_match()
        cov = rig.coverable()
        pos_a, pos_b = cov[0], cov[-1]
        now = rig.now + 1
        for seat in order:  # raw events, queued in this order, stamped by one scan
            key = key_for(seat, pos_a if seat == 0 else pos_b)
            rig.scanner.events.inject(key, True, now)
            rig.scanner.events.inject(key, False, now + 30)
        rig.run(100)
        events = [json.loads(line) for line in rig.device_trace()]
        ticks = [e for e in events if e["ev"] == "tick"]
        assert len(ticks) == 1 and ticks[0]["t"] == now
        presses = [e for e in events if e["ev"] == "press"]
        assert {e["p"] for e in presses} == {"A", "B"} and {e["t"] for e in presses} == {now}
        traces.append(ticks[0])
        assert replay(split_matches(rig.log_text())[0]) == rig.device_trace()
    # Same layout and packs after the tick, whichever key came first.
    if pos_a != pos_b:
        assert traces[0]["tops"] == traces[1]["tops"]


def test_clock_lines_let_the_replay_reach_the_device_state():
    """With no presses at all, the deal ends, the table sticks, deals again...: all
    through ``advance``; the log's clock lines make the replay reach the same state."""
    rig = Rig(start=WRAP - 1500, seed=4242)
    rig.start_match()
    rig.run(6000, dt=7)
    text = split_matches(rig.log_text())[0]
    assert "\nclock " in text
    device = rig.device_trace()
    assert replay(text) == device
    assert json.loads(device[0])["ev"] == "deal"


def test_presses_outside_a_game_are_not_played_or_logged():
    rig = Rig(start=1000)
    rig.tap(key_for(0, 0))  # on the title screen: opens the menu
    rig.run(50)
    assert rig.app.mode == MENU
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.mode == READY
    rig.press_pos(0, 0)  # during "get ready"
    rig.run(50)
    assert "press " not in rig.log_text()
    rig.run_until(lambda: rig.app.mode == GAME)
    assert rig.game.phase in (1, 2)


def test_a_drawn_game_is_followed_by_a_new_shuffle():
    """A deadlock draw (limit 1 stuck layout, set through the menu's rules) does not
    count: the score stays 0-0 and the next game is dealt from a new seed."""
    from engine.grid_rules import GridRules

    rig = Rig(start=1000, seed=99)
    rig.app.menu.rules = lambda: GridRules(deadlock=1)
    rig.start_match()
    game = rig.game
    spent = 0
    while rig.app.mode != RESULT:
        assert spent < 120000
        cov = rig.coverable()
        if cov and spent % 60 == 0 and game.phase == 2:
            rig.press_pos(spent // 60 % 2, cov[0])
        rig.step(5)
        spent += 5
    assert game.result == 2 and game.why == 2  # draw by deadlock
    assert rig.app.message(rig.now) == 8  # MSG_DEADLOCK
    assert game.score == [0, 0]
    rig.run_until(lambda: rig.app.mode == GAME, limit=10000)
    text = rig.log_text()
    assert "deadlock=1 " in text
    seeds = [line for line in text.splitlines() if line.startswith("seed ")]
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    assert replay(split_matches(text)[0]) == rig.device_trace()
