"""One or more tests per rule of RULES.md, on hand-built decks.

Plain asserts and no pytest import: ``tests/mpy/vm_rules.py`` runs these same
functions inside the MicroPython VM.
"""

from cs_helpers import (
    Recorder, all_cards, coverable_list, deck_line, pack_cards, run, stack_cards, tops,
)
from engine.cards import CARD_NAMES, parse_card
from engine.family import (
    DEALING, E_ARG, E_BUSY, E_MATCH_OVER, E_TIME, OK, OVER, PLAY, STUCK, WIN_A,
)
from engine.grid import GridGame
from engine.rng import Rng, shuffle
from engine.grid_rules import GridRules

# A's row 5C 9D JH KS, B's row 5D 2H 3C 7S: one match, the 5s at 0 and 4.
# A's next cards 8C 4H 6S, B's next cards 8D 4S 6C.
FIVES = deck_line("5C 9D JH KS 8C 4H 6S", "5D 2H 3C 7S 8D 4S 6C")


def log(*lines, deck=FIVES, rules=""):
    """Build a log: optional rules, a deck, start at 1000 (deal ends at 1300)."""
    head = ["CSLOG 1"]
    if rules:
        head.append("rules " + rules)
    return "\n".join(head + [deck, "start 1000"] + list(lines))


# ----------------------------------------------------------- §1-2 deal


def test_deal_puts_each_pack_top_on_the_owners_leftmost_position():
    game, rec, err = run(log())
    assert err is None
    assert tops(game) == "5C 9D JH KS 5D 2H 3C 7S"
    assert list(game.packs) == [22, 22]
    deal = rec.of("deal")[0]
    assert deal["t"] == 1000 and deal["packs"] == [22, 22]
    assert pack_cards(game, 0)[:3] == ["8C", "4H", "6S"]


def test_seeded_shuffle_is_fisher_yates_on_the_engine_generator():
    game, rec, err = run("CSLOG 1\nseed 7\nstart 0")
    deck = bytearray(range(52))
    shuffle(Rng(7), deck, 52)
    expect = [CARD_NAMES[deck[i]] for i in (0, 1, 2, 3, 26, 27, 28, 29)]
    assert rec.of("deal")[0]["tops"] == expect
    assert all_cards(game) and sorted(all_cards(game)) == sorted(CARD_NAMES)


def test_different_seeds_give_different_deals():
    seen = set()
    for seed in range(20):
        _, rec, _ = run("CSLOG 1\nseed %d\nstart 0" % seed)
        seen.add(" ".join(rec.of("deal")[0]["tops"]))
    assert len(seen) == 20


def test_press_during_the_deal_window_is_ignored_not_illegal():
    game, rec, err = run(log("press 1299 A 1", "press 1300 A 0", "clock 1301"))
    assert rec.results() == ["A1:ignored", "A0:cover"]
    assert not game.locked[0]


def test_deal_window_length_is_configurable():
    game, rec, err = run(log("press 1000 A 0", "clock 1001", rules="deal=0"))
    assert rec.results() == ["A0:cover"]


# ------------------------------------------------ §3 matches and covering


def test_either_player_covers_a_match_position_in_either_row():
    game, rec, err = run(log("press 1400 B 0", "clock 1401"))
    assert rec.results() == ["B0:cover"]
    assert rec.of("press")[0]["card"] == "8D"  # B's own next card
    assert tops(game).split()[0] == "8D"
    assert list(game.packs) == [22, 21]


def test_covering_one_of_a_match_makes_its_partner_pending_for_both():
    game, rec, err = run(log("press 1400 A 0", "clock 1401"))
    assert game.pending == 1 << 4
    assert coverable_list(game) == [4]  # the 5D stands alone but is pending
    game2, rec2, _ = run(log("press 1400 A 0", "press 1500 B 4", "clock 1501"))
    assert rec2.results() == ["A0:cover", "B4:cover"]  # a split match
    assert game2.pending == 0


def test_a_renewed_position_is_not_coverable_again_without_a_new_match():
    game, rec, err = run(log("press 1400 A 0", "press 1500 A 0", "clock 1501"))
    assert rec.results() == ["A0:cover", "A0:illegal"]


