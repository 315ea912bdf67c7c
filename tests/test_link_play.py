"""Link play on two handhelds' firmware in one process (tests/link_rig.py): a linked
match of each game with identical logs on both that replay to the same trace; each
screen drawn from its own seat (Speed hides the opponent's hand); the faults: the
cable pulled (both pause within 0.5 s, "Link lost", then resume), bytes dropped and
corrupted (resent, logs still identical), two hosts on one cable, the host restarting.
"""

import pytest

from link_rig import LinkedPair
from fw_rig import replay, split_matches
from hw.app.linked import _MSG_LINK_LOST as MSG_LINK_LOST
from hw.app.modes import GAME, LINK
from hw.board.pads import KEY_START
from hw.link import link as lk

GAMES = ("grid", "row", "speed", "aggravation")

BACK = -2  # hw.draw.card_view: CardView.card while its back is shown


def linked(game="grid", ppm_b=0.0, seed=1):
    pair = LinkedPair(ppm_b=ppm_b, seed=seed)
    pair.choose_game(game)
    pair.link_up()
    return pair


def assert_same_logs(pair):
    a, b = pair.a.log_text(), pair.b.log_text()
    assert a == b
    matches = split_matches(a)
    assert matches
    for text in matches:
        assert replay(text)  # tools/replay's reading: the same trace from either log
    return matches


@pytest.mark.parametrize("game", GAMES)
def test_a_linked_match_of_each_game_gives_one_log_on_both(game):
    pair = linked(game, ppm_b=100.0)
    pair.start_match()
    assert pair.play_match(limit_ms=400000)
    matches = assert_same_logs(pair)
    assert "game=%s" % game in matches[0] or game == "grid"
    assert " B " in matches[0] and " A " in matches[0]  # both seats pressed
    host, guest = pair.a.app, pair.b.app
    assert host.game.match_winner == guest.game.match_winner
    assert host.session.seat == 0 and guest.session.seat == 1
    assert host.table.player == 0 and guest.table.player == 1


def test_a_linked_match_starts_at_the_hosts_time_past_half_the_tick_range():
    # ticks_ms past 2**28 (3.1 days up; the desktop emulator starts 20 s before the
    # wrap): a new engine's clock 0 reads as after now, and the host's first game
    # once started at 0 and waited for the wrap; the guest's estimate of the host's
    # clock, kept from going back from 0, stayed at 0.
    start = (1 << 29) - 20000
    pair = LinkedPair(seed=3, start=start)
    pair.link_up()
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.a.app.game.clock > start,
                          5000)
    line = next(x for x in pair.a.log_text().splitlines() if x.startswith("start "))
    assert int(line.split()[1]) > start
    pair.step(2000)  # and the host judges on as the guest's watermarks come
    assert 0 <= pair.a.clock() - pair.a.app.game.clock <= 20
    # the guest's screen shows the host's time (its CPU player and its flow read it)
    assert abs(pair.b.app.session.host_now(pair.b.clock()) - pair.a.clock()) <= 20


def test_aggravation_is_turned_for_the_guest_with_every_text_upright():
    from hw.games.aggravation.table import TILES

    pair = linked("aggravation")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME
                          and pair.b.app.game.row_len[0] and pair.b.app.game.row_len[1], 8000)
    pair.step(50)
    host, guest = pair.a.app.table, pair.b.app.table
    geo = host.geometry
    w, h = geo["width"], geo["height"]

    def place(view, pos):
        face = view.tiles[TILES * view.slot_of(pos)]
        return face.x - view.dx[0], face.y - view.dy[0]
    for pos in (0, 14):  # each row's first stack, half a turn apart on the two screens
        ax, ay = place(host, pos)
        bx, by = place(guest, pos)
        assert (bx, by) == (w - ax - geo["card_w"], h - ay - geo["card_h"])
    assert place(host, 0)[1] > h // 2 and place(guest, 14)[1] > h // 2  # own row below
    for view in (host, guest):  # both strips read upright from the viewer's seat
        for field in view.left_text + view.score_text + view.messages + view.labels:
            assert not field.flip_y
        assert view.messages[view.player].y > h // 2  # its own strip at the bottom


def test_the_guest_sees_the_opponents_speed_hand_as_backs():
    pair = linked("speed")
    pair.start_match()
    assert pair.run_until(lambda: pair.b.app.mode == GAME and
                          any(c != 255 for c in pair.b.app.game.hands[:5]), 5000)
    pair.step(20)
    guest, host = pair.b.app.table, pair.a.app.table
    hands = pair.b.app.game.hands
    for slot in range(5):
        if hands[slot] != 255:  # A's cards: backs on B's screen, faces on A's
            assert guest.shown_hand(0, slot) == BACK
            assert host.shown_hand(0, slot) == hands[slot]
        if hands[5 + slot] != 255:
            assert guest.shown_hand(1, slot) == hands[5 + slot]
            assert host.shown_hand(1, slot) == BACK


