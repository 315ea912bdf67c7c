"""One or more tests per rule of RULES-ROW.md (the shared-row game), on hand-built decks.

Plain asserts and no pytest import: ``tests/mpy/vm_row_rules.py`` runs these same
functions inside the MicroPython VM (and CircuitPython's unix interpreter).
Times: ``start 1000``; the deal window ends at 1300 unless the rules change it.
"""

from row_helpers import (
    Recorder, codes, deck_line, pack_cards, pile_cards, row_all_cards, row_log, row_tops,
    run_row,
)
from engine.cards import CARD_NAMES, parse_card
from engine.family import E_ARG, OVER, PLAY, STUCK
from engine.rng import Rng
from engine.row import RowGame
from engine.row_rules import RowRules

# Tops 5D 9D JH KS (B's first four, on A's 2C 3C 4C 6C); A's active 5C, B's 9H.
# rank: A may play on 0, B on 1.  suit: A nowhere, B on 2.  either: A on 0, B on 1 and 2.
BASIC = deck_line("2C 3C 4C 6C 5C 8S 7D TC", "5D 9D JH KS 9H QD 2D 3D")
# Both active cards are nines: with rank match both may play on pile 1 (the 9D) only.
NINES = deck_line("2C 3C 4C 6C 9C 8S", "5D 9D JH KS 9H QD")
# No active card matches a top after the opening deal (rank): stuck at 1300.
NO_MATCH = deck_line("2C 3C 4C 6C 7C", "5D 9D JH KS 8H")
# A plays 5C on pile 0 at 1400; then A's 8S and B's QH match nothing: stuck after a tick.
# The redeal (all) after it leaves QH 2D 3D 4D on top and 6H / 7H active: stuck again.
AFTER_TICK = deck_line("2C 3C 4C 6C 5C 8S TH TS JS 6H", "5D 9D JH KS QH 2D 3D 4D 7H")
# A plays KC on pile 3 at 1400, B plays 9H on pile 1 at 1500; then 2H / 3H are stuck.
TWO_PILES = deck_line("2C 3C 4C 6C KC 2H 7S", "5D 9D JH KS 9H 3H 8D")


def _results(rec):
    return rec.results()


# ----------------------------------------------------------- §1-2 deal


def test_opening_deal_a_card_under_b_card_on_every_pile_in_order():
    game, rec, err = run_row(row_log(BASIC))
    assert err is None
    assert row_tops(game) == "5D 9D JH KS"
    assert [pile_cards(game, p) for p in range(4)] == [["2C", "5D"], ["3C", "9D"], ["4C", "JH"], ["6C", "KS"]]
    assert list(game.packs) == [22, 22]  # the active card counts in the pack
    deal = rec.of("deal")[0]
    assert deal == {"ev": "deal", "t": 1000, "tops": ["5D", "9D", "JH", "KS"], "packs": [22, 22],
                    "active": ["5C", "9H"]}


def test_three_and_six_piles_deal_one_card_each_per_pile():
    game, rec, err = run_row(row_log(BASIC, rules="piles=3"))
    assert row_tops(game) == "5D 9D JH" and list(game.packs) == [23, 23]
    assert rec.of("deal")[0]["active"] == ["6C", "KS"]
    game, rec, err = run_row(row_log(BASIC, rules="piles=6"))
    assert row_tops(game) == "5D 9D JH KS 9H QD" and list(game.packs) == [20, 20]
    assert rec.of("deal")[0]["active"] == ["7D", "2D"]


def test_press_during_the_deal_window_is_ignored_not_illegal():
    game, rec, err = run_row(row_log(BASIC, "press 1299 A 1", "press 1300 A 0", "clock 1301"))
    assert _results(rec) == ["A1:ignored", "A0:cover"]
    assert not game.locked[0]