def test_a_renewed_position_that_forms_a_new_match_is_coverable():
    # A's cover card 5H lands on the 5C: it matches the pending 5D.
    deck = deck_line("5C 9D JH KS 5H", "5D 2H 3C 7S")
    game, rec, err = run(log("press 1400 A 0", "press 1500 B 0", "clock 1501", deck=deck))
    assert rec.results() == ["A0:cover", "B0:cover"]


def test_three_of_a_kind_all_become_pending():
    deck = deck_line("5C 5H JH KS 8C", "5D 2H 3C 7S 8D")
    game, rec, err = run(log("press 1400 A 0", "clock 1401", deck=deck))
    assert game.pending == (1 << 1) | (1 << 4)
    assert coverable_list(game) == [1, 4]


def test_press_on_a_non_coverable_position_is_illegal_and_moves_nothing():
    game, rec, err = run(log("press 1400 A 1", "clock 1401"))
    assert rec.results() == ["A1:illegal"]
    assert tops(game) == "5C 9D JH KS 5D 2H 3C 7S" and list(game.packs) == [22, 22]


def test_illegal_press_locks_the_pad_for_the_penalty_half_open():
    game, rec, err = run(log(
        "press 1400 A 1",  # illegal: locked over [1400, 1900)
        "press 1899 A 0",  # locked
        "press 1900 A 0",  # lock over: covers
        "clock 1901"))
    assert rec.results() == ["A1:illegal", "A0:locked", "A0:cover"]


def test_a_locked_press_does_not_extend_the_lock():
    game, rec, err = run(log("press 1400 A 1", "press 1800 A 1", "press 1900 A 0", "clock 1901"))
    assert rec.results() == ["A1:illegal", "A1:locked", "A0:cover"]


def test_the_lock_is_per_player():
    game, rec, err = run(log("press 1400 A 1", "press 1401 B 0", "clock 1402"))
    assert rec.results() == ["A1:illegal", "B0:cover"]


def test_penalty_zero_turns_the_lock_off():
    game, rec, err = run(log("press 1400 A 1", "press 1401 A 0", "clock 1402", rules="penalty=0"))
    assert rec.results() == ["A1:illegal", "A0:cover"]


def test_penalty_is_configurable():
    game, rec, err = run(log("press 1400 A 1", "press 1450 A 0", "clock 1451", rules="penalty=50"))
    assert rec.results() == ["A1:illegal", "A0:cover"]


def test_locks_end_with_the_game():
    game = GridGame()
    game.set_deck(bytearray(parse_card(c) for c in FIVES.split()[1:]))
    game.start(0)
    game.press(0, 1, 300)
    game.advance(301)
    assert game.locked_at(0, 301)
    game._end(301, WIN_A, 0)  # any end of game
    assert not game.locked_at(0, 302)


# --------------------------------------------- §4 time, ticks and ties


def test_a_tick_is_resolved_only_once_time_has_moved_past_it():
    game, rec, err = run(log("press 1400 A 0", "clock 1400"))
    assert rec.results() == ["A0:cover"]  # resolved at the end of the log
    game = GridGame()
    game.set_deck(bytearray(parse_card(c) for c in FIVES.split()[1:]))
    game.start(1000)
    game.press(0, 0, 1400)
    game.advance(1400)
    assert game.tick_n == 1 and game.packs[0] == 22  # not judged yet
    game.advance(1401)
    assert game.tick_n == 0 and game.packs[0] == 21


def test_same_position_tie_is_voided_under_replay():
    game, rec, err = run(log("press 1400 A 0", "press 1400 B 0", "clock 1401"))
    assert rec.results() == ["A0:tie", "B0:tie"]
    assert tops(game).startswith("5C") and list(game.packs) == [22, 22]
    assert coverable_list(game) == [0, 4]  # stays coverable
    assert not game.locked[0] and not game.locked[1]


