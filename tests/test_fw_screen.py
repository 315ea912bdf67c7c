"""What the firmware draws: the table equals the engine's state, every card carries an
index upright for each seat, B's text is turned, counts, locks, pending/hint marks, the
score line and messages are right, on several screen sizes."""

import displayio
import pytest

from fw_rig import Rig
from engine.cards import NO_CARD
from hw.draw import gfx
from hw.app.modes import GAME, READY
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
            assert all(tile.hidden for tile in card.tiles) and card.paper[0] == gfx.FELT
            continue
        assert not any(tile.hidden for tile in card.tiles) and card.paper[0] == gfx.FACE
        # Each seat's index shows the card, upright for that seat: B's is A's turned
        # 180 degrees about the card's centre (the same places in either row).
        (rank_a, suit_a), (rank_b, suit_b) = card.indices
        for rank_t, suit_t, turned in ((rank_a, suit_a, False), (rank_b, suit_b, True)):
            assert rank_t[0] == top >> 2 and suit_t[0] == top & 3
            assert rank_t.flip_x == rank_t.flip_y == suit_t.flip_x == suit_t.flip_y == turned
        for a, b in ((rank_a, rank_b), (suit_a, suit_b)):
            assert b.x == card.width - a.x - a.tile_width
            assert b.y == card.height - a.y - a.tile_height
        assert (card.rank, card.suit) == card.indices[1 if pos >= 4 else 0]  # the owner's
        if card.pip is not None:  # the centre pip: the suit, turned for its row's owner
            assert card.pip[0] == top & 3
            assert card.pip.flip_x == card.pip.flip_y == (pos >= 4)
        assert card.ink[1] == (gfx.RED if (top & 3) in (1, 2) else gfx.BLACK)
    for seat in range(2):
        assert table.packs_text[seat].text == "Pack %d" % game.packs[seat]
        wins = game.rules.wins
        me, them = "AB"[seat], "AB"[1 - seat]
        assert table.won_text[seat].text == "%s %d - %d %s  first to %d" % (
            me, game.score[seat], game.score[1 - seat], them, wins)


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
    for fields in (table.packs_text, table.won_text, table.lock_text, table.messages):
        assert not fields[0].grid.flip_x and not fields[0].grid.flip_y
        assert fields[1].grid.flip_x and fields[1].grid.flip_y  # turned 180 degrees


def test_layout_b_row_on_top_from_b_left_to_right(rig):
    cards = rig.app.table.cards
    xs_a = [cards[p].x for p in range(4)]
    xs_b = [cards[p].x for p in range(4, 8)]
    assert xs_a == sorted(xs_a)  # A: 0 1 2 3 from the screen's left
    assert xs_b == sorted(xs_b, reverse=True)  # B: 4 at the screen's right (B's left)
    assert all(cards[p].y < cards[0].y for p in range(4, 8))
    assert cards[7].x == cards[0].x and cards[4].x == cards[3].x  # facing columns


def test_a_card_is_one_tile_per_glyph_over_its_face(rig):
    """Each card: a face, two indices (rank and suit tiles), a pip and four border
    strips, all TileGrids, no groups; the glyph tiles share the card's ink palette."""
    for card in rig.app.table.cards:
        layers = list(card.group)
        assert card.pip is not None  # 320x240: room for the centre pip
        assert len(layers) == 1 + 5 + 4
        assert layers[1:6] == list(card.tiles)
        assert [layers[1], layers[2], layers[3], layers[4], layers[5]] == \
            [card.indices[0][0], card.indices[0][1], card.indices[1][0], card.indices[1][1],
             card.pip]
        assert all(isinstance(layer, displayio.TileGrid) for layer in layers)
        assert all(tile.pixel_shader is card.ink for tile in card.tiles)
        assert not card.ink.is_transparent(0)  # opaque: nothing below it is drawn
        strips = [layer for layer in layers[6:]]
        assert all(isinstance(s, displayio.TileGrid) and s.pixel_shader is card.edge
                   for s in strips)
        assert all(min(s.bitmap.width, s.bitmap.height) == gfx.BORDER for s in strips)


