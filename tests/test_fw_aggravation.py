"""Aggravation and Frustration on the firmware (hw.games.aggravation: its kind, keys and
table): chosen in the menu with the options of each mode and remembered, played from
the pads with the column-then-line controls (a call through the pads included), drawn
as the engine's state at three screen sizes, against the CPU and in attract mode (both
modes in turn); every streamed log (``rules game=aggravation``) replays to the
device's own trace."""

import sys

import pytest

from fw_rig import Rig, menu_set, replay, split_matches
from engine.aggravation import ROW_BASE, WHY_CALL
from engine.cards import NO_CARD
from engine.family import OVER, PLAY, WIN_A
from engine.trace import Tracer
from hw import games, messages
from hw import menu as menu_mod
from hw.app import App
from hw.app.match import DONE_MS
from hw.app.modes import DONE, GAME, MENU, READY, TITLE
from hw.board.profiles import KEY_START
from hw.draw import gfx
from hw.games import aggravation as agg_kind
from hw.games.aggravation.keys import column_button, line_of
from hw.games.aggravation.table import (
    HELD, LEFT_WIDTH, LINES, MESSAGE_WIDTH, MESSAGES, SCORE_WIDTH, SELECTED, TILES, shown_text,
    stack_x, stack_y,
)
from hw.games.aggravation.scene import agg_layout
from tools.cpstubs import microcontroller

AGG = games.index_of("aggravation")
MODE, TARGET, CALL = (menu_mod.OPTION + i for i in range(3))
AGG_MODULES = ("engine.aggravation", "engine.aggravation_rules", "hw.games.aggravation.table",
               "hw.games.aggravation.keys")
SIZES = [(320, 240), (240, 240), (240, 135)]


def open_menu(rig):
    rig.tap(KEY_START)
    rig.run(50)
    assert rig.app.mode == MENU


def begin(rig, mode=0, target=0, call=1, wins=0, players=0):
    """Title -> menu -> Aggravation with these options -> READY; trace the new engine."""
    open_menu(rig)
    menu_set(rig, menu_mod.GAME, AGG)
    menu_set(rig, MODE, mode)
    if mode:
        menu_set(rig, TARGET, target)
    else:
        menu_set(rig, CALL, call)
    menu_set(rig, menu_mod.MATCH, wins)
    menu_set(rig, menu_mod.PLAYERS, players)
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.mode == READY
    follow(rig)


def follow(rig):
    rig.game = rig.app.game
    Tracer(rig.game, rig.trace.append)


def presses(rig):
    """The logged presses of the last match, as (t, seat letter, pos)."""
    out = []
    for line in split_matches(rig.log_text())[-1].splitlines():
        if line.startswith("press "):
            _, t, p, n = line.split()
            out.append((int(t), p, int(n)))
    return out


def check_screen(rig):
    """Every stack is drawn in its place with the engine's top; no other card shows; the
    strips say what the engine says."""
    game = rig.game
    view = rig.app.table
    geo = view.geometry
    drawn = 0
    for owner in range(2):
        for k in range(13):
            pos = owner * ROW_BASE + k
            v = view.slot_of(pos)
            if k < game.row_len[owner]:
                drawn += 1
                assert v >= 0 and view.faces[v] == game.tops[pos]
                assert card_place(view, v) == (stack_x(geo, pos), stack_y(geo, pos))
                tiles = view.tiles[TILES * v:TILES * v + TILES]
                assert not any(t.hidden for t in tiles)
                # A's rank, B's rank, A's suit, B's suit: B's turned
                assert [t[0] for t in tiles[1:5]] == [game.tops[pos] >> 2] * 2 + \
                    [game.tops[pos] & 3] * 2
                assert [t.flip_y for t in tiles[1:5]] == [False, True, False, True]
            else:
                assert v == -1
    assert sum(1 for v in range(14) if not view.tiles[TILES * v].hidden) == drawn
    for seat in range(2):
        left = shown_text(view.left_text[seat])
        if game.frustration:
            assert left == "Share %d/%d" % (game.shares[seat], game.target)
        elif game.packs[seat]:
            assert left == "Pack %d" % game.packs[seat]
        else:
            assert left.startswith(("Out! ", "Call ")) and left.endswith("ms")
        assert shown_text(view.score_text[seat]) == "%d/%d wins" % (game.score[seat],
                                                                      game.rules.wins)
        assert view.lock_text[seat].hidden == (not game.locked_at(seat, rig.now))
        for field in (view.left_text[seat], view.score_text[seat], view.messages[seat]):
            assert field.flip_x == field.flip_y == (seat == 1)