def test_same_position_tie_is_decided_by_the_coin_under_coin():
    winners = set()
    for seed in range(12):
        text = "CSLOG 1\nrules tie=coin\nseed %d\nstart 0\nclock 300" % seed
        game, rec, err = run(text)
        pos = coverable_list(game)
        if not pos:
            continue
        game, rec, err = run(text + "\npress 400 A %d\npress 400 B %d\nclock 401" % (pos[0], pos[0]))
        res = sorted(e["r"] for e in rec.of("press"))
        assert res == ["cover", "lost-tie"]
        assert not game.locked[0] and not game.locked[1]
        winners.add([e["p"] for e in rec.of("press") if e["r"] == "cover"][0])
        again = run(text + "\npress 400 A %d\npress 400 B %d\nclock 401" % (pos[0], pos[0]))[1]
        assert again.events == rec.events  # the seed decides the coin
    assert winners == {"A", "B"}


def test_two_illegal_presses_on_one_position_are_no_tie():
    game, rec, err = run(log("press 1400 A 1", "press 1400 B 1", "clock 1401"))
    assert rec.results() == ["A1:illegal", "B1:illegal"]
    assert game.locked[0] and game.locked[1]


def test_a_locked_press_never_ties_and_the_other_covers():
    game, rec, err = run(log("press 1400 A 1", "press 1500 A 0", "press 1500 B 0", "clock 1501"))
    assert rec.results() == ["A1:illegal", "A0:locked", "B0:cover"]


def test_one_players_simultaneous_presses_go_in_rising_position_order():
    game, rec, err = run(log("press 1400 A 4", "press 1400 A 0", "clock 1401"))
    assert rec.results() == ["A4:cover", "A0:cover"]  # reported in log order
    cards = {e["pos"]: e["card"] for e in rec.of("press")}
    assert cards == {0: "8C", 4: "4H"}  # position 0 took A's first card


def test_a_second_press_on_the_same_position_in_one_tick_is_ignored():
    game, rec, err = run(log("press 1400 A 0", "press 1400 A 0", "clock 1401"))
    assert rec.results() == ["A0:cover", "A0:ignored"]
    assert list(game.packs) == [21, 22]


def test_an_illegal_press_does_not_lock_the_same_ticks_other_presses():
    game, rec, err = run(log("press 1400 A 1", "press 1400 A 0", "clock 1401"))
    assert rec.results() == ["A1:illegal", "A0:cover"]
    assert game.locked_at(0, 1401)


def test_presses_of_a_tick_are_judged_on_the_layout_at_its_start():
    # A covers 0 with 5H while B presses 1 (9D): at the tick's start 1 is not
    # coverable, so B's press is illegal even though nothing matches 9D later either.
    deck = deck_line("5C 9D JH KS 9H", "5D 2H 3C 7S")
    game, rec, err = run(log("press 1400 A 0", "press 1400 B 1", "clock 1401", deck=deck))
    assert rec.results() == ["A0:cover", "B1:illegal"]
    assert coverable_list(game) == [0, 1, 4]  # 9H now matches 9D; 5D pending


def test_simultaneous_presses_give_the_same_outcome_in_any_order():
    presses = ["press 1400 A 1", "press 1400 B 4", "press 1400 A 0", "press 1400 B 0"]
    outcomes = set()
    for order in ((0, 1, 2, 3), (3, 2, 1, 0), (2, 0, 3, 1), (1, 3, 0, 2)):
        game, rec, err = run(log(*[presses[i] for i in order] + ["clock 1401"]))
        by_press = sorted("%s%d:%s" % (e["p"], e["pos"], e["r"]) for e in rec.of("press"))
        outcomes.add((tops(game), tuple(game.packs), game.pending, tuple(by_press),
                      game.locked[0], game.locked[1]))
    assert len(outcomes) == 1
    assert "A0:tie" in outcomes.pop()[3]


def test_a_timed_step_due_at_d_comes_before_presses_stamped_d():
    game, rec, err = run(log("press 1300 A 0", "clock 1301"))
    assert rec.results() == ["A0:cover"]  # deal window [1000, 1300)


def test_times_wrap_at_2_29():
    base = (1 << 29) - 200
    text = "CSLOG 1\n%s\nstart %d\npress %d A 0\npress %d A 1\npress %d A 4\nclock %d" % (
        FIVES, base, (base + 400) % (1 << 29), (base + 450) % (1 << 29),
        (base + 949) % (1 << 29), (base + 951) % (1 << 29))
    game, rec, err = run(text)
    assert err is None
    assert rec.results() == ["A0:cover", "A1:illegal", "A4:locked"]  # lock spans the wrap