def test_pixels_show_red_and_black_suits(rig):
    image = snapshot(rig.app.display)
    game = rig.game
    for pos in range(8):
        card = rig.app.table.cards[pos]
        x0 = card.x
        y0 = card.y
        box = image.crop((x0 + 4, y0 + 4, x0 + card.width - 4, y0 + card.height - 4))
        colors = {c for _, c in box.getcolors(100000)}
        red = any(r > 150 and g < 60 and b < 60 for r, g, b in colors)
        assert red == ((game.tops[pos] & 3) in (1, 2))
        assert any(r > 200 and g > 200 and b > 180 for r, g, b in colors)  # card face


def test_lock_indicator_during_the_penalty(rig):
    table = rig.app.table
    cov = rig.coverable()
    bad = [p for p in range(8) if p not in cov][0]
    assert table.lock_text[0].hidden
    rig.press_pos(0, bad)
    rig.run(20)
    assert rig.game.locked_at(0, rig.now)
    assert not table.lock_text[0].hidden
    assert table.lock_text[0].text == "LOCKED"
    assert table.lock_text[0].palette[0] == gfx.LOCKED  # an opaque red box
    assert table.lock_text[1].hidden  # B is not locked
    rig.run(600)  # penalty is 500 ms
    assert table.lock_text[0].hidden


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
    from hw.app.modes import MENU
    rig.tap(16)
    rig.run(40)
    assert rig.app.mode == MENU
    rig.tap(16)
    rig.run(30)  # the release, debounced
    table = rig.app.table
    assert rig.app.mode == READY
    assert table.messages[0].text == "Get ready..."
    assert table.messages[1].text == "Get ready..."
    rig.run_until(lambda: rig.game.phase == 1, dt=2)  # DEALING
    rig.step(1)
    assert table.messages[0].text == "Dealing"
    rig.run_until(lambda: rig.game.phase == 2, dt=2)
    rig.step(2)
    assert table.messages[0].text == "GO!" and not table.messages[0].hidden
    rig.run(1000)
    assert table.messages[0].text == table.messages[1].text == ""
    rig.tap(16)  # START: pause
    rig.run(50)
    assert table.messages[0].text == table.messages[1].text == \
        "Paused: START resumes"
    assert rig.app.paused
    cov = rig.coverable()
    rig.press_pos(0, cov[0])  # not played while paused
    rig.run(100)
    assert "press " not in rig.log_text()
    rig.tap(16)
    rig.run(50)
    assert not rig.app.paused


def test_game_over_message_names_the_winner_to_both_seats():
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
    texts = (app.table.messages[0].text, app.table.messages[1].text)
    if game.result in (0, 1):
        assert texts == ("%s wins the game" % "AB"[game.result],) * 2