def test_a_zero_deal_window_is_in_play_at_once():
    game, rec, err = run_row(row_log(BASIC, "press 1000 A 0", "clock 1001", rules="deal=0"))
    assert _results(rec) == ["A0:cover"]


# ------------------------------------------------------- §3 playing, match modes


def test_a_legal_play_puts_the_active_card_on_the_pile_and_turns_the_next():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "clock 1401"))
    assert _results(rec) == ["A0:cover"] and rec.of("press")[0]["card"] == "5C"
    assert row_tops(game) == "5C 9D JH KS" and list(game.packs) == [21, 22]
    tick = rec.of("tick")[0]
    assert tick["active"] == ["8S", "9H"] and tick["legal"] == [[], [1]]
    assert CARD_NAMES[game.active[0]] == "8S"


def test_match_rank_ignores_suits():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "press 1400 B 2", "clock 1401",
                                     rules="match=rank"))
    assert _results(rec) == ["A0:cover", "B2:illegal"]


def test_match_suit_ignores_ranks():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "press 1400 B 2", "clock 1401",
                                     rules="match=suit"))
    assert _results(rec) == ["A0:illegal", "B2:cover"]
    assert row_tops(game) == "5D 9D 9H KS"


def test_match_either_takes_rank_or_suit():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "press 1400 B 2", "clock 1401",
                                     rules="match=either"))
    assert _results(rec) == ["A0:cover", "B2:cover"]
    game, rec, err = run_row(row_log(BASIC, "clock 1301", rules="match=either"))
    assert list(game.legal) == [0b0001, 0b0110]


def test_an_illegal_press_moves_nothing_and_locks_for_the_penalty():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "press 1899 A 0", "press 1900 A 0",
                                     "clock 1901"))
    assert _results(rec) == ["A1:illegal", "A0:locked", "A0:cover"]
    assert game.illegals[0] == 1


def test_penalty_zero_turns_the_lock_off():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "press 1401 A 0", "clock 1402",
                                     rules="penalty=0"))
    assert _results(rec) == ["A1:illegal", "A0:cover"]


def test_the_lock_is_per_player_and_a_locked_press_does_not_extend_it():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "press 1401 B 1", "press 1800 A 1",
                                     "press 1900 A 0", "clock 1901"))
    assert _results(rec) == ["A1:illegal", "B1:cover", "A1:locked", "A0:cover"]


# ---------------------------------------------- §4 one tick, one card, ties


def test_one_card_per_action_the_lowest_candidate_pile_plays():
    game, rec, err = run_row(row_log(BASIC, "press 1400 B 2", "press 1400 B 1", "clock 1401",
                                     rules="match=either"))
    assert _results(rec) == ["B2:ignored", "B1:cover"]
    assert list(game.packs) == [22, 21]


def test_an_illegal_press_does_not_touch_the_same_players_other_presses():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "press 1400 A 0", "clock 1401"))
    assert _results(rec) == ["A1:illegal", "A0:cover"]
    assert game.locked_at(0, 1401)


def test_a_second_press_on_the_same_pile_in_a_tick_is_ignored():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "press 1400 A 0", "press 1400 B 0",
                                     "press 1400 B 0", "clock 1401"))
    assert _results(rec) == ["A0:cover", "A0:ignored", "B0:illegal", "B0:ignored"]


def test_same_pile_tie_is_voided_under_replay():
    game, rec, err = run_row(row_log(NINES, "press 1400 A 1", "press 1400 B 1", "clock 1401"))
    assert _results(rec) == ["A1:tie", "B1:tie"]
    assert row_tops(game) == "5D 9D JH KS" and list(game.packs) == [22, 22]
    assert game.ties == 1 and not game.locked[0] and not game.locked[1]
    assert rec.of("tick")[0]["legal"] == [[1], [1]]