def test_engine_rejects_a_time_before_its_clock():
    game = GridGame()
    game.shuffle(1)
    assert game.start(1000) == OK
    assert game.press(0, 0, 999) == E_TIME
    assert game.advance(999) == E_TIME
    assert game.press(0, 0, 1000) == OK


# ------------------------------------------------------ §5 stuck, gather


def no_match_deck():
    """A deck whose 13 no-cover deals never show a match (built, not searched).

    A's pack cycles the ranks A-6 with a 7 at indices 12 and 25, B's cycles 8-K
    with a 7 at 5 and 18: every run of 4 in a pack has 4 ranks, the packs share no
    rank but 7, and no deal window (indices 4k..4k+3 mod 26) holds a 7 from each.
    """
    a = "A23456A234567A23456A234567"
    b = "89TJQ7K89TJQK89TJQ7K89TJQK"
    used = {}
    names = []
    for r in a + b:
        n = used.get(r, 0)
        used[r] = n + 1
        names.append(r + "CDHS"[n])
    return "deck " + " ".join(names)


STUCK_DECK = no_match_deck()


def test_a_layout_without_match_is_stuck_at_the_end_of_the_deal():
    game, rec, err = run(log("press 1500 A 0", "clock 2299", deck=STUCK_DECK))
    assert [e["ev"] for e in rec.events] == ["deal", "stuck", "press"]
    assert rec.of("stuck")[0]["t"] == 1300
    assert rec.results() == ["A0:ignored"]  # presses during the pause
    assert game.phase == STUCK


def test_after_the_pause_each_player_gathers_under_their_pack_and_deals_again():
    game, rec, err = run(log("clock 2300", deck=STUCK_DECK))
    deals = rec.of("deal")
    assert [d["t"] for d in deals] == [1000, 2300]
    assert deals[0]["tops"] == ["AC", "2C", "3C", "4C", "8C", "9C", "TC", "JC"]
    assert deals[1]["tops"] == ["5C", "6C", "AD", "2D", "QC", "7H", "KC", "8D"]
    assert pack_cards(game, 0)[-4:] == ["AC", "2C", "3C", "4C"]
    assert pack_cards(game, 1)[-4:] == ["8C", "9C", "TC", "JC"]
    assert game.phase == DEALING


def test_gather_takes_stack_by_stack_from_the_owners_left_each_bottom_up():
    # A covers 0 then B covers 4 (5C/5D); A's 2nd card 2S lands on 0 making nothing.
    deck = deck_line("5C 9D JH KS 8C QH", "5D 2H 3C 7S 4S 6C")
    game, rec, err = run(log("press 1400 A 0", "press 1500 B 4", "clock 2501", deck=deck))
    assert rec.of("stuck")[0]["t"] == 1500  # the covers left nothing coverable
    assert [d["t"] for d in rec.of("deal")] == [1000, 2500]
    # A's row was [5C 8C] [9D] [JH] [KS]; B's row [5D 4S] [2H] [3C] [7S].
    assert pack_cards(game, 0)[-5:] == ["5C", "8C", "9D", "JH", "KS"]
    assert pack_cards(game, 1)[-5:] == ["5D", "4S", "2H", "3C", "7S"]
    assert stack_cards(game, 0) == ["QH"]


def test_gather_order_is_visible_when_the_pack_comes_round():
    # No match ever: the 7th deal shows each pack's last 2 cards, then the first
    # gathered cards, AC 2C and 8C 9C, in the order they were gathered.
    game, rec, err = run(log("clock 20000", deck=STUCK_DECK, rules="stuck=0 deal=0"))
    seventh = rec.of("deal")[6]["tops"]
    assert seventh == ["6S", "7D", "AC", "2C", "QS", "KS", "8C", "9C"]


def test_stuck_pause_is_configurable_and_presses_in_it_are_ignored():
    game, rec, err = run(log("press 1309 A 0", "press 1310 A 0", "clock 1311",
                             deck=STUCK_DECK, rules="stuck=10"))
    assert [d["t"] for d in rec.of("deal")] == [1000, 1310]
    assert rec.results() == ["A0:ignored", "A0:ignored"]  # pause, then the deal window


