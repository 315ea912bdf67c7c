"""Speed on the firmware (hw.games.speed: its kind, keys and table): chosen and
set up in the menu and remembered, played from the pads with the card-then-pile
controls, drawn as the engine's state, against the CPU and in attract mode; the
streamed log (``rules game=speed``) replays to the device's own trace."""

import pytest

from engine.cards import NO_CARD
from engine.family import PLAY
from engine.trace import Tracer
from fw_rig import Rig, replay, split_matches
from hw.draw import gfx
from hw import messages
from hw.app.attract import ATTRACT_MS
from hw.app.modes import GAME, MENU, READY, TITLE
from hw import games
from hw.games import speed as speed_kind
from hw.menu import GAME as GAME_ITEM, MATCH, OPTION, Menu
from hw.board.profiles import KEY_START
from hw.games.speed.keys import CANCEL, pile_button, slot_button
from hw.games.speed.table import (
    MESSAGE_WIDTH, MESSAGES, SCORE_WIDTH, hand_places, pile_places, speed_layout,
)
from tools.cpstubs import microcontroller

SPEED = games.index_of("speed")
SPEED_SAME = OPTION + 1  # Speed's options: cards, same rank, remake, points
SPEED_POINTS = OPTION + 3


def menu_key(rig, button):
    rig.tap(button)  # seat A's pad: 0 up, 1 down, 2 -, 3 +
    rig.run(40)


def choose_speed(rig):
    """On the menu: walk up to the Game item and step it to Speed with the pad."""
    menu = rig.app.menu
    while menu.cursor != GAME_ITEM:
        menu_key(rig, 0)
    while menu.kind().KEY != "speed":
        menu_key(rig, 3)


def start_speed(rig, vs_cpu=False):
    """Title -> menu -> Speed -> match; a tracer on the new engine; run into play."""
    rig.tap(KEY_START)
    rig.run(60)
    assert rig.app.mode == MENU
    choose_speed(rig)
    rig.app.menu.values[0] = 1 if vs_cpu else 0  # Players
    rig.tap(KEY_START)
    rig.run(60)
    attach(rig)
    rig.run_until(lambda: rig.game.phase == PLAY)


def attach(rig):
    """The firmware made a new engine for Speed: trace it from here on."""
    rig.game = rig.app.game
    rig.trace.clear()
    Tracer(rig.game, rig.trace.append)


def tap_button(rig, seat, button, wait=40):
    t = rig.now
    rig.tap(seat * 8 + button, t)
    rig.run(wait)
    return t


def presses(rig):
    """The logged presses, as (t, seat letter, n)."""
    out = []
    for line in rig.log_text().splitlines():
        if line.startswith("press "):
            _, t, p, n = line.split()
            out.append((int(t), p, int(n)))
    return out


def one_and_two_pile_slots(game, seat):
    legal = game.legal[seat]
    one = [s for s in range(5) if ((legal >> s) & 1) != ((legal >> (5 + s)) & 1)]
    both = [s for s in range(5) if (legal >> s) & 1 and (legal >> (5 + s)) & 1]
    none = [s for s in range(5) if not (legal >> s) & 1 and not (legal >> (5 + s)) & 1
            and game.hands[seat * 5 + s] != NO_CARD]
    return one, both, none


def check_screen(rig):
    """Every hand card and both piles show the engine's cards; the counts are right."""
    game = rig.game
    view = rig.app.table
    for seat in range(2):
        for slot in range(5):
            card = game.hands[seat * 5 + slot]
            shown = view.hand[seat * 5 + slot]
            assert view.shown_hand(seat, slot) == card
            assert shown.flipped == (seat == 1)
            if card != NO_CARD:
                assert shown.rank[0] == card >> 2 and shown.suit[0] == card & 3
        assert view.draw_text[seat].text == "Draw %d" % game.draws[seat]
    for pile in range(2):
        assert view.shown_top(pile) == game.tops[pile]
        for k in range(2):
            assert view.side_text[2 * pile + k].text == "Side %d" % game.sides[pile]


