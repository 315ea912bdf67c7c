"""The shared-row game on the firmware (hw.games, hw.games.row.table): the menu chooses it and
its options, the pads press the piles as each seat sees them, the screen shows the
engine's row, the CPU plays it, attract mode plays its variations, and every streamed
log replays to the device's own trace."""

import json
import sys

import pytest

from fw_rig import Rig, menu_set, replay, split_matches
from engine.cards import NO_CARD
from engine.trace import Tracer
from hw.draw import gfx
from hw import menu as menu_mod
from hw.store import record as rec
from hw.app import App
from hw.app.match import DONE_MS as ATTRACT_DONE_MS
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw import games
from hw.games import grid as grid_kind, row as row_kind
from hw.games.row import row_button, row_seat_pile
from hw.board.profiles import KEY_START
from tools.cpstubs import microcontroller

ROW = games.index_of("row")
PILES, MATCH_BY, REDEAL = (menu_mod.OPTION + i for i in range(3))  # the row game's options
ROW_MODULES = ("engine.row", "engine.row_rules", "engine.row_bot", "hw.games.row.table")


def open_menu(rig):
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == MENU


def begin_row_match(rig, piles=1, match=0, redeal=0, wins=0, players=0):
    """Title -> menu -> the row game with these options -> READY; trace the new engine."""
    open_menu(rig)
    menu_set(rig, menu_mod.GAME, ROW)
    menu_set(rig, PILES, piles)
    menu_set(rig, MATCH_BY, match)
    menu_set(rig, REDEAL, redeal)
    menu_set(rig, menu_mod.MATCH, wins)
    menu_set(rig, menu_mod.PLAYERS, players)
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.mode == READY
    follow(rig)


def follow(rig):
    """The app made a new engine for the row game: trace that one from now on."""
    rig.game = rig.app.game
    Tracer(rig.game, rig.trace.append)


def check_row(rig):
    """Every pile and active card on the screen is the engine's, counts and locks too."""
    game = rig.game
    view = rig.app.table
    for pile in range(game.piles):
        assert view.shown_top(pile) == game.tops[pile]
        assert view.piles_b[pile].flipped and not view.piles_a[pile].flipped
        assert not view.piles_a[pile].group.hidden
    for pile in range(game.piles, 6):
        assert view.piles_a[pile].group.hidden and view.piles_b[pile].group.hidden
    for seat in range(2):
        assert view.shown_active(seat) == game.active[seat]
        assert view.actives[seat].flipped == (seat == 1)
        assert view.packs_text[seat].text == "Pack %d" % game.packs[seat]
        assert view.lock_text[seat].hidden == (not game.locked_at(seat, rig.now))


def button_for(piles, seat, pile):
    """The pad button of ``seat`` that presses ``pile`` (numbered from A's left)."""
    seat_pile = pile if seat == 0 else piles - 1 - pile
    return row_button(piles, seat_pile)


# ------------------------------------------------------------------ the pads


@pytest.mark.parametrize("piles", [3, 4, 6])
def test_each_pad_presses_the_piles_left_to_right_from_its_own_seat(piles):
    class Row:  # what target() reads
        pass

    game = Row()
    game.piles = piles
    for seat in range(2):
        pressed = [row_kind.target(game, seat, button) for button in range(8)]
        near = pressed[:4]
        # The near row: the seat's own left pile first (B sees the row reversed).
        mine = [p if seat == 0 else piles - 1 - p for p in range(min(piles, 4))]
        assert near[:len(mine)] == mine
        assert sorted(p for p in pressed if p >= 0) == sorted(set(p for p in pressed if p >= 0)) \
            or piles < 6  # with 6 piles each pile has exactly one button
        assert {p for p in pressed if p >= 0} == set(range(piles))  # every pile reachable
        if piles == 6:
            assert pressed[4] == pressed[5] == -1  # far row: its two left buttons unused
            far = pressed[6:]
            assert far == ([4, 5] if seat == 0 else [1, 0])  # the two right-hand piles
        else:
            assert pressed[4:4 + piles] == mine  # the far row repeats the near row
    for button in range(8):  # the 2x4 game's mapping is hw.board.pads.position
        from hw.board.pads import position
        for seat in range(2):
            assert grid_kind.target(None, seat, button) == position(seat, button)
    assert row_seat_pile(6, 7) == 5 and row_button(6, 5) == 7