def test_deadlock_ends_the_game_after_the_limit_with_no_gather():
    game, rec, err = run(log("clock 100000", deck=STUCK_DECK))
    stucks = rec.of("stuck")
    assert len(stucks) == 13 and len(rec.of("deal")) == 13
    over = rec.of("over")[0]
    assert over == {"ev": "over", "t": stucks[-1]["t"], "result": "draw", "why": "deadlock"}
    assert rec.events[-1] == over and rec.events[-2] == stucks[-1]
    assert game.phase == OVER and game.score == [0, 0]
    # With 26 cards each and no cover the 14th deal would repeat the first.
    assert list(game.packs) == [22, 22]  # the last layout was not gathered
    assert pack_cards(game, 0)[:4] == ["AC", "2C", "3C", "4C"]  # next deal = the first
    tops_seen = [" ".join(d["tops"]) for d in rec.of("deal")]
    assert len(set(tops_seen)) == 13


def test_deadlock_limit_is_configurable():
    game, rec, err = run(log("clock 100000", deck=STUCK_DECK, rules="deadlock=2"))
    assert len(rec.of("stuck")) == 2 and rec.of("over")[0]["why"] == "deadlock"


def test_deadlock_fewer_gives_the_game_to_the_smaller_pack():
    # A covers both 5s (0 then 4) with 8C and QC: stuck; A gathers 5 cards onto 20,
    # B 5 onto 22; the next deal (4H 6H 3D 2S | TC AH 8D 9S) is stuck too: 21 < 23.
    deck = deck_line("5C 9D JH KS 8C QC 4H 6H 3D 2S", "5D 2H 3C 7S TC AH 8D 9S")
    game, rec, err = run(log("press 1400 A 0", "press 1500 A 4", "clock 100000",
                             deck=deck, rules="deadlock=2 deadlock_result=fewer"))
    over = rec.of("over")
    assert over and over[0]["why"] == "deadlock" and over[0]["result"] == "A"
    assert list(game.packs) == [21, 23] and game.score == [1, 0]


def test_deadlock_fewer_with_equal_packs_is_a_draw():
    game, rec, err = run(log("clock 100000", deck=STUCK_DECK,
                             rules="deadlock=1 deadlock_result=fewer"))
    assert rec.of("over")[0]["result"] == "draw"


def test_every_cover_resets_the_deadlock_count():
    game, rec, err = run(log("clock 100000", deck=STUCK_DECK, rules="deadlock=3"))
    assert game.stuck_count == 3  # no cover: counted up to the limit
    game = GridGame(GridRules(deadlock=3))
    game.set_deck(bytearray(parse_card(c) for c in FIVES.split()[1:]))
    game.start(0)
    game.press(0, 0, 300)
    game.press(0, 4, 301)
    game.advance(302)
    assert game.stuck_count == 1  # stuck once after the covers, not 0 -> over


# --------------------------------------------------------- §6 end of game


def _rigged(pack_a, pack_b, row, rules=None):
    """A game in play with the given rows (8 names) and packs (names, top first)."""
    game = GridGame(rules)
    rec = Recorder(game)
    used = [parse_card(c) for c in row.split() + pack_a.split() + pack_b.split()]
    spare = [c for c in range(52) if c not in used]
    codes = [parse_card(c) for c in row.split()[:4]] + [parse_card(c) for c in pack_a.split()]
    a_len = len(codes)
    codes += [parse_card(c) for c in row.split()[4:]] + [parse_card(c) for c in pack_b.split()]
    b_len = len(codes) - a_len
    codes += spare
    # Deal a normal game, then move the spare cards out of the packs by hand: the
    # rig keeps every card somewhere (spares sit under stack 3 and 7).
    game.set_deck(bytearray(codes[:a_len] + spare[:26 - a_len] + codes[a_len:a_len + b_len]
                            + spare[26 - a_len:]))
    game.start(0)
    game.advance(300)
    for player, keep in ((0, a_len - 4), (1, b_len - 4)):
        while game.packs[player] > keep:
            # take from the bottom of the pack into the bottom of the player's last stack
            base = player * 52
            idx = (game.pack_head[player] + game.packs[player] - 1) % 52
            card = game.pack[base + idx]
            game.packs[player] -= 1
            pos = player * 4 + 3
            below = game.bottoms[pos]
            game.down[below] = card
            game.up[card] = below
            game.down[card] = 255
            game.bottoms[pos] = card
            game.heights[pos] += 1
    assert sorted(all_cards(game)) == sorted(CARD_NAMES)
    return game, rec