def test_the_table_is_turned_for_the_guest():
    pair = linked("grid")
    pair.start_match()
    pair.step(50)
    host, guest = pair.a.app.table, pair.b.app.table
    h = host.geometry["height"]
    w = host.geometry["width"]
    for pos in range(8):  # the same card places, half a turn apart, every card upright
        a, b = host.cards[pos], guest.cards[pos]
        assert (b.x, b.y) == (w - a.x - a.width, h - a.y - a.height)
        assert not a.flipped and not b.flipped
    assert host.cards[0].y > h // 2 and guest.cards[4].y > h // 2  # each player's row below


def test_the_shared_screen_is_unchanged_without_link():
    from hw.games.grid.table import TableView, card_sheets
    from hw.draw import gfx

    view = TableView(320, 240, gfx.glyph_sheet(), card_sheets(320, 240))
    assert view.player == -1
    assert [c.flipped for c in view.cards] == [False] * 4 + [True] * 4


def test_a_guest_press_is_judged_and_sent_back_in_the_pass_its_watermark_came():
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    pair.step(300)
    host = pair.a.app
    gate = host.session.link.gate
    for key in range(8, 16):  # the guest's player presses its pad until one is logged
        pair.b.tap(key)
        before = host.presses
        at = None
        for _ in range(100):
            pair.step()
            if at is None and host.presses != before:
                line = [x for x in pair.a.log_text().splitlines() if x.startswith("press")][-1]
                assert " B " in line, line
                at = int(line.split()[1])
            if at is not None and gate.horizon[1] > at:
                # the pass whose watermark let the host judge the press judged it (the
                # engine's clock past it) and put its lines on the wire before drawing
                assert host.game.clock > at and host.session.waiting() == 0
                return
    raise AssertionError("no guest press was judged")


def test_the_hosts_own_press_is_drawn_before_its_lines_go_to_the_guest():
    # the host's screen first: sending a frame costs its pass 2.6 ms on a Pico
    # (docs/LINK.md); its lines leave at the next pass's read, right after the refresh
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    pair.step(300)
    host = pair.a.app
    refreshes = []
    display = pair.a.display
    real = display.refresh

    def refresh():
        refreshes.append(host.session.waiting())
        real()

    display.refresh = refresh
    for key in range(8):  # the host's player presses its pad until one is logged
        pair.a.tap(key)
        before = host.presses
        for _ in range(100):
            pair.step()
            if host.presses != before:
                assert refreshes[-1] > 0  # drawn with its lines still waiting
                pair.step()
                assert host.session.waiting() == 0  # gone at the next pass's read
                return
    raise AssertionError("no host press was judged")


def test_the_lines_one_pass_judged_travel_in_one_frame():
    # a play and the clock line that judges it in one LOG frame: the guest judges
    # the play on the frame that brings it, not a frame later
    from hw.link import frame

    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    frames = []
    real = pair.b.app.session.on_log
    pair.b.app.session.on_log = lambda buf, start, n: (
        frames.append(bytes(buf[start:start + n])), real(buf, start, n))
    before = len(pair.b.serial.data)
    pair.play_match(limit_ms=15000)
    judged = [f for f in frames if f.startswith(b"press ") and b"\nclock " in f]
    assert len(judged) >= 5, frames
    assert all(f.endswith(b"\n") and len(f) <= frame._MAX_PAYLOAD for f in frames)
    assert b"".join(frames) == bytes(pair.b.serial.data[before:])  # each line logged once
    assert pair.a.log_text() == pair.b.log_text()


def test_a_handheld_with_other_link_firmware_says_so():
    # frames of another protocol version may mean other things: no link, a message
    pair = LinkedPair()
    port = pair.b.port
    write = port.write

    def write_older(buf, n=None):  # the guest's firmware speaks the version before
        body = frame_body(buf[:n])
        if body[1] == lk._HELLO:
            body[6] = lk._VERSION - 1
            buf = reframe(body)
            n = len(buf)
        return write(buf, n)

    port.write = write_older
    pair.open_link(pair.a, 0)
    pair.open_link(pair.b, 1)
    pair.step(500)
    for hand in (pair.a, pair.b):
        assert hand.app.mode == LINK and not hand.app.session.linked
    assert "firmware differs: update" in pair.a.app.view.shown_lines()
    pair.b.app.session.link.write = write  # the guest updated: they link
    pair.step(500)
    assert pair.a.app.session.linked and pair.b.app.session.linked