def test_speed_is_chosen_in_the_menu_with_its_house_rules_and_remembered():
    rig = Rig(start=5000, seed=3)
    rig.tap(KEY_START)
    rig.run(60)
    choose_speed(rig)
    menu = rig.app.menu
    lines = rig.app.menu_view.shown_lines()
    assert lines[0] == "Game: Speed"
    for text in ("Cards: 20 each", "Same rank: no", "Remake: under tops", "Points: off"):
        assert text in lines
    assert not any(line.startswith("Piles") for line in lines)  # the row game's options
    while menu.cursor != SPEED_SAME:
        menu_key(rig, 1)
    menu_key(rig, 3)  # same rank: yes
    assert "Same rank: yes" in rig.app.menu_view.shown_lines()
    rig.tap(KEY_START)
    rig.run(60)
    header = rig.log_text().splitlines()[1]
    assert header == ("rules game=speed cards=20 same=1 remake=rest points=0 penalty=500 "
                      "stuck=1000 deal=300 tie=replay deadlock=13 deadlock_result=fewer wins=2")
    again = Menu(menu.levels)  # after a power cycle: the record in nvm
    again.load(microcontroller.nvm)
    assert again.kind().KEY == "speed" and again.option(1) == 1 and again.option(3) == 0
    assert again.rules().same == 1


def test_a_points_match_hides_the_match_length():
    menu = Menu(("beginner", "normal"))
    menu.choose(SPEED)
    assert MATCH in menu.shown()
    menu.cursor = SPEED_POINTS
    menu.change(1)  # first to 25
    rules = menu.rules()
    assert rules.points == 25 and rules.wins == 2  # still logged, not used
    assert MATCH not in menu.shown()
    menu.choose(0)  # the 2x4 game: its match length again
    assert MATCH in menu.shown()


def test_the_score_reads_whole_in_every_match():
    """A points match to 100 read "Pts 12/10" (cut at the field's end); "Won 0/2" read
    like "0 of 2 games played". Now: "0/2 wins", "12/100 pts" (issue 20, 3.14)."""
    from hw.draw.text import RIGHT, Text
    from hw.games.speed.table import POINTS_UNIT, WINS_UNIT, _fraction

    text = Text(gfx.glyph_sheet(), SCORE_WIDTH, gfx.DIM, align=RIGHT)
    for value, of, unit, want in ((0, 2, WINS_UNIT, "0/2 wins"), (12, 100, POINTS_UNIT, "12/100 pts"),
                                  (119, 100, POINTS_UNIT, "119/100 pts"), (3, 25, POINTS_UNIT, "3/25 pts")):
        _fraction(text, value, of, unit)
        assert text.text == want


def test_one_press_plays_a_one_pile_card_and_two_presses_the_others():
    rig = Rig(start=20000, seed=11)
    start_speed(rig)
    game = rig.game
    played = waited = 0
    for i in range(600):
        if rig.app.mode != GAME or game.phase != PLAY:
            rig.run(50)
            continue
        seat = i % 2
        one, both, none = one_and_two_pile_slots(game, seat)
        if both and not waited:
            one = []  # the first two-pile card seen: play it with a pile press
        before = len(presses(rig))
        if one:
            slot = one[0]
            n = slot if (game.legal[seat] >> slot) & 1 else 5 + slot
            t = tap_button(rig, seat, slot_button(slot))
            log = presses(rig)[before:]
            assert log and log[0][1:] == ("AB"[seat], n) and 0 <= log[0][0] - t < 10
            played += 1
        elif both:
            slot = both[0]
            tap_button(rig, seat, slot_button(slot), wait=100)
            assert presses(rig)[before:] == []  # waits for the pile
            assert rig.app.table.hand[seat * 5 + slot].border == gfx.PENDING
            t = tap_button(rig, seat, pile_button(seat, 1))
            log = presses(rig)[before:]
            # stamped with the PILE press's time (scanned and debounced: a few ms on)
            assert log and log[0][1:] == ("AB"[seat], 5 + slot) and 0 <= log[0][0] - t < 10
            waited += 1
        else:
            rig.run(50)
        rig.app.table.update(game, rig.now, rig.app.message(rig.now), False)
        check_screen(rig)
        if played >= 3 and waited >= 1:
            break
    assert played >= 3 and waited >= 1
    assert rig.device_trace() == replay(split_matches(rig.log_text())[-1])