def test_a_player_wins_by_legally_covering_with_their_last_card():
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S")
    assert game.phase == PLAY and list(game.packs) == [1, 2]
    game.press(0, 0, 400)
    game.advance(401)
    assert [e["ev"] for e in rec.events[-3:]] == ["press", "tick", "over"]
    over = rec.of("over")[0]
    assert over == {"ev": "over", "t": 400, "result": "A", "why": "out"}
    assert game.score == [1, 0] and game.packs[0] == 0
    assert stack_cards(game, 0)[-1] == "8C"  # no gather by the winner


def test_an_illegal_press_can_never_win():
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S")
    game.press(0, 1, 400)
    game.advance(401)
    assert rec.results()[-1] == "A1:illegal" and game.phase == PLAY and game.packs[0] == 1


def test_both_players_out_in_one_tick_is_a_draw():
    game, rec = _rigged("8C", "8D", "5C 9D JH KS 5D 2H 3C 7S")
    game.press(0, 0, 400)
    game.press(1, 4, 400)
    game.advance(401)
    assert rec.of("over")[0] == {"ev": "over", "t": 400, "result": "draw", "why": "both-out"}
    assert game.score == [0, 0]


def test_the_winning_tick_is_applied_whole():
    # A wins at 0 with the last card; B's simultaneous cover of 4 still counts.
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S")
    game.press(1, 4, 400)
    game.press(0, 0, 400)
    game.advance(401)
    assert rec.results()[-2:] == ["B4:cover", "A0:cover"]
    assert game.packs[1] == 1 and rec.of("over")[0]["result"] == "A"
    tick = rec.of("tick")[-1]
    assert tick["tops"][0] == "8C" and tick["tops"][4] == "8D"
    assert tick["coverable"] == [0, 4]  # computed as usual: 8C and 8D match


def test_a_player_who_runs_out_has_their_remaining_covers_ignored():
    game, rec = _rigged("8C", "8D 9S", "5C 5H JH KS 5D 2H 3C 7S")
    game.press(0, 4, 400)
    game.press(0, 1, 400)
    game.advance(401)
    assert rec.results()[-2:] == ["A4:ignored", "A1:cover"]  # position 1 came first
    assert rec.of("over")[0]["result"] == "A"


def test_presses_after_the_game_are_ignored():
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S")
    game.press(0, 0, 400)
    game.press(1, 4, 500)
    game.advance(501)
    assert rec.results()[-1] == "B4:ignored"
    assert rec.events[-1]["ev"] == "press"  # an all-ignored tick has no tick event


# ------------------------------------------------------------- §6-7 match


def _deadlock_game(rules):
    return log("clock 100000", deck=STUCK_DECK, rules="deadlock=1 " + rules)


def test_a_drawn_game_does_not_count_and_the_match_goes_on():
    text = _deadlock_game("wins=1") + "\nseed 3\nstart 200000\nclock 200001"
    game, rec, err = run(text)
    assert err is None
    assert [e["result"] for e in rec.of("over")] == ["draw"]
    assert len(rec.of("deal")) == 2 and game.score == [0, 0] and not game.match_over


def test_best_of_n_ends_the_match_at_n_wins():
    for wins in (1, 2):
        game = GridGame(GridRules(wins=wins))
        events = []
        game.sink = lambda ev, t, i: events.append(ev)
        for g in range(wins):
            game.set_deck(bytearray(parse_card(c) for c in FIVES.split()[1:]))
            assert game.start(g * 1000) == OK
            game._end(g * 1000 + 1, WIN_A, 0)
        assert game.match_over and game.match_winner == 0 and list(game.score) == [wins, 0]
        assert events[-1] == 5  # EV_MATCH
        game.shuffle(1)
        assert game.start(10 ** 6) != OK


def test_start_needs_the_previous_game_over():
    game = GridGame()
    game.shuffle(1)
    game.start(0)
    game.shuffle(2)
    assert game.start(5000) == E_BUSY