def test_same_pile_tie_under_coin_follows_the_engine_generator():
    game, rec, err = run_row(row_log(NINES, "press 1400 A 1", "press 1400 B 1", "clock 1401",
                                     rules="tie=coin"))
    a_wins = Rng(0).below(2) == 0  # a deck line: coins from seed 0; 0 means A
    expect = ["A1:cover", "B1:lost-tie"] if a_wins else ["A1:lost-tie", "B1:cover"]
    assert _results(rec) == expect
    assert not game.locked[0] and not game.locked[1]


def test_coin_ties_go_both_ways_over_seeds():
    winners = set()
    for seed in range(40):
        text = "rules game=row tie=coin match=either\nseed %d\nstart 0\nclock 300" % seed
        game, rec, err = run_row(text)
        both = game.legal[0] & game.legal[1]
        if not both:
            continue
        pile = 0
        while not (both >> pile) & 1:
            pile += 1
        game, rec, err = run_row(text + "\npress 400 A %d\npress 400 B %d\nclock 401" % (pile, pile))
        res = sorted(e["r"] for e in rec.of("press"))
        assert res == ["cover", "lost-tie"]
        winners.add([e["p"] for e in rec.of("press") if e["r"] == "cover"][0])
    assert winners == {"A", "B"}


def test_no_fallback_a_tied_player_plays_no_other_candidate():
    # either: B may play on 1 and 2, A on 1 (9C by rank). B's play is pile 1: a tie.
    game, rec, err = run_row(row_log(NINES, "press 1400 B 2", "press 1400 B 1", "press 1400 A 1",
                                     "clock 1401", rules="match=either"))
    assert _results(rec) == ["B2:ignored", "B1:tie", "A1:tie"]
    assert list(game.packs) == [22, 22]


def test_plays_on_different_piles_in_one_tick_both_cover():
    game, rec, err = run_row(row_log(NINES, "press 1400 B 2", "press 1400 A 1", "clock 1401",
                                     rules="match=either"))
    assert _results(rec) == ["B2:cover", "A1:cover"]
    assert row_tops(game) == "5D 9C 9H KS"


def test_a_locked_or_illegal_press_on_the_pile_does_not_tie():
    game, rec, err = run_row(row_log(NINES, "press 1400 A 0", "press 1450 A 1", "press 1450 B 1",
                                     "clock 1451"))
    assert _results(rec) == ["A0:illegal", "A1:locked", "B1:cover"]
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "press 1400 B 1", "clock 1401"))
    assert _results(rec) == ["A1:illegal", "B1:cover"]


# ------------------------------------------------------ §5 stuck and redeal


def test_stuck_after_the_deal_pause_then_a_full_deal_round():
    game, rec, err = run_row(row_log(NO_MATCH, "press 1500 A 0", "press 2300 A 0", "clock 2301"))
    assert [(e["ev"], e["t"]) for e in rec.events if e["ev"] != "press"] == [
        ("deal", 1000), ("stuck", 1300), ("deal", 2300)]
    assert _results(rec) == ["A0:ignored", "A0:ignored"]  # the pause, then the new window
    # The redeal: A's 7C then B's 8H on pile 0, and so on.
    assert pile_cards(game, 0) == ["2C", "5D", "7C", "8H"]
    assert list(game.packs) == [18, 18]


def test_a_press_at_the_end_of_the_pause_is_judged_when_deal_is_zero():
    game, rec, err = run_row(row_log(NO_MATCH, "press 2000 A 0", "clock 2001", rules="deal=0"))
    assert rec.of("stuck")[0]["t"] == 1000 and rec.of("deal")[1]["t"] == 2000
    assert _results(rec)[0] != "A0:ignored"


def test_stuck_after_a_tick_in_which_a_card_was_played():
    game, rec, err = run_row(row_log(AFTER_TICK, "press 1400 A 0", "clock 2401"))
    evs = [(e["ev"], e["t"]) for e in rec.events]
    assert evs == [("deal", 1000), ("press", 1400), ("tick", 1400), ("stuck", 1400), ("deal", 2400)]
    assert rec.of("tick")[0]["legal"] == [[], []]