def test_lone_pile_cancel_and_misfit_presses_play_nothing_and_a_misfit_locks_after_a_pile():
    rig = Rig(start=30000, seed=5)
    start_speed(rig)
    game = rig.game
    for seat in range(2):
        for button in (pile_button(seat, 0), pile_button(seat, 1), CANCEL):
            tap_button(rig, seat, button)
    assert presses(rig) == []
    rig.run_until(lambda: any(one_and_two_pile_slots(game, 0)[2]), limit=60000)
    slot = one_and_two_pile_slots(game, 0)[2][0]
    tap_button(rig, 0, slot_button(slot))
    tap_button(rig, 0, CANCEL)
    tap_button(rig, 0, pile_button(0, 0))
    assert presses(rig) == []  # cancelled: the pile press put nothing down
    tap_button(rig, 0, slot_button(slot))
    assert rig.app.table.hand[slot].border == gfx.PENDING
    tap_button(rig, 0, pile_button(0, 0), wait=20)
    assert presses(rig)[-1][1:] == ("A", slot)
    assert game.locked_at(0, rig.now)  # an illegal play: the pad is locked
    rig.run(20)  # the note shows a frame after the cards
    texts = [m.text for m in rig.app.table.messages]
    assert texts[0] == "Not 1 up or down!" and texts[1] in ("", "GO!")  # the presser's only
    rig.app.table.update(game, rig.now, rig.app.message(rig.now), False)
    view = rig.app.table
    assert not view.lock_text[0].hidden and view.lock_text[1].hidden
    assert not _overlap(view.lock_text[0], view.messages[0])  # the note reads whole (3.1)
    assert all(view.hand[k].border in (gfx.LOCKED, gfx.EMPTY) for k in range(5))
    one = one_and_two_pile_slots(game, 0)[0]
    if one:  # a press during the lock reaches the engine, which says so
        before = len(rig.trace)
        tap_button(rig, 0, slot_button(one[0]), wait=20)
        assert presses(rig)[-1][1] == "A" and game.locked_at(0, rig.now)
        assert '"locked"' in "".join(str(e) for e in rig.trace[before:])
    assert rig.device_trace() == replay(split_matches(rig.log_text())[-1])


def test_every_message_the_app_gives_reads_right_on_the_speed_screen():
    """Speed's screen takes hw.messages' ids: the prompt after a match, the CPU's
    wording and the notes are what they say (its own ids come after them)."""
    rig = Rig(seed=3)
    rig.app.menu.choose(SPEED)
    rig.tap(KEY_START)
    rig.run(60)
    rig.tap(KEY_START)
    rig.run(60)
    view = rig.app.table
    for msg, want in ((messages.MSG_NEW_MATCH, "START: new match"),
                      (messages.MSG_CPU_MATCH_B, "CPU wins the match"),
                      (messages.MSG_CPU_WIN_B, "CPU wins the game"),
                      (messages.MSG_LOCKED, "Locked: wait"),
                      (messages.MSG_WON_TIE, "Won the coin toss")):
        view.set_message(msg)
        assert view.messages[0].text == want
    assert len(MESSAGES) > len(messages.MESSAGES)  # Speed's own wording after the shared ids


def test_a_match_against_the_cpu_is_played_and_replays():
    rig = Rig(start=40000, seed=9)
    start_speed(rig, vs_cpu=True)
    assert rig.app.seats[1].bot.__class__.__name__ == "SpeedBot"
    rig.run_until(lambda: rig.game.covers[1] >= 3, limit=60000, dt=10)
    assert all(p[1] == "B" for p in presses(rig))
    assert rig.device_trace() == replay(split_matches(rig.log_text())[-1])


def test_attract_mode_plays_speed_and_the_demo_log_replays():
    rig = Rig(start=(1 << 29) - 30000, seed=13)  # the demo crosses the tick wrap
    rig.app.attract_game = SPEED  # the demos begin with Speed
    rig.run(ATTRACT_MS + 400, dt=200)
    assert rig.app.attract and rig.app.mode == READY
    attach(rig)
    rig.run_until(lambda: rig.app.mode != GAME and rig.app.mode != READY, limit=600000, dt=20)
    lines = rig.log_text().splitlines()
    assert lines[0] == "# attract" and lines[2].startswith("rules game=speed ")
    assert rig.device_trace() == replay(split_matches(rig.log_text())[-1])
    over = [e for e in rig.trace if '"over"' in e]
    assert over, "the demo game ended"
    rig.tap(KEY_START)
    rig.run(60)
    assert rig.app.mode == TITLE