@pytest.mark.parametrize("size", [(320, 240), (240, 240), (240, 135), (480, 320)])
def test_layout_fits_every_screen(size):
    width, height = size
    rig = Rig(start=1000, builtin=size, settings={"CSPEED_PROFILE": "builtin"})
    assert rig.profile == "builtin"
    rig.start_match()
    table = rig.app.table
    geo = table.geometry
    for pos in range(8):
        card = table.cards[pos]
        assert 0 <= card.x and card.x + card.width <= width
        assert geo["strip"] <= card.y and card.y + card.height <= height - geo["strip"]
        boxes = []
        for tile in card.tiles:  # inside the card's border, none over another
            w = tile.tile_width
            h = tile.tile_height
            assert gfx.BORDER <= tile.x and tile.x + w <= card.width - gfx.BORDER
            assert gfx.BORDER <= tile.y and tile.y + h <= card.height - gfx.BORDER
            for (x, y, bw, bh) in boxes:
                assert tile.x + w <= x or x + bw <= tile.x or \
                    tile.y + h <= y or y + bh <= tile.y, (size, pos)
            boxes.append((tile.x, tile.y, w, h))
        # Ranks as large as the card allows: 20 px (10 font rows x 2) on all three boards.
        assert card.rank.tile_height == 2 * gfx.RANK_TILE_H
        assert len(card.tiles) == (4 if size == (240, 135) else 5)  # a pip where it fits
    # The rows leave the middle band free for the messages.
    assert table.cards[4].y + table.cards[4].height < height // 2 - 4
    assert table.cards[0].y > height // 2 + 4
    for seat in range(2):  # the text fits the screen; the strip's fields do not overlap
        for field in (table.packs_text[seat], table.won_text[seat], table.lock_text[seat],
                      table.messages[seat]):
            assert 0 <= field.group.x and field.group.x + field.pixel_width <= width
        strip = sorted((table.packs_text[seat], table.lock_text[seat], table.won_text[seat]),
                       key=lambda field: field.group.x)
        for left, right in zip(strip, strip[1:]):
            assert left.group.x + left.pixel_width <= right.group.x, (size, seat)
    check_table(rig)


def test_an_idle_frame_touches_nothing(rig, monkeypatch):
    """Once the table is drawn, frames with no change set no text and no tile."""
    rig.run(1500)  # "GO!" has gone
    from hw.draw import text as text_mod

    sets = []
    monkeypatch.setattr(text_mod.Text, "put", lambda self, i, code: sets.append(code))
    shows = []
    for card in rig.app.table.cards:
        monkeypatch.setattr(card, "mark", lambda c, shows=shows: shows.append(c))
    changes = rig.game.changes
    rig.run(300)
    assert rig.game.changes == changes
    assert sets == [] and shows == []


@pytest.mark.parametrize("make, tile_w, tile_h, blank", [
    (lambda s: gfx.rank_sheet(None, s), gfx.RANK_TILE_W, gfx.RANK_TILE_H, gfx.BLANK_RANK),
    (gfx.suit_sheet, gfx.SUIT_SIZE, gfx.SUIT_SIZE, gfx.BLANK_SUIT)])
def test_card_sheets_at_a_scale_are_the_font_pixels_scaled(make, tile_w, tile_h, blank):
    one = make(1)
    three = make(3)
    assert (three.width, three.height) == (3 * one.width, 3 * one.height)
    assert all(three[x, y] == one[x // 3, y // 3]
               for x in range(three.width) for y in range(three.height))
    ink = [sum(one[t * tile_w + x, y] for x in range(tile_w) for y in range(tile_h))
           for t in range(blank + 1)]
    assert all(ink[:blank]) and ink[blank] == 0  # every tile inked, then a blank


def test_six_and_nine_are_underlined_and_no_other_rank():
    """A 9 upside down is not a 6: both carry a bar under the glyph, as real cards do."""
    sheet = gfx.rank_sheet()
    w = gfx.RANK_TILE_W
    for rank in range(13):
        bar = [sheet[rank * w + x, gfx.UNDERLINE_ROW] for x in range(w)]
        above = [sheet[rank * w + x, gfx.UNDERLINE_ROW - 1] for x in range(w)]
        if gfx.RANK_TEXT[rank] in ("6", "9"):
            assert sum(bar) == gfx.UNDERLINE_W and not any(above)  # a gap, then the bar
        else:
            assert not any(bar), gfx.RANK_TEXT[rank]
    # Turned 180 degrees, B's 9 is A's 6 with its bar above: the two never look alike.
    six = [[sheet[5 * w + x, y] for x in range(w)] for y in range(gfx.RANK_TILE_H)]
    nine = [[sheet[8 * w + x, y] for x in range(w)] for y in range(gfx.RANK_TILE_H)]
    turned_nine = [row[::-1] for row in nine[::-1]]
    assert six != turned_nine