def frame_body(buf):
    """A frame's header, payload and CRC, unstuffed."""
    from hw.link import frame

    out, i = bytearray(), 1
    while i < len(buf):
        if buf[i] == frame._ESC:
            out.append(buf[i + 1] ^ frame._FLIP)
            i += 2
        else:
            out.append(buf[i])
            i += 1
    return out


def reframe(body):
    """Encode ``body``'s header and payload again (a fresh CRC)."""
    from hw.link import frame

    out = bytearray(frame._FRAME_MAX)
    n = frame.encode(out, body[0], body[1], body[2], body[3], body[5:5 + body[4]], body[4])
    return out[:n]


def test_the_guests_watermark_covers_a_press_scanned_after_its_pass_began():
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    pair.step(300)
    guest = pair.b
    # keypad scans in the background: a press can be stamped after the pass read ``now``
    stamp = (guest.clock() + 2) & ((1 << 29) - 1)  # the next pass reads now + 1
    guest.key(9, True, at=stamp)
    guest.key(9, False, at=stamp)
    sent = guest.app.session.link.stats[lk._FRAMES_OUT]
    pair.step(1)  # the guest's pass reads it
    link = guest.app.session.link
    assert link.wm_sent == stamp and link.stats[lk._FRAMES_OUT] >= sent + 2  # its press, then this


def test_the_guests_watermark_goes_from_the_clock_its_keys_were_read_at():
    # the cable's read took 2 ms this pass (a LOG frame decoded and played): every
    # press stamped before the keys were read was read, so the watermark says so,
    # not only up to the pass's start
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    pair.step(300)
    guest = pair.b
    link = guest.app.session.link
    clock = link.clock
    link.clock = lambda: (clock() + 2) & ((1 << 29) - 1)
    declared = []
    drained = link.drained

    def record(t):
        declared.append((t, guest.clock()))  # (the pass's time: the rig's clock stands)
        drained(t)

    link.drained = record
    pair.step(5)
    assert declared and all(t == now + 1 for t, now in declared), declared
    # (the pass's start - 1 before); the watermark sent carries it
    assert link.wm_sent in [t for t, _ in declared]


@pytest.mark.parametrize("short", ["host", "guest"])
def test_a_table_the_heap_cannot_hold_abandons_the_match_on_both_without_a_crash(
        monkeypatch, capsys, short):
    import hw.games.grid as kind

    real = kind.view
    failing = [0 if short == "host" else 1]

    def view(width, height, glyphs, tiles, player=-1):
        if player in failing:
            raise MemoryError("memory allocation failed, allocating 640 bytes")
        return real(width, height, glyphs, tiles, player)

    monkeypatch.setattr(kind, "view", view)
    pair = linked("grid")
    pair.a.tap(KEY_START)
    hand = pair.a if short == "host" else pair.b
    assert pair.run_until(lambda: pair.a.app.mode == LINK and pair.b.app.mode == LINK
                          and hand.app.session.problem
                          and not pair.a.app.session.in_match
                          and not pair.b.app.session.in_match, 3000)
    pair.step(200)
    assert hand.app.session.problem[0] == b"Not enough memory"
    assert "link: not enough memory for this game linked: memory allocation failed" in \
        capsys.readouterr().out  # the console says what could not be had
    if short == "guest":
        assert pair.a.app.session.problem[0] == b"The guest's memory"
    assert pair.a.log_text() == pair.b.log_text()
    abandoned = split_matches(pair.a.log_text())
    assert len(abandoned) == 1 and "start" not in abandoned[0]  # no game was dealt
    assert abandoned[0].endswith("# match abandoned (not enough memory)\n")
    failing.clear()  # (memory enough again, as for a game that fits): the next match plays
    pair.start_match()
    assert pair.a.app.session.problem is None and pair.b.app.session.problem is None
    assert pair.play_match(limit_ms=400000)
    assert pair.a.log_text() == pair.b.log_text()
    assert replay(split_matches(pair.a.log_text())[-1])


def test_cable_pulled_pauses_both_within_half_a_second_then_resumes():
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME and pair.b.app.mode == GAME, 5000)
    pair.step(300)
    pair.cut = True
    pulled = pair.true_us
    assert pair.run_until(lambda: pair.a.app.message(pair.a.clock()) == MSG_LINK_LOST
                          and pair.b.app.session.lost, 2000)
    assert (pair.true_us - pulled) / 1000 <= 500
    assert pair.b.app.message(pair.b.app.session.host_now(pair.b.clock())) == \
        MSG_LINK_LOST
    pair.step(1000)
    pair.cut = False
    assert pair.run_until(lambda: not pair.a.app.session.paused()
                          and not pair.b.app.session.paused(), 4000)
    assert pair.play_match(limit_ms=400000)
    assert_same_logs(pair)