@pytest.mark.parametrize("size", [(320, 240), (240, 240), (240, 135)])
def test_layout_fits_each_screen_and_reads_from_both_seats(size):
    width, height = size
    geo = speed_layout(width, height)
    boxes = [(x, y, geo["hand_w"], geo["hand_h"]) for x, y in hand_places(geo)]
    boxes += [(x, y, geo["pile_w"], geo["pile_h"]) for x, y in pile_places(geo)]
    for x, y, w, h in boxes:  # on the screen, clear of the strips
        assert 0 <= x and x + w <= width
        assert geo["strip"] <= y and y + h <= height - geo["strip"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[0] + a[2] <= b[0] or b[0] + b[2] <= a[0] or \
                a[1] + a[3] <= b[1] or b[1] + b[3] <= a[1], (a, b)
    assert geo["pile_h"] > geo["hand_h"] and geo["pile_scale"] >= geo["hand_scale"]
    assert geo["pile_scale"] == 2  # the middle piles are drawn big on every size
    # strip: draw count + message + score fit the width at the text scale
    cols = width // (gfx.GLYPH_W * geo["text_scale"])
    assert len("Draw 15") + MESSAGE_WIDTH + SCORE_WIDTH + 2 <= cols
    assert len("119/100 pts") <= SCORE_WIDTH  # a points match's longest score
    assert max(len(t) for pair in MESSAGES for t in pair) <= MESSAGE_WIDTH
    rig = Rig(start=1000, seed=21, builtin=size, settings={"CSPEED_PROFILE": "builtin"})
    start_speed(rig)
    view = rig.app.table
    check_screen(rig)
    for seat in range(2):  # B's text is turned, A's upright
        for text in (view.draw_text[seat], view.score_text[seat], view.messages[seat]):
            assert text.grid.flip_x == text.grid.flip_y == (seat == 1)
    assert view.side_text[0].grid.flip_y != view.side_text[1].grid.flip_y  # one for each seat
    assert view.score_text[0].text == "0/2 wins"
    for seat in range(2):  # the strip's fields side by side; LOCKED covers the count only
        fields = sorted((view.draw_text[seat], view.messages[seat], view.score_text[seat]),
                        key=lambda field: field.group.x)
        for field in fields:
            assert 0 <= field.group.x and field.group.x + field.pixel_width <= width
        for left, right in zip(fields, fields[1:]):
            assert left.group.x + left.pixel_width <= right.group.x, (size, seat)
        lock, count = view.lock_text[seat], view.draw_text[seat]
        assert (lock.group.x, lock.group.y, lock.pixel_width) == \
            (count.group.x, count.group.y, count.pixel_width)
        assert not _overlap(lock, view.messages[seat])


def _overlap(a, b):
    """True if two text fields' boxes on the screen overlap."""
    return not (a.group.x + a.pixel_width <= b.group.x or b.group.x + b.pixel_width <= a.group.x
                or a.group.y + a.pixel_height <= b.group.y
                or b.group.y + b.pixel_height <= a.group.y)


def test_a_tie_outlines_the_pile_fought_over_and_tells_both_strips():
    rig = Rig(start=50000, seed=17)
    start_speed(rig)
    game = rig.game
    view = rig.app.table
    for _ in range(400):  # find a pile both can play on, then both put a card there at once
        if game.phase == PLAY and rig.app.mode == GAME:
            fits = [[s for s in range(5) if (game.legal[seat] >> (5 * pile + s)) & 1]
                    for seat in range(2) for pile in range(2)]
            pile = 0 if fits[0] and fits[2] else 1 if fits[1] and fits[3] else -1
            if pile >= 0:
                final = []
                for seat in range(2):
                    slot = fits[2 * seat + pile][0]
                    key = seat * 8 + slot_button(slot)
                    if (game.legal[seat] >> (5 * (1 - pile) + slot)) & 1:  # fits both: select
                        tap_button(rig, seat, slot_button(slot))
                        key = seat * 8 + pile_button(seat, pile)
                    final.append(key)
                t = rig.now
                for key in final:  # in the same scan: one tick
                    rig.tap(key, t)
                rig.run(30)
                break
            for seat in range(2):  # no such pile: one card is played, the table changes
                one, both, _ = one_and_two_pile_slots(game, seat)
                if one or both:
                    slot = (one or both)[0]
                    tap_button(rig, seat, slot_button(slot))
                    if not one:
                        tap_button(rig, seat, pile_button(seat, 0))
                    break
        rig.run(50)
    else:
        raise AssertionError("no pile both could play on")
    assert game.ties == 1
    rig.run(10)
    assert view.piles[pile].border == gfx.FLASH  # the tie's colour on every table
    assert view.piles[1 - pile].border == gfx.EDGE  # not fought over: not lit (3.14)
    assert view.messages[0].text == view.messages[1].text == "Tie - nothing moves"
    rig.run(1000)
    assert view.piles[pile].border == gfx.EDGE and view.messages[0].text != "Tie - nothing moves"
    assert rig.device_trace() == replay(split_matches(rig.log_text())[-1])