def _state(game):
    """Everything a caller can see of a game, and the internals a start would move."""
    return (game.phase, game.clock, game.changes, game.tick_n, game.tick_t, game.due,
            game.coverable, game.pending, game.stuck_count, game.deals, game.stucks,
            game.games, game.has_deck, game.rng.state, list(game.score), bytes(game.tops),
            bytes(game.packs), bytes(game.heights), bytes(game.pack), bytes(game.locked),
            list(game.lock_end), game.match_over)


def test_a_refused_start_changes_nothing():
    # Stuck deals every 1300 ms: a start at 9000 would first run them (deals at
    # 2300, 3600, ...) and still find the game on. Refused, it must run none.
    game = GridGame()
    events = []
    game.sink = lambda ev, t, i: events.append((ev, t))
    game.set_deck(bytearray(parse_card(c) for c in STUCK_DECK.split()[1:]))
    game.start(1000)
    game.advance(1100)
    game.press(0, 0, 1100)  # a pending tick, judged by nothing yet
    game.shuffle(5)
    before = _state(game)
    n = len(events)
    assert game.start(9000) == E_BUSY
    assert _state(game) == before and len(events) == n
    assert game.start(1100) == E_BUSY  # at the clock: still refused, still no change
    assert _state(game) == before and len(events) == n
    # The same through a log: the trace stops at the last good line's time.
    text = log("press 1100 A 0", "seed 5", "start 9000", deck=STUCK_DECK)
    game, rec, err = run(text)
    assert err is not None and err.lineno == 6 and "not over" in err.reason
    cut, rec_cut, _ = run(log("press 1100 A 0", "seed 5", deck=STUCK_DECK))
    assert rec.events == rec_cut.events and rec.events[-1]["ev"] == "press"
    assert max(e["t"] for e in rec.events) == 1100


def test_a_start_refused_because_the_match_ended_changes_nothing():
    # The pending tick wins the match for A: a start after it is "match over",
    # and it must not have judged that tick.
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S", GridRules(wins=1))
    game.press(0, 0, 400)
    game.shuffle(1)
    before = _state(game)
    n = len(rec.events)
    assert game.start(500) == E_MATCH_OVER
    assert _state(game) == before and len(rec.events) == n
    game.advance(401)
    assert [e["ev"] for e in rec.events[-2:]] == ["over", "match"]


def test_a_start_accepted_once_the_game_ends_by_its_time():
    # The pending tick ends the game (A covers with the last card): start at 500 is
    # accepted, after judging that tick, as LOG.md's "over by that time" says.
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S")
    game.press(0, 0, 400)
    game.shuffle(1)
    assert game.start(500) == OK
    assert [e["ev"] for e in rec.events[-4:]] == ["press", "tick", "over", "deal"]
    assert game.games == 2 and game.score == [1, 0]


def test_a_lock_ends_for_good_however_long_the_game_sits():
    # A's illegal press at 400 locks A until 900. The game then sits for 2**28 ms
    # and for a whole clock period (advanced in steps under 2**28 ms, as a
    # device's loop does): the lock must not come back when the clock wraps round.
    for later in (1 << 28, 1 << 29, (1 << 29) + 100):
        game, rec, err = run(log("press 1400 A 1", "clock 1401"))
        assert game.locked_at(0, 1401) and game.lock_left(0, 1401) == 499
        t = 1401
        while later - (t - 1401) > (1 << 27):
            t += 1 << 27
            assert game.advance(t % (1 << 29)) == OK
        t = (1400 + later + 10) % (1 << 29)
        assert game.advance(t) == OK
        assert not game.locked_at(0, t) and game.lock_left(0, t) == 0
        assert game.press(0, 0, t) == OK and game.advance((t + 1) % (1 << 29)) == OK
        assert rec.results() == ["A1:illegal", "A0:cover"], (later, rec.results())


def test_a_deadline_is_met_however_late_time_comes():
    # The deal window ends at 1300 even when the next time the game hears of is
    # almost 2**28 ms later.
    game, rec, err = run(log("clock %d" % (1000 + (1 << 28) - 1)))
    assert game.phase == PLAY and game.due_at() == -1


