"""Aggravation's controls (hw/games/aggravation/keys.py): one button per column of four,
a column's one stack (or its one legal stack) pressed at once, otherwise the column
selected and its line chosen by a second press on the same pad row."""

from aggravation_helpers import agg_log, deck_line, race_deck, race_presses, run_agg
from engine.aggravation import ROW_BASE
from engine.family import COVER, ILLEGAL, PLAY, WIN_A
from hw.board.pads import position
from hw.games import aggravation as kind
from hw.games.aggravation.keys import SELECT_MS, Controls, column_button, line_of

# Rows of six, dealt onto dry tables until the sixth round brings two matches:
#   A (0-5):   2C 3C 4C 5C / 6C 3D      3D matches 3C: A's column 1 holds both
#   B (14-19): 7C 8C 9C TC / JC 9D      9D matches 9C: B's column 1 holds 8C and 9D
SIXES = agg_log(deck_line("2C 3C 4C 5C 6C 3D", "7C 8C 9C TC JC 9D"), "clock 5300")
# A out of cards (the race), then B's row grows alone: QH AH 2H 3H 4H and a sixth card.
OUT = race_presses() + ["press 1700 B 14"]


def sixes():
    game, _, err = run_agg(SIXES)
    assert err is None and game.phase == PLAY
    assert list(game.row_len) == [6, 6] and game.coverable == (1 << 1 | 1 << 5 | 1 << 16 | 1 << 19)
    game.controls = Controls()
    return game


def out_of_cards(sixth, call=400):
    """A out of cards with 0 = 5H; B's row QH AH 2H 3H 4H ``sixth`` (positions 14-19)."""
    lines = OUT + ["clock 6200"]
    game, _, err = run_agg(agg_log(race_deck("QH AH 2H 3H 4H " + sixth), *lines,
                                   rules="call=%d" % call))
    assert err is None and game.phase == PLAY and not game.packs[0]
    assert list(game.row_len) == [1, 6]
    return game, Controls()


def press(game, seat, pos, t):
    assert game.press(seat, pos, t) == 0
    game.advance(t + 1)
    return game.tick_result[0]


def test_each_stack_has_one_column_button_on_each_pad_and_its_line():
    for seat in range(2):
        for pos in list(range(13)) + list(range(14, 27)):
            button = column_button(seat, pos)
            owner = pos // ROW_BASE
            near = owner == seat
            assert (button < 4) == near
            k = pos - owner * ROW_BASE
            assert line_of(pos) == k // 4
            if k < 4:  # a row's first four stacks: the 2x4 game's buttons
                assert position(seat, button) == seat * 4 + k if near else \
                    position(seat, button) == (1 - seat) * 4 + k
    assert column_button(0, 4) == 0 and column_button(0, 14) == 7 and column_button(0, 18) == 7
    assert column_button(1, 14) == 0 and column_button(1, 0) == 7 and column_button(1, 12) == 7


def test_a_column_with_one_stack_is_pressed_at_once_legal_or_not():
    game = sixes()
    keys = game.controls
    assert keys.target(game, 0, 2) == 2  # A's 4C: the column's only stack, not coverable
    assert keys.target(game, 0, 3) == 3
    assert keys.target(game, 0, 5) == 16  # B's column 2 (A's far row, 2nd from A's left): 9C
    assert keys.target(game, 1, 2) == 16 and keys.target(game, 1, 5) == 2  # mirrored
    assert keys.selection(game, 0, game.clock) == -1 == keys.selection(game, 1, game.clock)
    assert press(game, 0, 2, 5400) == ILLEGAL  # as at the table: it locks


def test_a_column_whose_one_legal_stack_is_pressed_at_once():
    game = sixes()
    keys = game.controls
    assert keys.target(game, 0, 6) == 19  # B's column 1: 8C and 9D, only 9D coverable
    assert keys.target(game, 1, 1) == 19
    assert press(game, 0, 19, 5400) == COVER


def test_several_legal_or_none_select_the_column_and_a_second_press_chooses_the_line():
    game = sixes()
    keys = game.controls
    before = keys.changes
    assert keys.target(game, 0, 1) == -1  # A's column 1: 3C and 3D, both coverable
    assert keys.selection(game, 0, game.clock) == 1 and keys.changes == before + 1
    assert keys.target(game, 0, 1) == 5  # the 2nd button of the near row: line 1
    assert keys.selection(game, 0, game.clock) == -1
    assert keys.target(game, 0, 1) == -1 and keys.target(game, 0, 0) == 1  # line 0
    assert keys.target(game, 0, 0) == -1  # column 0: 2C and 6C, neither coverable
    assert keys.selection(game, 0, game.clock) == 0
    assert keys.target(game, 0, 1) == 4  # an illegal press takes two deliberate presses
    assert press(game, 0, 4, 5400) == ILLEGAL
    assert keys.target(game, 1, 7) == -1  # B's far button 4 from its left: A's column 0
    assert keys.selection(game, 1, game.clock) == 0
    assert keys.target(game, 1, 4) == 0  # line 0 (at A's edge) is B's far 1st button


