"""What the firmware draws: the table equals the engine's state, B's side is turned,
counts, locks, pending/hint marks and messages are right, on several screen sizes."""

import pytest
from adafruit_display_text import bitmap_label

from fw_rig import Rig
from engine.cards import NO_CARD
from hw import gfx
from hw.app import GAME, READY
from tools.cpstubs.screen import snapshot


def check_table(rig):
    """Assert that every position shows the engine's top card, correctly drawn."""
    game = rig.game
    table = rig.app.table
    for pos in range(8):
        top = game.tops[pos]
        card = table.cards[pos]
        assert table.shown_top(pos) == top
        if top == NO_CARD:
            assert card.face.hidden
            continue
        assert not card.face.hidden
        assert card.rank[0] == top >> 2
        assert card.suit[0] == top & 3
        assert card.ink[1] == (gfx.RED if (top & 3) in (1, 2) else gfx.BLACK)
        assert card.rank.flip_x == card.rank.flip_y == (pos >= 4)
        assert card.suit.flip_x == card.suit.flip_y == (pos >= 4)
    for seat in range(2):
        assert table.pack_labels[seat].text == "Pack %d" % game.packs[seat]
        wins = game.rules.wins
        assert table.won_labels[seat].text == "Won %d of %d" % (game.score[seat], wins)


@pytest.fixture
def rig():
    r = Rig(start=10000, seed=2024)
    r.start_match()
    return r


def test_cards_counts_and_rotation_follow_the_game(rig):
    check_table(rig)
    for _ in range(25):  # cover a few cards, from both pads
        cov = rig.coverable()
        if rig.app.mode != GAME or not cov:
            break
        rig.press_pos(len(rig.trace) % 2, cov[0])
        rig.run(60)
        rig.app.table.update(rig.game, rig.now, rig.app.message(rig.now), False)
        check_table(rig)
    assert rig.game.packs[0] + rig.game.packs[1] < 44  # cards were really played


def test_b_text_is_upside_down_and_a_text_upright(rig):
    table = rig.app.table
    for labels in (table.pack_labels, table.won_labels, table.lock_labels,
                   table.message_labels):
        assert isinstance(labels[0], bitmap_label.Label)
        assert labels[0].label_direction == "LTR"
        assert labels[1].label_direction == "UPD"


def test_layout_b_row_on_top_from_b_left_to_right(rig):
    cards = rig.app.table.cards
    xs_a = [cards[p].x for p in range(4)]
    xs_b = [cards[p].x for p in range(4, 8)]
    assert xs_a == sorted(xs_a)  # A: 0 1 2 3 from the screen's left
    assert xs_b == sorted(xs_b, reverse=True)  # B: 4 at the screen's right (B's left)
    assert all(cards[p].y < cards[0].y for p in range(4, 8))
    assert cards[7].x == cards[0].x and cards[4].x == cards[3].x  # facing columns


def test_card_width_cannot_be_set_as_on_a_board(rig):
    card = rig.app.table.cards[0]
    with pytest.raises(AttributeError):
        card.width = 10


def test_pixels_show_red_and_black_suits(rig):
    image = snapshot(rig.app.display)
    game = rig.game
    for pos in range(8):
        card = rig.app.table.cards[pos]
        x0 = rig.app.table.grid.x + card.x
        y0 = rig.app.table.grid.y + card.y
        box = image.crop((x0 + 4, y0 + 4, x0 + card.width - 4, y0 + card.height - 4))
        colors = {c for _, c in box.getcolors(100000)}
        red = any(r > 150 and g < 60 and b < 60 for r, g, b in colors)
        assert red == ((game.tops[pos] & 3) in (1, 2))
        assert any(r > 200 and g > 200 and b > 180 for r, g, b in colors)  # card face


def test_lock_indicator_during_the_penalty(rig):
    table = rig.app.table
    cov = rig.coverable()
    bad = [p for p in range(8) if p not in cov][0]
    assert table.lock_labels[0].hidden
    rig.press_pos(0, bad)
    rig.run(20)
    assert rig.game.locked_at(0, rig.now)
    assert not table.lock_labels[0].hidden
    assert table.strip_palettes[0][0] == gfx.LOCKED
    assert table.lock_labels[1].hidden  # B is not locked
    rig.run(600)  # penalty is 500 ms
    assert table.lock_labels[0].hidden
    assert table.strip_palettes[0][0] == gfx.PANEL