def card_place(view, v):
    """The (x, y) of card ``v`` (its face tile's place less its offset)."""
    face = view.tiles[TILES * v]
    return face.x - view.dx[0], face.y - view.dy[0]


def redraw(rig):
    app = rig.app
    app.table.update(rig.game, rig.now, app.message(rig.now), app.hints, app.feedback)


def press_stack(rig, seat, pos, wait=30):
    """Press stack ``pos`` on ``seat``'s pad: its column, then (if the column was
    selected) its line; return the number of buttons it took."""
    keys = rig.game.controls
    before = len(presses(rig))
    button = column_button(seat, pos)
    rig.tap(seat * 8 + button)
    rig.run(30)  # released (the line's button may be the same)
    if len(presses(rig)) > before:
        return 1
    assert keys.selection(rig.game, seat, rig.now) >= 0
    rig.tap(seat * 8 + (button & 4) + line_of(pos))
    rig.run(wait)
    assert len(presses(rig)) > before
    return 2


# ------------------------------------------------------------------ the menu


def test_the_menu_shows_each_modes_options_and_the_record_keeps_them():
    rig = Rig()
    open_menu(rig)
    menu_set(rig, menu_mod.GAME, AGG)
    rig.run(20)
    lines = rig.app.menu_view.shown_lines()
    assert lines[:3] == ["Game: Aggravation", "Mode: Aggravation", "Call window: 400 ms"]
    assert not any(l.startswith("Target") for l in lines)
    menu_set(rig, CALL, 2)
    menu_set(rig, MODE, 1)
    rig.run(20)
    lines = rig.app.menu_view.shown_lines()
    assert lines[:3] == ["Game: Aggravation", "Mode: Frustration", "Target: 10"]
    assert not any(l.startswith("Call window") for l in lines)
    menu_set(rig, TARGET, 1)
    rig.tap(KEY_START)
    rig.run(30)
    header = [l for l in rig.log_text().splitlines() if l.startswith("rules ")]
    assert header == ["rules game=aggravation frustration=1 target=15 call=600 penalty=500 "
                      "stuck=500 deal=300 tie=replay rutter=0 wins=2"]
    app = App(rig.app.display, rig.app.buttons, nvm=bytearray(microcontroller.nvm))
    menu = app.menu  # after a power cycle
    assert (menu.kind().KEY, menu.option(0), menu.option(1), menu.option(2)) == \
        ("aggravation", 1, 1, 2)
    assert app.kind.KEY == "aggravation" and app.game.GAME == "aggravation"
    assert menu.rules().target == 15 and menu.rules().call == 600
    menu.choose(0)  # another game's options are its own, and back again
    assert menu.kind().KEY == "grid" and menu.option(0) == 0
    menu.choose(AGG)
    assert (menu.option(0), menu.option(1), menu.option(2)) == (1, 1, 2)


def test_the_demo_variations_are_aggravation_then_frustration_to_twenty():
    rules = [agg_kind.attract_rules(v, 1) for v in range(agg_kind.VARIATIONS)]
    assert [(r.frustration, r.target, r.call, r.wins) for r in rules] == [(0, 10, 400, 1),
                                                                          (1, 20, 400, 1)]


# ------------------------------------------------------------------ the screen


@pytest.mark.parametrize("size", SIZES)
def test_every_table_the_book_allows_fits_each_screen(size):
    """Both rows together up to 14 stacks, a row up to 13: at most five lines of four."""
    width, height = size
    geo = agg_layout(width, height)
    strip = geo["strip"]
    for a in range(14):
        for b in range(14 - a):
            if a > 13 or b > 13:
                continue
            stacks = list(range(a)) + [ROW_BASE + k for k in range(b)]
            boxes = [(stack_x(geo, p), stack_y(geo, p), geo["card_w"], geo["card_h"])
                     for p in stacks]
            assert (a + 3) // 4 + (b + 3) // 4 <= LINES
            for x, y, w, h in boxes:
                assert 0 <= x and x + w <= width and strip <= y and y + h <= height - strip
            for i, p in enumerate(boxes):
                for q in boxes[i + 1:]:
                    assert p[0] + p[2] <= q[0] or q[0] + q[2] <= p[0] or \
                        p[1] + p[3] <= q[1] or q[1] + q[3] <= p[1], (a, b, p, q)
    # each card carries both indices (one for each seat), apart
    from hw.draw.card_view import card_layout

    layout = card_layout(geo["card_w"], geo["card_h"], pip_scale=0)
    assert not layout.get("single") and layout["rank_scale"] == (2 if height >= 240 else 1)
    # the strip: left field, message and score fit the width
    cols = (width - 2 * geo["margin"]) // gfx.GLYPH_W  # text at scale 1
    assert LEFT_WIDTH + MESSAGE_WIDTH + SCORE_WIDTH <= cols
    assert max(len(text) for texts in MESSAGES for text in texts) <= MESSAGE_WIDTH