# ------------------------------------------------------------------ the menu


def test_row_options_only_with_the_row_game_and_remembered():
    rig = Rig()
    open_menu(rig)
    lines = rig.app.menu_view.shown_lines()
    assert lines[0] == "Game: California Speed 2x4"
    assert not any(l.startswith(("Piles", "Match by", "If stuck")) for l in lines)
    menu_set(rig, menu_mod.GAME, ROW)
    rig.run(20)
    lines = rig.app.menu_view.shown_lines()
    assert lines[:4] == ["Game: Shared row", "Piles: 4", "Match by: rank or suit",
                         "If stuck: all piles"]
    menu_set(rig, PILES, 2)  # 6
    menu_set(rig, MATCH_BY, 2)  # rank or suit
    menu_set(rig, REDEAL, 1)  # two piles
    menu_set(rig, menu_mod.HINTS, 1)  # scrolled down: the window follows the cursor
    rig.run(20)
    lines = rig.app.menu_view.shown_lines()
    assert "Hints: on" in lines and len(lines) == 7
    rig.tap(KEY_START)
    rig.run(30)
    rules = [l for l in rig.log_text().splitlines() if l.startswith("rules ")]
    assert rules == ["rules game=row piles=6 match=either redeal=two penalty=500 stuck=1000 "
                     "deal=300 tie=replay deadlock=13 deadlock_result=fewer wins=2"]
    assert bytes(microcontroller.nvm[0:3]) == b"CS\x03"
    app = App(rig.app.display, rig.app.buttons, nvm=bytearray(microcontroller.nvm))
    menu = app.menu
    assert (menu.kind().KEY, menu.option(0), menu.option(1), menu.option(2)) == ("row", 2, 2, 1)
    assert app.kind.KEY == "row" and app.game.GAME == "row"  # booted with the remembered game


# ------------------------------------------------------------------ a match