def test_the_stuck_pause_is_configurable_and_ignores_presses():
    game, rec, err = run_row(row_log(AFTER_TICK, "press 1400 A 0", "press 1500 B 1", "clock 1901",
                                     rules="stuck=500"))
    assert rec.of("deal")[1]["t"] == 1900 and _results(rec)[1] == "B1:ignored"


def test_redeal_all_deals_a_full_round():
    game, rec, err = run_row(row_log(AFTER_TICK, "press 1400 A 0", "clock 2401"))
    assert row_tops(game) == "QH 2D 3D 4D"
    assert pile_cards(game, 0)[-3:] == ["5C", "8S", "QH"]
    assert list(game.packs) == [17, 18]


def test_redeal_two_goes_on_the_two_latest_piles_latest_first():
    game, rec, err = run_row(row_log(TWO_PILES, "press 1400 A 3", "press 1500 B 1", "clock 2501",
                                     rules="redeal=two"))
    assert [e["ev"] for e in rec.events][-2:] == ["stuck", "deal"]
    # Pile 1 changed at 1500, pile 3 at 1400: A's 2H then B's 3H on 1; A's 7S, B's 8D on 3.
    assert pile_cards(game, 1) == ["3C", "9D", "9H", "2H", "3H"]
    assert pile_cards(game, 3) == ["6C", "KS", "KC", "7S", "8D"]
    assert row_tops(game) == "5D 3H JH 8D" and list(game.packs) == [19, 19]


def test_redeal_two_on_equal_times_takes_the_lower_piles():
    game, rec, err = run_row(row_log(NO_MATCH, "clock 2301", rules="redeal=two"))
    assert pile_cards(game, 0) == ["2C", "5D", "7C", "8H"]
    assert len(pile_cards(game, 1)) == 4 and len(pile_cards(game, 2)) == 2
    assert list(game.packs) == [20, 20]


def _suit_game(redeal):
    """piles=3, match=suit, tops KC KD KH: A plays all 21 of its clubs/diamonds/hearts
    (pile = suit) and is left with AS 2S: stuck, with A holding 2 cards."""
    b_head = ["KC", "KD", "KH", "KS"]
    spades = [c for c in range(52) if c & 3 == 3 and CARD_NAMES[c] not in ("KS", "AS", "2S")]
    others = [c for c in range(52) if c & 3 != 3 and CARD_NAMES[c] not in b_head]
    a = others[:24] + [parse_card("AS"), parse_card("2S")]
    b = [parse_card(n) for n in b_head] + spades + others[24:]
    deck = "deck " + " ".join(CARD_NAMES[c] for c in a + b)
    lines = []
    t = 1400
    for c in a[3:24]:
        lines.append("press %d A %d" % (t, c & 3))
        t += 10
    text = row_log(deck, *lines, rules="piles=3 match=suit redeal=%s" % redeal)
    return text, t - 10, deck


def test_a_player_never_deals_their_last_card():
    text, last, deck = _suit_game("all")
    game, rec, err = run_row(text + "\nclock %d" % (last + 1000))
    assert err is None and rec.of("stuck")[0]["t"] == last
    assert list(game.packs) == [1, 20]  # A dealt 1 of its 2 cards, B a full round
    deal = rec.of("deal")[1]
    assert deal["packs"] == [1, 20] and deal["active"][0] == "2S"
    # Pile 0 got A's AS then B's KS; piles 1 and 2 only B's cards.
    assert pile_cards(game, 0)[-2:] == ["AS", "KS"]
    assert "AS" not in pile_cards(game, 1) + pile_cards(game, 2)