def test_a_long_start_while_the_link_is_lost_abandons_the_match():
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.a.app.mode == GAME, 5000)
    pair.cut = True
    pair.step(600)
    pair.a.key(KEY_START, True)
    pair.step(1100)
    pair.a.key(KEY_START, False)
    pair.step(5)
    assert pair.a.app.mode == LINK
    assert "# match abandoned (START held)" in pair.a.log_text()


def test_dropped_and_corrupted_bytes_are_resent_and_the_logs_stay_identical():
    pair = linked("grid", seed=3)
    pair.drop_rate = 0.005
    pair.corrupt_rate = 0.003
    pair.start_match()
    assert pair.play_match(limit_ms=400000)
    assert pair.lost[0] + pair.lost[1] > 0
    assert pair.a.app.session.link.stats[lk._RESENT] + pair.b.app.session.link.stats[lk._RESENT] > 0
    assert_same_logs(pair)


def test_two_hosts_on_one_cable_say_so():
    pair = LinkedPair()
    pair.open_link(pair.a, 0)
    pair.open_link(pair.b, 0)
    pair.step(500)
    for hand in (pair.a, pair.b):
        assert hand.app.mode == LINK
        assert "Two hosts on one cable" in hand.app.view.shown_lines()


def test_the_host_restarting_ends_the_guests_match_as_abandoned():
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.b.app.mode == GAME, 5000)
    pair.step(200)
    # the host's firmware starts again: a new Link (a new nonce) on the same cable
    host = pair.a.app
    host.session.leave()
    host.seeds.next()
    pair.open_link(pair.a, 0)
    assert pair.run_until(lambda: pair.b.app.mode == LINK, 3000)
    assert "The host restarted" in pair.b.app.view.shown_lines()
    assert "# match abandoned (the host restarted)" in pair.b.log_text()


def _restart_guest(pair, seed):
    """The guest's firmware starts again (a new App, log and nonce on the same cable) and
    its player chooses Link as guest."""
    from link_rig import Handheld

    pair.b = Handheld(pair, "B", pair.b.clock.ppm, seed)
    pair.sides = (pair.a, pair.b)
    pair.open_link(pair.b, 1)


def test_a_guest_that_restarts_mid_match_rejoins_with_the_match_so_far():
    pair = linked("grid", ppm_b=100.0)
    pair.start_match()
    assert pair.run_until(lambda: pair.b.app.mode == GAME, 5000)
    assert pair.play_match(level=1, limit_ms=3000) is False  # a few seconds of play
    presses = pair.a.log_text().count("press ")
    assert presses and pair.a.app.mode == GAME
    _restart_guest(pair, 99)
    host = pair.a.app
    assert pair.run_until(lambda: pair.b.app.mode == GAME, 5000)
    assert host.session.rejoins == 1 and host.mode == GAME  # not abandoned
    # the match so far, from its header, streamed again (then the new lines)
    assert pair.run_until(lambda: pair.b.log_text() == pair.a.log_text(), 2000)
    assert pair.b.log_text().count("press ") >= presses
    assert pair.play_match(limit_ms=400000)  # and on to its end
    assert_same_logs(pair)
    assert pair.a.log_text().count("press ") > presses
    assert host.game.match_winner == pair.b.app.game.match_winner


def test_past_the_hosts_buffer_a_guest_restart_abandons_the_match(monkeypatch):
    from hw.app import link_host

    monkeypatch.setattr(link_host, "_OUT_SIZE", 300)  # a match's first lines, no more
    pair = linked("grid")
    pair.start_match()
    assert pair.run_until(lambda: pair.b.app.mode == GAME, 5000)
    pair.play_match(level=1, limit_ms=4000)
    assert pair.a.app.mode == GAME and len(pair.a.log_text()) > 300 and not pair.a.app.session.kept
    _restart_guest(pair, 99)
    assert pair.run_until(lambda: pair.a.app.mode == LINK, 3000)
    assert "# match abandoned (the guest restarted)" in pair.a.log_text()
    assert "The guest restarted" in pair.a.app.view.shown_lines()


def test_leaving_link_play_frees_the_port():
    pair = linked("grid")
    pair.a.key(KEY_START, True)
    pair.step(1100)
    pair.a.key(KEY_START, False)
    pair.step(5)
    assert pair.a.app.session is None and pair.a.port.closed
    assert pair.a.app.mode != LINK and pair.a.app.session is None