def test_pending_and_hint_marks(rig):
    table = rig.app.table
    game = rig.game
    rig.app.hints = True
    rig.run(10)
    for pos in rig.coverable():
        assert table.cards[pos].border in (gfx.HINT, gfx.PENDING)
    for pos in range(8):
        if pos not in rig.coverable():
            assert table.cards[pos].border == gfx.EDGE
    # Cover one card of a match: its uncovered partners become pending (orange).
    for _ in range(40):
        cov = rig.coverable()
        rig.press_pos(0, cov[0])
        rig.run(60)
        if game.pending:
            break
    assert game.pending
    for pos in range(8):
        if (game.pending >> pos) & 1:
            assert table.cards[pos].border == gfx.PENDING


def test_messages_through_a_game():
    rig = Rig(start=3000, seed=5)
    from hw.app import MENU
    rig.tap(16)
    rig.run(40)
    assert rig.app.mode == MENU
    rig.tap(16)
    rig.run(30)  # the release, debounced
    table = rig.app.table
    assert rig.app.mode == READY
    assert table.message_labels[0].text == "Get ready..."
    assert table.message_labels[1].text == "Get ready..."
    rig.run_until(lambda: rig.game.phase == 1, dt=2)  # DEALING
    rig.step(1)
    assert table.message_labels[0].text == "Dealing"
    rig.run_until(lambda: rig.game.phase == 2, dt=2)
    rig.step(2)
    assert table.message_labels[0].text == "GO!" and not table.message_labels[0].hidden
    rig.run(1000)
    assert table.message_labels[0].hidden
    rig.tap(16)  # START: pause
    rig.run(50)
    assert table.message_labels[0].text == table.message_labels[1].text == \
        "Paused: START resumes"
    assert rig.app.paused
    cov = rig.coverable()
    rig.press_pos(0, cov[0])  # not played while paused
    rig.run(100)
    assert "press " not in rig.log_text()
    rig.tap(16)
    rig.run(50)
    assert not rig.app.paused


def test_game_over_messages_per_seat():
    rig = Rig(start=3000, seed=5)
    app = rig.app
    rig.start_match()
    game = rig.game
    spent = 0
    while game.phase != 4:  # A plays every match alone
        assert spent < 200000
        cov = rig.coverable()
        if cov and spent % 30 == 0:
            rig.press_pos(0, cov[0])
        rig.step(5)
        spent += 5
    rig.step(5)
    texts = (app.table.message_labels[0].text, app.table.message_labels[1].text)
    if game.result == 0:
        assert texts == ("You win the game!", "A wins the game")
    elif game.result == 1:
        assert texts == ("B wins the game", "You win the game!")


@pytest.mark.parametrize("size", [(320, 240), (240, 240), (240, 135), (480, 320)])
def test_layout_fits_every_screen(size):
    width, height = size
    rig = Rig(start=1000, builtin=size, settings={"CSPEED_PROFILE": "builtin"})
    assert rig.profile == "builtin"
    rig.start_match()
    table = rig.app.table
    geo = table.geometry
    grid = table.grid
    for pos in range(8):
        card = table.cards[pos]
        x = grid.x + card.x
        y = grid.y + card.y
        assert 0 <= x and x + card.width <= width
        assert geo["strip"] <= y and y + card.height <= height - geo["strip"]
    # The rows leave the middle band free for the messages.
    assert grid.y + table.cards[4].y + table.cards[4].height < height // 2 - 4
    assert grid.y + table.cards[0].y > height // 2 + 4
    check_table(rig)


def test_an_idle_frame_touches_nothing(rig, monkeypatch):
    """Once the table is drawn, frames with no change set no text and no tile."""
    rig.run(1500)  # "GO!" has gone
    sets = []
    original = bitmap_label.Label._set_text

    def counting(self, new_text, scale):
        sets.append(new_text)
        return original(self, new_text, scale)

    monkeypatch.setattr(bitmap_label.Label, "_set_text", counting)
    shows = []
    for card in rig.app.table.cards:
        monkeypatch.setattr(card, "mark", lambda c, shows=shows: shows.append(c))
    changes = rig.game.changes
    rig.run(300)
    assert rig.game.changes == changes
    assert sets == [] and shows == []
