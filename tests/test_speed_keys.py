"""Speed's controls (hw/games/speed/keys.py): one press plays a card that fits one pile only;
a card that fits both (or none) waits for a pile button; nothing else ever plays."""

from engine.cards import parse_card
from engine.family import COVER, DEALING, ILLEGAL, PLAY
from engine.speed import SpeedGame
from hw.games.speed.keys import CANCEL, PILE_LEFT, PILE_RIGHT, Controls, pile_button, slot_button
from speed_helpers import Recorder, speed_deck

# Middle 5D and 7D. A: 6C fits both, 4C pile 0 only, 8C pile 1 only, KC none, 6S both.
DECK = speed_deck(a="6C 4C 8C KC 6S", b="6H 4H 8H KH 6D", mid="5D 7D")


def new_game(t=1000, deal=300):
    game = SpeedGame()
    game.rules.deal = deal
    game.set_rules(game.rules)
    rec = Recorder(game)
    assert game.set_deck([parse_card(name) for name in DECK.split()[1:]])
    game.start(t)
    game.advance(t + deal)
    assert game.phase == PLAY
    return game, rec


def play(game, seat, n, t):
    """Press ``n`` at ``t`` and judge it; the press's result."""
    assert game.press(seat, n, t) == 0
    game.advance(t + 1)
    return game.tick_result[0]


def test_the_layout_maps_every_button_once():
    assert [slot_button(s) for s in range(5)] == [0, 1, 2, 3, 6]
    assert (PILE_LEFT, CANCEL, PILE_RIGHT) == (4, 5, 7)
    assert pile_button(0, 0) == pile_button(1, 1) == PILE_LEFT  # B sits opposite
    assert pile_button(0, 1) == pile_button(1, 0) == PILE_RIGHT


def test_a_card_that_fits_one_pile_only_is_played_by_one_press():
    game, _ = new_game()
    keys = Controls()
    assert keys.target(game, 0, slot_button(1)) == 1  # 4C on pile 0 (5D)
    assert keys.target(game, 0, slot_button(2)) == 5 + 2  # 8C on pile 1 (7D)
    assert keys.selection(game, 0) == -1
    assert play(game, 0, 7, 2000) == COVER


def test_a_card_that_fits_both_piles_waits_for_the_pile_button():
    game, _ = new_game()
    keys = Controls()
    before = keys.changes
    assert keys.target(game, 0, slot_button(0)) == -1  # 6C: on 5D or 7D
    assert keys.selection(game, 0) == 0 and keys.changes == before + 1
    assert keys.target(game, 0, slot_button(0)) == -1  # pressed again: still waiting
    assert keys.target(game, 0, PILE_RIGHT) == 5 + 0
    assert keys.selection(game, 0) == -1  # the card was put down
    assert keys.target(game, 0, PILE_RIGHT) == -1  # a pile alone plays nothing
    assert keys.target(game, 0, slot_button(4)) == -1  # 6S: both again
    assert keys.target(game, 0, PILE_LEFT) == 4


def test_seat_b_sees_the_piles_from_the_other_side():
    game, _ = new_game()
    keys = Controls()
    assert keys.target(game, 1, slot_button(0)) == -1  # 6H: both
    assert keys.target(game, 1, PILE_LEFT) == 5 + 0  # B's left is pile 1
    assert keys.target(game, 1, slot_button(4)) == -1
    assert keys.target(game, 1, pile_button(1, 0)) == 4
    assert keys.target(game, 1, slot_button(1)) == 1  # 4H: pile 0 only, at once


def test_a_card_that_fits_nowhere_needs_a_pile_press_to_be_an_illegal_play():
    game, _ = new_game()
    keys = Controls()
    assert keys.target(game, 0, slot_button(3)) == -1  # KC fits neither
    assert keys.selection(game, 0) == 3
    n = keys.target(game, 0, PILE_LEFT)
    assert n == 3
    assert play(game, 0, n, 2000) == ILLEGAL
    assert game.locked_at(0, 2001)


def test_cancel_another_card_and_empty_slots():
    game, _ = new_game()
    keys = Controls()
    for button in (PILE_LEFT, PILE_RIGHT, CANCEL):
        assert keys.target(game, 0, button) == -1
    keys.target(game, 0, slot_button(0))
    assert keys.target(game, 0, CANCEL) == -1 and keys.selection(game, 0) == -1
    assert keys.target(game, 0, PILE_LEFT) == -1  # cancelled: nothing to put down
    keys.target(game, 0, slot_button(0))
    keys.target(game, 0, slot_button(3))  # another card replaces the selection
    assert keys.selection(game, 0) == 3
    assert keys.target(game, 0, slot_button(1)) == 1  # a one-pile card plays, and ...
    assert keys.selection(game, 0) == -1  # ... drops the selection
    game.hands[2] = 255  # an empty slot: nothing
    assert keys.target(game, 0, slot_button(2)) == -1 and keys.selection(game, 0) == -1
    assert keys.selection(game, 1) == -1  # B's untouched


def test_during_the_deal_window_a_card_is_only_selected():
    game = SpeedGame()
    assert game.set_deck([parse_card(name) for name in DECK.split()[1:]])
    game.start(1000)
    assert game.phase == DEALING
    keys = Controls()
    assert keys.target(game, 0, slot_button(1)) == -1  # would be ignored by the rules
    assert keys.selection(game, 0) == 1
    assert keys.target(game, 0, pile_button(0, 0)) == -1  # the rules would ignore it ...
    assert keys.selection(game, 0) == 1  # ... so nothing is sent and the card stays up
    game.advance(1300)
    assert keys.target(game, 0, pile_button(0, 0)) == 1  # then a pile plays it ...
    keys.target(game, 0, slot_button(2))
    assert keys.target(game, 0, slot_button(2)) == 7  # ... or the card again, in play


def test_a_selection_ends_when_its_card_leaves_or_a_new_game_starts():
    game, _ = new_game()
    keys = Controls()
    keys.target(game, 0, slot_button(0))
    assert play(game, 0, 0, 2000) == COVER  # played by other means (a CPU seat, a test)
    assert keys.selection(game, 0) == -1
    assert keys.target(game, 0, PILE_LEFT) == -1
    game, _ = new_game()
    keys.target(game, 0, slot_button(0))
    assert keys.selection(game, 0) == 0
    game.new_match()  # the game is over (as a frame between games sees it) ...
    assert keys.selection(game, 0) == -1
    keys.target(game, 0, slot_button(0))
    assert game.set_deck([parse_card(name) for name in DECK.split()[1:]])
    game.start(5000)  # ... or the same cards are dealt again: still a new game
    assert keys.selection(game, 0) == -1
    keys.target(game, 1, slot_button(0))
    keys.reset()
    assert keys.selection(game, 1) == -1


def test_no_button_sequence_makes_an_illegal_play_with_fewer_than_two_presses():
    """Every single press from a fresh state plays only a legal move."""
    game, _ = new_game()
    for seat in range(2):
        for button in range(8):
            n = Controls().target(game, seat, button)
            assert n == -1 or (game.legal[seat] >> n) & 1