@pytest.mark.parametrize("size", SIZES)
def test_the_screen_shows_the_engines_rows_at_each_size(size):
    rig = Rig(start=3000, seed=21, builtin=size, settings={"CSPEED_PROFILE": "builtin"})
    begin(rig)
    app = rig.app
    rig.run_until(lambda: app.mode == GAME and rig.game.phase == PLAY)
    game = rig.game
    assert type(app.table).__name__ == "AggravationView"
    spent = 0
    while game.phase != OVER and spent < 20000:
        if spent % 100 == 0 and game.phase == PLAY:
            seat = (spent // 100) % 2
            cov = game.coverable
            if cov and game.packs[seat]:
                press_stack(rig, seat, (cov & -cov).bit_length() - 1, wait=10)
        rig.step(5)
        spent += 5
        if spent % 400 == 0:
            redraw(rig)
            check_screen(rig)
    redraw(rig)
    check_screen(rig)
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_a_row_of_thirteen_is_drawn_in_four_lines_from_its_owners_edge():
    """A real 1 + 13 table (RULES-AGGRAVATION.md §2's longest row) on a fresh view."""
    from aggravation_helpers import agg_log, race_deck, race_presses, run_agg
    from hw.games.aggravation.keys import Controls
    from hw.games.aggravation.scene import card_sheets
    from hw.games.aggravation.table import AggravationView
    from tools.cpstubs.screen import make_display

    b = "QH AH 2H 3H 4H 6H 7H 8H 9H TH JH KH"
    game, _, err = run_agg(agg_log(race_deck(b), *race_presses(), "press 1700 B 14",
                                   "clock 11300"))
    assert err is None and list(game.row_len) == [1, 13]
    game.controls = Controls()
    for size in SIZES:
        display = make_display(*size)
        view = AggravationView(size[0], size[1], gfx.glyph_sheet(), card_sheets(*size))
        display.root_group = view.group
        view.update(game, game.clock, messages.MSG_NONE, True)
        geo = view.geometry
        places = [card_place(view, view.slot_of(ROW_BASE + k)) for k in range(13)]
        ys = sorted({y for x, y in places})
        assert len(ys) == 4 and ys[0] == geo["top"]  # B's line 0 at B's edge, then down
        assert places[0][0] > places[3][0] and places[0][0] == places[4][0]  # mirrored
        a = card_place(view, view.slot_of(0))
        assert a[1] == geo["top"] + 4 * geo["pitch"]
        assert all(view.shown_top(ROW_BASE + k) == game.tops[ROW_BASE + k] for k in range(13))
        assert sum(1 for v in range(14) if not view.tiles[TILES * v].hidden) == 14
        assert ys[-1] + geo["card_h"] <= view.between.y < a[1]  # the rows meet above A's line
        display.bus.spi_bus.deinit()  # its pins free for the next size's display


# ------------------------------------------------------------------ a match on the pads


def find_selectable(game):
    """A (seat, owner, column, stacks) whose press selects: several stacks, not exactly
    one of them coverable (both seats have cards), or None."""
    for seat in range(2):
        for owner in (1 - seat, seat):
            for column in range(max(0, game.row_len[owner] - 4)):
                stacks = [owner * ROW_BASE + k for k in range(column, game.row_len[owner], 4)]
                if sum(1 for p in stacks if (game.coverable >> p) & 1) != 1:
                    return seat, owner, column, stacks
    return None


def test_a_column_of_several_stacks_is_selected_labelled_and_chosen_by_its_line():
    rig = Rig(start=5000, seed=31)
    begin(rig)
    app = rig.app
    game = rig.game
    found = None
    turn = 0
    for _ in range(20000):
        rig.step(5)
        if app.mode != GAME or game.phase != PLAY or not game.packs[0] or not game.packs[1]:
            continue
        found = find_selectable(game)
        if found:
            break
        cov = game.coverable
        if cov:  # the table moves on: the seats cover in turn
            turn ^= 1
            press_stack(rig, turn, (cov & -cov).bit_length() - 1, wait=10)
    assert found, "no column of several stacks to select"
    seat, owner, column, stacks = found
    far = 4 if owner != seat else 0
    button = column_button(seat, stacks[0])
    before = len(presses(rig))
    rig.tap(seat * 8 + button)
    rig.run(30)
    redraw(rig)
    assert len(presses(rig)) == before  # nothing pressed: selected
    view = app.table
    assert game.controls.selection(game, seat, rig.now) == owner * 4 + column
    geo = view.geometry
    for line, pos in enumerate(stacks):
        assert view.border_of(pos) == SELECTED
        x, y = card_place(view, view.slot_of(pos))
        label = view.labels[seat * 4 + line]
        assert not label.hidden and label[0] == ord("1") + line - gfx.FIRST_CHAR
        assert label.flip_y == (seat == 1)  # upright for the seat that chose
        assert x < label.x < x + geo["card_w"] and y < label.y < y + geo["card_h"]
    assert all(view.labels[k].hidden for k in range(8)
               if not seat * 4 <= k < seat * 4 + len(stacks))
    t = rig.now
    rig.tap(seat * 8 + far + 1)  # the same pad row's 2nd button: line 1
    rig.run(30)
    redraw(rig)
    log = presses(rig)[before:]
    assert log and log[0][1:] == ("AB"[seat], stacks[1]) and 0 <= log[0][0] - t < 10  # its time
    assert game.controls.selection(game, seat, rig.now) == -1
    assert all(label.hidden for label in view.labels)
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_a_match_on_the_pads_ends_with_a_call_made_through_the_pads():
    """A covers whatever is coverable until out of cards, then taps a pair through the
    pads; B covers only when A has nothing to tap; the call's held tap is drawn."""
    rig = Rig(start=7000, seed=5)
    begin(rig)
    app = rig.app
    game = rig.game
    spent = 0
    buttons = [0, 0]
    pressed = 0
    saw_hold = False
    while game.phase != OVER:
        assert spent < 400000
        rig.step(5)
        spent += 5
        if app.mode != GAME or game.phase != PLAY or spent % 40:
            continue
        if game.locked_at(0, rig.now) or game.locked_at(1, rig.now):
            continue
        if game.packs[0]:
            cov = game.coverable
            if cov:
                buttons[press_stack(rig, 0, (cov & -cov).bit_length() - 1, wait=10) - 1] += 1
                pressed += 1
            continue
        held = game.held(0, rig.now)
        if held >= 0:
            redraw(rig)
            view = app.table
            assert view.border_of(held) == HELD
            assert shown_text(view.left_text[0]).startswith("Call ")
            saw_hold = True
            rank = game.tops[held] >> 2
            partner = [p for p in range(28) if p != held and (game.pairs >> p) & 1 and
                       game.tops[p] >> 2 == rank]
            if partner:
                buttons[press_stack(rig, 0, partner[0], wait=10) - 1] += 1
            continue
        if game.pairs:
            buttons[press_stack(rig, 0, (game.pairs & -game.pairs).bit_length() - 1,
                                wait=10) - 1] += 1
        elif game.coverable and game.packs[1]:
            cov = game.coverable
            press_stack(rig, 1, (cov & -cov).bit_length() - 1, wait=10)
    assert game.result == WIN_A and game.why == WHY_CALL and saw_hold
    assert pressed > 10 and buttons[0] > buttons[1]
    rig.run(30)
    assert [shown_text(m) for m in app.table.messages] == ["Call! A wins"] * 2
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_frustration_shows_both_shares_and_the_scoop():
    rig = Rig(start=9000, seed=8)
    begin(rig, mode=1, target=2)  # Frustration to 20
    app = rig.app
    game = rig.game
    assert game.frustration == 1 and game.target == 20
    spent = 0
    saw_scoop = False
    while game.phase != OVER and spent < 600000:
        rig.step(5)
        spent += 5
        if game.scooping and app.mode == GAME:
            rig.run(20)
            if game.scooping:
                assert [shown_text(m) for m in app.table.messages] == ["Scooping the rows"] * 2
                saw_scoop = True
        if app.mode == GAME and game.phase == PLAY and spent % 60 == 0:
            # until a scoop each seat covers on its own row (the shares stay), then
            # B (twice as often) sheds its cards on A's row
            seat = 1 if (spent // 60) % 3 else 0
            own = 0x1FFF << (seat * ROW_BASE)
            cov = game.coverable & own if not game.scoops else game.coverable
            if cov and not game.locked_at(seat, rig.now):
                press_stack(rig, seat, (cov & -cov).bit_length() - 1, wait=10)
        if spent % 1000 == 0:
            redraw(rig)
            check_screen(rig)
    assert game.phase == OVER and saw_scoop
    assert min(game.shares) <= 20
    rig.run(30)
    winner = 0 if game.result == WIN_A else 1
    assert [shown_text(m) for m in app.table.messages] == ["Target! %s wins" % "AB"[winner]] * 2
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_a_match_against_the_cpu_is_played_and_replays():
    rig = Rig(start=40000, seed=9)
    begin(rig, players=1)
    app = rig.app
    assert type(app.seats[1].bot).__name__ == "AggravationBot"
    assert app.table.cards_layer.hidden  # "Get ready...": no cards under it
    game = rig.game
    spent = 0
    while game.phase != OVER:  # A: slow, never wrong (a game with no presses would wait)
        assert spent < 200000
        cov = game.coverable if game.packs[0] else game.pairs
        if spent % 700 == 0 and cov and game.phase == PLAY and app.mode == GAME:
            press_stack(rig, 0, (cov & -cov).bit_length() - 1, wait=10)
        rig.step(10)
        spent += 10
    assert {p[1] for p in presses(rig)} == {"A", "B"}
    assert not app.table.cards_layer.hidden
    rig.run(30)
    # the result in one wording for both seats, the CPU named as in every game
    winner = "A" if game.result == WIN_A else "CPU"
    ending = "Call!" if game.why == WHY_CALL else "Target!"
    assert [shown_text(m) for m in app.table.messages] == ["%s %s wins" % (ending, winner)] * 2
    assert replay(split_matches(rig.log_text())[-1]) == rig.device_trace()


def test_every_message_reads_right_on_this_screen():
    rig = Rig(seed=3)
    rig.app.menu.choose(AGG)
    open_menu(rig)
    rig.tap(KEY_START)
    rig.run(60)
    view = rig.app.table
    for msg, want in ((messages.MSG_NEW_MATCH, "START: new match"),
                      (messages.MSG_CPU_MATCH_B, "CPU wins the match"),
                      (messages.MSG_LOCKED, "Locked: wait"),
                      (messages.MSG_ILLEGAL, "Not a match!"),
                      (messages.MSG_DEMO, "DEMO: press a key")):
        view.set_message(msg)
        assert shown_text(view.messages[0]) == want


# ------------------------------------------------------------------ attract, switching


def test_attract_plays_aggravation_then_frustration_and_both_replay():
    rig = Rig(seed=3)
    app = rig.app
    app.attract_game = AGG
    rig.run_until(lambda: app.attract, limit=40000, dt=20)
    follow(rig)
    first = len(rig.trace)
    headers = []
    for n in range(2):
        rig.run_until(lambda: app.mode == DONE, limit=900000, dt=20)
        demo = split_matches(rig.log_text())[-1]
        headers.append(demo.splitlines()[1])
        assert replay(demo) == rig.device_trace()[first:]
        check_screen(rig)
        rig.run(DONE_MS + 100, dt=50)
        assert app.attract and app.mode == READY
        if app.game is not rig.game:
            follow(rig)
        first = len(rig.trace)
    assert headers == [
        "rules game=aggravation frustration=0 target=10 call=400 penalty=500 stuck=500 "
        "deal=300 tie=replay rutter=0 wins=1",
        "rules game=aggravation frustration=1 target=20 call=400 penalty=500 stuck=500 "
        "deal=300 tie=replay rutter=0 wins=1"]
    assert app.kind.KEY != "aggravation" or app.attract_variation == 0  # the next game next
    rig.tap(0)
    rig.run(30)
    assert app.mode == TITLE and not app.attract


def test_choosing_another_game_forgets_aggravations_modules():
    rig = Rig(seed=4)
    begin(rig)
    assert all(name in sys.modules for name in AGG_MODULES)
    assert "hw.games.aggravation.scene" not in sys.modules  # the builder: gone once built
    rig.scanner.press(KEY_START, rig.now)
    rig.run(1100)
    rig.scanner.release(KEY_START, rig.now)
    rig.run(50)
    assert rig.app.mode == MENU
    menu_set(rig, menu_mod.GAME, 0)
    rig.tap(KEY_START)
    rig.run(30)
    assert rig.app.kind.KEY == "grid"
    for name in AGG_MODULES:
        assert name not in sys.modules