def test_a_game_is_won_only_by_playing_the_last_card():
    text, last, deck = _suit_game("all")
    t = last + 1000 + 300
    game, rec, err = run_row(text + "\npress %d A 0\nclock %d" % (t, t + 1))
    assert rec.of("over") == [{"ev": "over", "t": t, "result": "A", "why": "out"}]
    assert game.phase == OVER and list(game.packs) == [0, 20]
    tick = rec.of("tick")[-1]
    assert tick["active"][0] is None and tick["legal"][0] == []


def test_redeal_two_a_player_dealing_one_card_puts_it_on_the_first_pile():
    text, last, deck = _suit_game("two")
    game, rec, err = run_row(text + "\nclock %d" % (last + 1000))
    a = codes(deck)[:26]
    latest = a[23] & 3  # the pile of A's last play
    assert pile_cards(game, latest)[-2:-1] == ["AS"]  # A's one card, under B's
    assert list(game.packs) == [1, 21]


def test_deadlock_when_neither_player_can_deal_ends_at_once():
    # No card ever matches (rank): B's cards cycle through the ranks 2-8, A's are 9-K
    # and aces (two leftovers of B's ranks sit where A never shows them). Each stuck
    # table is redealt until both packs hold one card: then the game ends with no pause.
    b = []
    used = set()
    for i in range(26):
        r = 1 + i % 7  # ranks 2..8
        s = 0
        while r * 4 + s in used:
            s += 1
        used.add(r * 4 + s)
        b.append(r * 4 + s)
    rest = [c for c in range(52) if c not in used]
    high = [c for c in rest if c >> 2 in (0, 8, 9, 10, 11, 12)]
    low = [c for c in rest if c not in high]
    a = [high[0]] + low + high[1:]
    assert len(a) == 26 and len(low) == 2
    deck = "deck " + " ".join(CARD_NAMES[c] for c in a + b)
    game, rec, err = run_row(row_log(deck, "clock 30000"))
    stucks = rec.of("stuck")
    over = rec.of("over")
    assert over == [{"ev": "over", "t": stucks[-1]["t"], "result": "draw", "why": "deadlock"}]
    assert len(stucks) == 7 and list(game.packs) == [1, 1]
    assert rec.events[-2]["ev"] == "stuck" and rec.of("deal")[-1]["t"] < stucks[-1]["t"]
    assert game.stuck_count == 7


def test_deadlock_limit_with_fewer_the_smaller_pack_wins():
    game, rec, err = run_row(row_log(AFTER_TICK, "press 1400 A 0", "clock 5000", rules="deadlock=2"))
    assert rec.of("stuck")[1]["t"] == 2700
    assert rec.of("over") == [{"ev": "over", "t": 2700, "result": "A", "why": "deadlock"}]
    assert list(game.packs) == [17, 18]
    game, rec, err = run_row(row_log(AFTER_TICK, "press 1400 A 0", "clock 5000",
                                     rules="deadlock=2 deadlock_result=draw"))
    assert rec.of("over")[0]["result"] == "draw"


def test_a_cover_resets_the_deadlock_count_and_a_tie_does_not():
    game, rec, err = run_row(row_log(NINES, "press 1400 A 1", "press 1400 B 1", "clock 1401"))
    game.stuck_count = 5  # as if after five stuck tables
    game.press(0, 1, 1500)
    game.press(1, 1, 1500)
    game.advance(1501)
    assert game.stuck_count == 5  # a replayed tie
    game.press(0, 1, 1600)
    game.advance(1601)
    assert game.stuck_count == 0


# ---------------------------------------------------------------- §6 end, match