def test_a_line_with_no_stack_cancels_and_the_other_pad_row_is_judged_afresh():
    game = sixes()
    keys = game.controls
    keys.target(game, 0, 1)
    assert keys.target(game, 0, 2) == -1  # line 2 of A's column 1: no stack
    assert keys.selection(game, 0, game.clock) == -1
    assert keys.target(game, 0, 6) == 19  # cancelled: the far row is judged alone
    keys.target(game, 0, 1)
    assert keys.target(game, 0, 6) == 19  # the other pad row: its column judged afresh
    assert keys.selection(game, 0, game.clock) == -1
    keys.target(game, 0, 1)
    assert keys.target(game, 0, 4) == 17  # far 1st: B's column 3, TC alone, at once
    keys.target(game, 0, 1)
    assert keys.target(game, 0, 7) == -1  # far 4th: B's column 0 (7C, JC: none legal)
    assert keys.selection(game, 0, game.clock) == 4  # selected in its turn
    assert keys.target(game, 0, 5) == 18  # far 2nd: line 1 of B's column 0, JC


def test_an_empty_column_does_nothing():
    game, _, err = run_agg(agg_log(deck_line("2C", "2D"), "clock 1300"))
    keys = Controls()
    assert list(game.row_len) == [1, 1]
    for seat in range(2):
        for button in range(8):
            n = keys.target(game, seat, button)
            own = 0 if button < 4 else 1
            column = button if button < 4 else 7 - button
            assert n == (((seat ^ own) * ROW_BASE) if column == 0 else -1)
    assert keys.selection(game, 0, game.clock) == -1 and keys.changes == 0


def test_a_selection_lapses_with_time_a_changed_column_and_a_new_game():
    game = sixes()
    keys = game.controls
    keys.target(game, 0, 1)
    t = game.clock
    assert keys.selection(game, 0, t + SELECT_MS - 1) == 1
    assert keys.selection(game, 0, t + SELECT_MS) == -1
    keys.target(game, 0, 1)
    assert press(game, 1, 1, 5400) == COVER  # B covers A's 3C: the column changed
    assert keys.selection(game, 0, game.clock) == -1
    # 3D is pending, and B's 7S on 3C matches B's 7C: both of the column coverable
    assert game.coverable >> 1 & 1 and game.coverable >> 5 & 1 and game.coverable >> 14 & 1
    assert keys.target(game, 0, 1) == -1 and keys.selection(game, 0, game.clock) == 1
    keys.reset()
    keys.target(game, 1, 7)  # B: A's column 0 (2C, 6C: none legal) is selected
    assert keys.selection(game, 1, game.clock) == 0
    game.new_match()
    assert keys.selection(game, 1, game.clock) == -1


def test_a_selection_made_long_ago_does_not_choose_a_line():
    game = sixes()
    keys = game.controls
    keys.target(game, 0, 1)
    game.advance(game.clock + SELECT_MS)
    assert keys.target(game, 0, 0) == -1  # judged afresh: column 0 (none legal) selects
    assert keys.selection(game, 0, game.clock) == 0


def test_out_of_cards_a_call_is_two_presses_one_per_stack():
    game, keys = out_of_cards("5S")  # 19 = 5S matches A's 0 = 5H
    assert game.pairs == 1 << 0 | 1 << 19
    n = keys.target(game, 0, 6)  # B's column 1: AH and 5S, only 5S can be tapped
    assert n == 19
    t = game.clock + 10
    press(game, 0, n, t)
    assert game.held(0, t + 1) == 19
    assert keys.target(game, 0, 0) == 0  # A's own 5H: the column's one stack
    game.press(0, 0, t + 100)
    game.advance(t + 101)
    assert game.calls == 1 and game.result == WIN_A


def test_out_of_cards_with_a_pair_in_one_column_the_partner_of_a_held_tap_is_one_press():
    game, keys = out_of_cards("AS")  # 15 = AH and 19 = AS, both in B's column 1
    assert game.pairs == 1 << 15 | 1 << 19
    assert keys.target(game, 0, 6) == -1  # both can be tapped: the column is selected
    n = keys.target(game, 0, 4)  # line 0
    assert n == 15
    t = game.clock + 10
    press(game, 0, n, t)
    assert game.held(0, t + 1) == 15
    assert keys.target(game, 0, 6) == 19  # the held rank's partner: the column's one call
    game.press(0, 19, t + 50)
    game.advance(t + 51)
    assert game.calls == 1


def test_a_held_tap_whose_stack_was_covered_is_judged_as_a_first_tap_again():
    game, keys = out_of_cards("AS")
    t = game.clock + 10
    press(game, 0, 15, t)  # A holds AH
    assert game.held(0, t + 1) == 15
    press(game, 1, 15, t + 20)  # B covers it (15 and 19 were a match)
    assert game.tops[15] != game.hold_card[0] and game.held(0, t + 21) == 15
    # B's 2S on 15 matches 2H (16); AS (19) is pending, on no pair. The hold is on a
    # covered stack, so the next tap is a first tap: 15 is the column's one legal tap.
    assert game.pairs == 1 << 15 | 1 << 16
    assert keys.target(game, 0, 6) == 15


def test_no_single_press_from_a_fresh_state_is_an_illegal_press_in_a_long_column():
    game = sixes()
    for seat in range(2):
        for button in range(8):
            n = Controls().target(game, seat, button)
            if n < 0:
                continue
            owner = n // ROW_BASE
            column = (n - owner * ROW_BASE) % 4
            stacks = len(range(column, game.row_len[owner], 4))
            assert stacks == 1 or (game.coverable >> n) & 1, (seat, button, n)


def test_the_kind_maps_every_button_through_the_controls():
    game = sixes()
    for seat in range(2):
        for button in range(8):
            game.controls.reset()
            assert kind.target(game, seat, button) == Controls().target(game, seat, button)