def test_non_int_arguments_are_refused_not_raised():
    game = GridGame()
    game.set_deck(bytearray(parse_card(c) for c in FIVES.split()[1:]))
    assert game.start(1.5) == E_ARG and game.games == 0
    assert game.start(0) == OK
    game.advance(400)
    before = _state(game)
    for player, pos, t in ((0.0, 0, 500), (0, 0.0, 500), (0, 0, 500.0), ("A", 0, 500),
                           (0, None, 500), (0, 0, "500"), (None, 0, 500), (0, 0, 400.0)):
        assert game.press(player, pos, t) == E_ARG
    for t in (500.0, 400.0, "500", None, 1e20):
        assert game.advance(t) == E_ARG
    assert _state(game) == before
    assert game.press(True, 4, 500) == E_ARG  # as in MicroPython, where a bool is no int
    assert game.press(0, 4, 500) == OK


COIN_LOG = """CSLOG 1
rules tie=coin deadlock=1
deck 5C 2C 3C 4C 6C 7C AC 8C 9C TC JC QC KC AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD 5H 8H 9H TH JH QH AH 2H 3H 4H 6H 7H KH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS
start 0
press 400 A 0
press 400 B 0
press 500 B 4
press 500 A 4
seed 555555582
start 1200
press 1600 A 0
press 1600 B 0
press 1601 B 4"""


def test_a_coin_tie_judged_after_the_next_seed_uses_its_own_games_generator():
    # The tick at 500 (a coin tie, the game's last) is judged only at "start 1200",
    # after the next game's seed line: its coin must still be the first game's.
    plain = run(COIN_LOG)[1].events
    clocked = run(COIN_LOG.replace("seed 555555582", "clock 600\nseed 555555582"))[1].events
    assert plain == clocked
    at500 = ["%s%d:%s" % (e["p"], e["pos"], e["r"]) for e in plain if e["ev"] == "press" and e["t"] == 500]
    assert at500 == ["B4:cover", "A4:lost-tie"]
    deck_log = COIN_LOG.replace("seed 555555582", "deck " + " ".join(CARD_NAMES))
    clocked = deck_log.replace("press 500 A 4\ndeck", "press 500 A 4\nclock 600\ndeck")
    assert run(deck_log)[1].events == run(clocked)[1].events


def test_match_event_follows_the_winning_over():
    game, rec = _rigged("8C", "8D 9S", "5C 9D JH KS 5D 2H 3C 7S", GridRules(wins=1))
    game.press(0, 0, 400)
    game.advance(401)
    assert [e["ev"] for e in rec.events[-2:]] == ["over", "match"]
    assert rec.events[-1] == {"ev": "match", "t": 400, "winner": "A", "score": [1, 0]}


# ------------------------------------------------------------- §8 rutter


def test_rutter_stack_with_two_equal_tops_is_coverable_by_itself():
    # In one tick B covers 0 with 5H (5 on 5) and A covers 4: both of the match
    # are covered, nothing is pending, and only the 5-on-5 stack is left.
    deck = deck_line("5C 9D JH KS 4S", "5D 2H 3C 7S 5H")
    moves = ("press 1400 A 4", "press 1400 B 0", "clock 1401")
    game, rec, err = run(log(*moves, deck=deck, rules="rutter=1"))
    assert rec.of("tick")[-1]["coverable"] == [0]
    game, rec, err = run(log(*moves + ("press 1600 A 0", "clock 1601"), deck=deck, rules="rutter=1"))
    assert rec.results()[-1] == "A0:cover"
    game, rec, err = run(log(*moves, deck=deck))
    assert rec.of("tick")[-1]["coverable"] == [] and rec.of("stuck")


# ------------------------------------------------------------------ rules


def test_invalid_rules_are_rejected_at_set_up():
    for bad in ({"penalty": -1}, {"deadlock": 0}, {"wins": 0}, {"tie": 5},
                {"deal": 1 << 28}, {"rutter": 2}, {"stuck": "x"}):
        try:
            GridRules(**bad)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % bad)


def test_rules_cannot_change_while_a_game_is_on():
    game = GridGame()
    game.shuffle(0)
    game.start(0)
    try:
        game.set_rules(GridRules(penalty=0))
    except ValueError:
        pass
    else:
        raise AssertionError("rules changed mid-game")
    game._end(1, WIN_A, 0)
    game.set_rules(GridRules(penalty=0))  # between games: a new match with new rules
    assert game.penalty == 0 and list(game.score) == [0, 0] and not game.started