def _both_out_log(rules=""):
    """piles=4, match=suit, tops 2C 2D 2H 2S: every card plays on the pile of its suit.
    A and B take turns until one card each is left, then play both in one tick."""
    b_head = [parse_card(n) for n in ("2C", "2D", "2H", "2S")]
    rest = [c for c in range(52) if c not in b_head]
    a = rest[:26]
    b = b_head + rest[26:]
    if a[25] & 3 == b[25] & 3:  # the last two must go on different piles
        a[24], a[25] = a[25], a[24]
    deck = "deck " + " ".join(CARD_NAMES[c] for c in a + b)
    lines = []
    t = 1400
    for k in range(4, 25):
        lines.append("press %d A %d" % (t, a[k] & 3))
        lines.append("press %d B %d" % (t + 1, b[k] & 3))
        t += 10
    lines += ["press %d A %d" % (t, a[25] & 3), "press %d B %d" % (t, b[25] & 3),
              "clock %d" % (t + 1)]
    return row_log(deck, *lines, rules="match=suit" + (" " + rules if rules else "")), t


def test_both_players_out_in_one_tick_is_a_draw():
    text, t = _both_out_log()
    game, rec, err = run_row(text)
    assert err is None
    assert rec.of("over") == [{"ev": "over", "t": t, "result": "draw", "why": "both-out"}]
    assert list(game.score) == [0, 0] and not rec.of("match")


def test_a_drawn_game_does_not_count_and_the_match_goes_on():
    text, t = _both_out_log("wins=1")
    game, rec, err = run_row(text + "\n%s\nstart %d\nclock %d" % (NO_MATCH, t + 100, t + 200))
    assert err is None and game.games == 2 and not game.match_over
    assert rec.of("deal")[-1]["t"] == t + 100


def test_the_match_is_won_by_the_first_to_win_wins_games():
    text, last, deck = _suit_game("all")
    t = last + 1300
    game, rec, err = run_row(text.replace("rules game=row ", "rules game=row wins=1 ")
                             + "\npress %d A 0\nclock %d" % (t, t + 1))
    assert rec.of("match") == [{"ev": "match", "t": t, "winner": "A", "score": [1, 0]}]
    game, rec, err = run_row(text + "\npress %d A 0\nclock %d\n%s\nstart %d" % (t, t + 1, BASIC, t + 5))
    assert err is None and list(game.score) == [1, 0] and not game.match_over
    assert game.phase != OVER and rec.of("deal")[-1]["t"] == t + 5


def test_every_card_is_somewhere_exactly_once():
    text, t = _both_out_log()
    game, rec, err = run_row(text.replace("clock %d" % (t + 1), "clock %d" % t))
    assert sorted(row_all_cards(game)) == sorted(CARD_NAMES)


# ---------------------------------------------------------------- API, views


def test_press_out_of_the_piles_is_refused():
    game = RowGame(RowRules(piles=3))
    game.set_deck(codes(BASIC))
    game.start(0)
    assert game.press(0, 3, 400) == E_ARG and game.press(2, 0, 400) == E_ARG
    assert game.press(0, 2, 400) == 0


def test_legal_lists_a_locked_players_piles_whatever_the_phase():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 1", "clock 1401"))
    assert game.locked_at(0, 1401) and game.legal[0] == 1
    game, rec, err = run_row(row_log(BASIC))
    assert game.phase != PLAY and list(game.legal) == [1, 2]


def test_the_stuck_phase_and_due_time_are_visible():
    game, rec, err = run_row(row_log(NO_MATCH, "clock 1500"))
    assert game.phase == STUCK and game.due_at() == 2300 and game.coverable == 0


def test_a_seed_before_the_rules_waits_for_its_start():
    a = run_row("seed 9\nrules game=row\nstart 0\nclock 400")[1].events
    b = run_row("rules game=row\nseed 9\nstart 0\nclock 400")[1].events
    assert a == b and a[0]["ev"] == "deal"


def test_recorder_pack_views_agree_with_the_trace():
    game, rec, err = run_row(row_log(BASIC, "press 1400 A 0", "clock 1401"))
    assert pack_cards(game, 0)[0] == rec.of("tick")[0]["active"][0]
    assert len(pack_cards(game, 1)) == rec.of("tick")[0]["packs"][1]
    assert isinstance(Recorder, type)