def test_row_match_on_the_pads_shows_the_engine_and_replays():
    rig = Rig(seed=77)
    begin_row_match(rig, piles=2, match=0, redeal=1, wins=0)  # 6 piles, rank, redeal two
    app = rig.app
    assert app.kind.KEY == "row"
    for name in ROW_MODULES:
        if name != "engine.row_bot":  # (the bot comes with a CPU seat)
            assert name in sys.modules
    assert type(app.table).__name__ == "RowView"
    rig.run_until(lambda: app.mode == GAME and rig.game.phase == 2)
    game = rig.game
    spent = 0
    covered = 0
    illegal_done = False
    while game.phase != 4:  # OVER
        assert spent < 600000
        if spent % 60 == 0 and game.phase == 2:
            for seat in range(2):
                legal = game.legal[seat]
                if legal and not game.locked_at(seat, rig.now) and \
                        (spent // 60) % (2 if seat == 0 else 5) == 0:
                    pile = (legal & -legal).bit_length() - 1
                    rig.tap(seat * 8 + button_for(6, seat, pile))
                    covered += 1
                elif not illegal_done and legal != 63 and seat == 1:
                    wrong = [p for p in range(6) if not (legal >> p) & 1]
                    rig.tap(8 + button_for(6, 1, wrong[0]))
                    illegal_done = True
        rig.step(5)
        spent += 5
        if spent % 500 == 0:
            check_row(rig)
    rig.run(20)
    check_row(rig)
    text = split_matches(rig.log_text())[-1]
    presses = [l.split() for l in text.splitlines() if l.startswith("press ")]
    assert {p[2] for p in presses} == {"A", "B"} and {int(p[3]) for p in presses} <= set(range(6))
    assert replay(text) == rig.device_trace()
    results = [json.loads(l).get("r") for l in rig.device_trace() if '"press"' in l]
    assert "cover" in results and "illegal" in results


def test_tie_and_lock_are_told_on_the_screen():
    rig = Rig(seed=5)
    begin_row_match(rig, piles=1, match=2)  # 4 piles, rank or suit: shared plays are common
    app = rig.app
    game = rig.game
    rig.run_until(lambda: app.mode == GAME and game.phase == 2)
    rig.run(1000)  # past "GO!"
    for _ in range(200):  # play on until a pile fits both active cards
        both = game.legal[0] & game.legal[1]
        if both and game.phase == 2:
            break
        for seat in range(2):
            legal = game.legal[seat]
            if legal and game.phase == 2:
                rig.tap(seat * 8 + button_for(4, seat, (legal & -legal).bit_length() - 1))
                break
        rig.run(100)
    assert both
    pile = (both & -both).bit_length() - 1
    t = rig.now + 3
    rig.tap(button_for(4, 0, pile), t)
    rig.tap(8 + button_for(4, 1, pile), t)  # the same scan: one tick, a tie
    rig.run(60)
    assert game.ties == 1
    texts = [m.text for m in app.table.messages]
    assert texts == ["Tie - nobody plays"] * 2
    assert app.table.messages[1].upside_down
    rig.run(1000)
    assert app.table.messages[0].text == ""
    rig.run_until(lambda: game.phase == 2 and game.legal[0] != 15, dt=20)
    wrong = [p for p in range(4) if not (game.legal[0] >> p) & 1]
    rig.tap(button_for(4, 0, wrong[0]))
    rig.run(30)
    assert game.locked_at(0, rig.now) and not app.table.lock_text[0].hidden
    assert app.table.lock_text[1].hidden
    # the presser's own line says why (hw.app.feedback's note); the other seat's stays quiet
    assert [m.text for m in app.table.messages] == ["Not a match!", ""]
    rig.tap(button_for(4, 0, wrong[0]))  # again, within the lock
    rig.run(30)
    assert [m.text for m in app.table.messages] == ["Locked: wait", ""]
    check_row(rig)
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_cpu_plays_the_row_game_and_switching_back_forgets_it():
    rig = Rig(seed=9)
    begin_row_match(rig, piles=0, wins=0, players=1)  # 3 piles, vs CPU (normal)
    app = rig.app
    assert type(app.seats[1].bot).__name__ == "RowBot"
    spent = 0
    while not (app.mode == DONE or (app.mode == GAME and rig.game.phase == 4)):
        assert spent < 400000
        legal = rig.game.legal[0]
        if spent % 700 == 0 and legal and rig.game.phase == 2:  # A: slow, never wrong
            rig.tap(button_for(3, 0, (legal & -legal).bit_length() - 1))
        rig.step(20)
        spent += 20
    text = split_matches(rig.log_text())[-1]
    assert [l for l in text.splitlines() if l.startswith("press ") and l.split()[2] == "B"]
    assert replay(text) == rig.device_trace()
    # Back to the 2x4 game: the row game's modules leave the heap.
    rig.scanner.press(KEY_START, rig.now)
    rig.run(1100)
    rig.scanner.release(KEY_START, rig.now)
    rig.run(50)
    assert app.mode == MENU
    menu_set(rig, menu_mod.GAME, 0)
    rig.tap(KEY_START)
    rig.run(30)
    assert app.kind.KEY == "grid" and app.game.GAME == "grid"
    assert type(app.table).__name__ == "TableView"
    for name in ROW_MODULES:
        assert name not in sys.modules


# ------------------------------------------------------------------ attract


def test_attract_plays_the_row_variations_in_turn_and_they_replay():
    rig = Rig(seed=3)
    app = rig.app
    app.attract_game = ROW  # the demos begin with the row game
    assert app.mode == TITLE
    rig.run_until(lambda: app.attract, limit=40000, dt=20)
    follow(rig)
    first = len(rig.trace)
    headers = []
    for n in range(2):
        rig.run_until(lambda: app.mode == DONE, limit=600000, dt=20)
        matches = split_matches(rig.log_text())
        demo = matches[-1]
        headers.append(demo.splitlines()[1])
        trace = rig.device_trace()[first:]
        assert replay(demo) == trace
        check_row(rig)
        assert app.table.messages[0].text.endswith("wins the match")
        rig.run(ATTRACT_DONE_MS + 100, dt=50)
        assert app.attract and app.mode == READY
        first = len(rig.trace)
    assert headers == [
        "rules game=row piles=4 match=either redeal=all penalty=500 stuck=1000 deal=300 "
        "tie=replay deadlock=13 deadlock_result=fewer wins=1",
        "rules game=row piles=4 match=suit redeal=all penalty=500 stuck=1000 deal=300 "
        "tie=replay deadlock=13 deadlock_result=fewer wins=1"]
    rules = [row_kind.attract_rules(v, 1) for v in range(row_kind.VARIATIONS)]
    assert [(r.piles, r.match, r.redeal) for r in rules] == [
        (4, 2, 0), (4, 1, 0), (4, 0, 0), (3, 2, 0), (6, 2, 0), (4, 2, 1)]
    rig.tap(0)  # any button: back to the title, not played
    rig.run(30)
    assert app.mode == TITLE and not app.attract
    assert rig.log_text().splitlines()[-1] == "# attract stopped (button)"


def test_row_screen_fits_every_screen(tmp_path):
    from hw.games.row.table import row_layout

    for size in [(320, 240), (240, 240), (240, 135), (480, 320)]:
        geo = row_layout(*size)
        width, height = size
        strip, band, half, gap = geo["strip"], geo["band"], geo["half"], geo["gap"]
        assert 2 * strip + 2 * band + 2 * half + 2 * gap <= height
        assert geo["active_h"] <= band and 6 * (geo["pile_w"] + 2 * gap) <= width
        from hw.draw.card_view import card_glyphs_h
        for h in (half, geo["active_h"]):
            assert card_glyphs_h(geo["scale"]) + 2 * gfx.BORDER <= h
        assert geo["scale"] == (2 if height >= 240 else 1)
        # the message line beside the active card stays on the screen
        rig = Rig(builtin=size, settings={"CSPEED_PROFILE": "builtin"})
        rig.app.menu.choose(ROW)
        open_menu(rig)
        rig.tap(KEY_START)
        rig.run(30)
        follow(rig)
        rig.run_until(lambda: rig.game.phase == 2)
        view = rig.app.table
        for seat in range(2):
            m = view.messages[seat]
            assert 0 <= m.group.x and m.group.x + m.pixel_width <= width
            card = view.actives[seat]
            assert card.group.x + card.width <= m.group.x or m.group.x + m.pixel_width <= \
                card.group.x  # side by side, not over each other
            # the strip: pack count, LOCKED, the score "A 0 - 0 B  first to 2", side by side
            fields = sorted((view.packs_text[seat], view.lock_text[seat], view.won_text[seat]),
                            key=lambda field: field.group.x)
            for left, right in zip(fields, fields[1:]):
                assert left.group.x + left.pixel_width <= right.group.x, (size, seat)
            assert fields[-1].group.x + fields[-1].pixel_width <= width
        assert view.won_text[0].text == "A 0 - 0 B  first to 2"  # not "Won 0 of 2" (3.14)
        assert view.won_text[1].text == "B 0 - 0 A  first to 2"
        check_row(rig)
        for pile in range(4):
            assert view.shown_top(pile) != NO_CARD
