"""One or more tests per rule of RULES-AGGRAVATION.md (Aggravation and Frustration), on
hand-built decks.

Plain asserts and no pytest import: ``tests/mpy/vm_aggravation_rules.py`` runs these same
functions inside the MicroPython VM (and CircuitPython's unix interpreter). Times:
``start 1000``; a deal window is 300 ms, a dry or scooping pause 500 ms, the call window
400 ms. The decks RACE, SPLIT and DRY_END are described in tests/aggravation_helpers.py.
"""

from aggravation_helpers import (
    CARD_NAMES, DRY_END, NO_CARD, RACE_END, SPLIT, SPLIT_END, THREE_END, agg_all_cards, agg_log,
    deck_line, pack_cards, play_out, race_deck, race_presses, rows, run_agg, split_presses,
)
from engine.aggravation import AggravationGame
from engine.aggravation_rules import AggravationRules
from engine.family import E_ARG, E_BUSY, OK, OVER, PLAY, STUCK

# After the race (A out of cards at 1640 with 0 = 5H, 14 = KD pending), B covers 14 with
# 5S at 1700: 0 = 5H and 14 = 5S match, and A can only tap.
TAPS = race_presses() + ["press 1700 B 14"]


def results(rec):
    return rec.results()


def evs(rec, *names):
    return [(e["ev"], e["t"]) for e in rec.events if not names or e["ev"] in names]


def taps_game(*lines, b_cards="5S 9S 7S 8S", rules=""):
    return run_agg(agg_log(race_deck(b_cards), *(TAPS + list(lines)), rules=rules))


def tail(rec, n):
    """The results of the last ``n`` presses."""
    return results(rec)[len(results(rec)) - n:]


# ----------------------------------------------------------- §1 cards, rows


def test_the_first_deal_round_lays_one_card_each_onto_empty_rows():
    game, rec, err = run_agg(agg_log(deck_line("5C", "9D"), "clock 1100"))
    assert err is None
    assert rec.of("deal") == [{"ev": "deal", "t": 1000, "rows": [["5C"], ["9D"]], "packs": [25, 25]}]
    assert CARD_NAMES[game.tops[0]] == "5C" and CARD_NAMES[game.tops[14]] == "9D"
    assert [p for p in range(28) if game.tops[p] != NO_CARD] == [0, 14]
    assert list(game.row_len) == [1, 1] and game.phase == 1  # the deal window


def test_positions_are_fixed_by_row_a_from_0_and_b_from_14():
    game, rec, err = run_agg(agg_log(deck_line("AC 2C 3C", "4D 6D 7D"), "clock 2700"))
    assert rows(game) == [["AC", "2C", "3C"], ["4D", "6D", "7D"]]
    assert [p for p in range(28) if game.tops[p] != NO_CARD] == [0, 1, 2, 14, 15, 16]
    assert rec.of("deal")[-1]["rows"] == [["AC", "2C", "3C"], ["4D", "6D", "7D"]]


def test_a_press_on_a_position_with_no_stack_is_illegal_and_locks():
    game, rec, err = run_agg(agg_log(deck_line("5C", "5D"), "press 1400 A 1", "press 1400 B 27",
                                     "press 1450 A 13", "press 1500 A 0", "press 1900 A 0",
                                     "clock 1901"))
    assert err is None
    assert results(rec) == ["A1:illegal", "B27:illegal", "A13:locked", "A0:locked", "A0:cover"]
    assert list(game.illegals) == [1, 1]


def test_press_codes_are_0_to_27_for_the_api():
    game = AggravationGame()
    game.set_deck(list(range(52)))
    assert game.start(0) == OK
    assert game.press(0, 27, 10) == OK and game.press(1, 0, 10) == OK
    assert game.press(0, 28, 10) == E_ARG and game.press(1, -1, 10) == E_ARG
    assert game.press(0, True, 10) == E_ARG and game.press(0, 3.0, 10) == E_ARG


# ------------------------------------------------------------ §2 deal rounds


def test_a_dry_table_waits_the_pause_then_the_next_round_is_dealt():
    game, rec, err = run_agg(agg_log(deck_line("5C 7C", "9D JD"), "clock 2650"))
    assert evs(rec) == [("deal", 1000), ("dry", 1300), ("deal", 1800), ("dry", 2100), ("deal", 2600)]
    assert rec.of("deal")[1]["rows"] == [["5C", "7C"], ["9D", "JD"]]
    assert rec.of("deal")[1]["packs"] == [24, 24]


def test_presses_in_the_deal_window_and_the_dry_pause_are_ignored():
    game, rec, err = run_agg(agg_log(deck_line("5C 5H", "9D JD"), "press 1200 A 0", "press 1500 A 0",
                                     "press 2099 A 1", "press 2100 A 1", "clock 2101"))
    assert results(rec) == ["A0:ignored", "A0:ignored", "A1:ignored", "A1:cover"]
    assert len(rec.of("tick")) == 1  # ticks of ignored presses only are not traced


def test_a_table_with_a_match_waits_for_a_press_and_deals_nothing_more():
    game, rec, err = run_agg(agg_log(deck_line("5C", "5D"), "clock 100000"))
    assert evs(rec) == [("deal", 1000)]
    assert game.phase == PLAY and game.due_at() == -1 and game.coverable == 1 | 1 << 14


def test_a_table_that_becomes_dry_after_a_tick_is_dry_from_that_tick():
    # 5C / 5D match; A covers 14 with 9C (0 pending), B covers 0 with 8D: nothing coverable.
    game, rec, err = run_agg(agg_log(deck_line("5C 9C", "5D 8D"), "press 1400 A 14",
                                     "press 1500 B 0", "clock 2000"))
    assert results(rec) == ["A14:cover", "B0:cover"]
    assert [e["coverable"] for e in rec.of("tick")] == [[0], []]
    assert evs(rec, "dry", "deal") == [("deal", 1000), ("dry", 1500), ("deal", 2000)]


def test_one_player_deals_alone_when_the_other_is_out_of_cards():
    # After the race A is out; B covers the pending 14 with QH: dry, and the round is B's.
    game, rec, err = run_agg(agg_log(race_deck("QH AH"), *race_presses(), "press 1700 B 14",
                                     "clock 2200"))
    assert evs(rec, "dry", "deal") == [("deal", 1000), ("dry", 1700), ("deal", 2200)]
    assert rec.of("deal")[-1] == {"ev": "deal", "t": 2200, "rows": [["5H"], ["QH", "AH"]],
                                  "packs": [0, 23]}


def test_rows_reach_thirteen_stacks_and_the_table_fourteen():
    # B's row grows alone from 1 to 13 stacks: twelve ranks besides A's 5, then any card matches.
    b = "QH AH 2H 3H 4H 6H 7H 8H 9H TH JH KH"
    game, rec, err = run_agg(agg_log(race_deck(b), *race_presses(), "press 1700 B 14",
                                     "clock 11300"))
    deals = rec.of("deal")
    assert [len(d["rows"][1]) for d in deals[1:]] == list(range(2, 14))
    assert deals[-1]["t"] == 2200 + 800 * 11 and list(game.row_len) == [1, 13]
    assert deals[-1]["rows"][1][-1] == "AS"  # the thirteenth stack matches AH
    assert game.phase == PLAY and game.coverable == 1 << 15 | 1 << 26


# ---------------------------------------------------- §3 matches and covering


def test_covering_a_match_leaves_the_other_stack_pending_for_either_player():
    game, rec, err = run_agg(agg_log(deck_line("5C 9C", "5D 8D"), "press 1400 A 14", "clock 1401"))
    assert rec.of("tick")[0] == {"ev": "tick", "t": 1400, "rows": [["5C"], ["9C"]],
                                 "packs": [24, 25], "coverable": [0]}
    game, rec, err = run_agg(agg_log(deck_line("5C 9C", "5D 8D"), "press 1400 A 14",
                                     "press 1500 A 0", "clock 1501"))
    assert results(rec) == ["A14:cover", "A0:cover"]


def test_same_position_ties_replay_or_coin():
    game, rec, err = run_agg(agg_log(deck_line("5C", "5D"), "press 1400 A 0", "press 1400 B 0",
                                     "clock 1401"))
    assert results(rec) == ["A0:tie", "B0:tie"] and game.ties == 1
    assert rec.of("tick")[0]["coverable"] == [0, 14] and list(game.packs) == [25, 25]
    game, rec, err = run_agg(agg_log(deck_line("5C", "5D"), "press 1400 A 0", "press 1400 B 0",
                                     "clock 1401", rules="tie=coin"))
    assert sorted(r.split(":")[1] for r in results(rec)) == ["cover", "lost-tie"]
    assert game.locked[0] == 0 and game.locked[1] == 0  # a lost tie is not penalised


def test_one_players_presses_of_one_tick_apply_in_rising_position_order():
    game, rec, err = run_agg(agg_log(deck_line("5C 7C 8C", "5D"), "press 1400 A 14",
                                     "press 1400 A 0", "press 1400 A 0", "clock 1401"))
    assert results(rec) == ["A14:cover", "A0:cover", "A0:ignored"]
    cards = [e["card"] for e in rec.of("press") if e["r"] == "cover"]
    assert cards == ["8C", "7C"]  # position 0 took A's next card, 14 the one after


def test_covering_with_the_last_card_does_not_win():
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(), "clock 5000"))
    assert err is None and not rec.of("over")
    assert list(game.packs) == [0, 25] and game.phase == PLAY and game.coverable == 1 << 14
    assert rows(game) == [["5H"], ["KD"]]


def test_presses_after_the_last_card_within_its_tick_are_ignored_or_illegal():
    # A's 25th card (its last) covers 0; 14 would cover but A has run out; 3 is illegal.
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(covers=24),
                                     "press 1640 A 14", "press 1640 A 3", "press 1640 A 0",
                                     "clock 1641"))
    assert tail(rec, 3) == ["A14:ignored", "A3:illegal", "A0:cover"]
    assert game.locked[0] and game.packs[0] == 0


def test_rutter_makes_a_stack_on_its_own_rank_coverable():
    deck = deck_line("5C 9H 5H", "5D")
    lines = ("press 1400 A 14", "press 1500 A 0", "clock 1501")
    game, rec, err = run_agg(agg_log(deck, *lines, rules="rutter=1"))
    assert rec.of("tick")[-1]["coverable"] == [0] and not rec.of("dry")
    game, rec, err = run_agg(agg_log(deck, *lines))
    assert rec.of("tick")[-1]["coverable"] == [] and evs(rec, "dry") == [("dry", 1500)]


# ----------------------------------------------------- §4 taps and the call


def test_out_of_cards_a_player_taps_and_two_taps_of_one_rank_call():
    game, rec, err = taps_game("press 1800 A 0", "press 1900 A 14", "clock 2000")
    assert tail(rec, 2) == ["A0:tap", "A14:call"]
    assert rec.of("over") == [{"ev": "over", "t": 1900, "result": "A", "why": "call"}]
    assert list(game.score) == [1, 0] and game.calls == 1 and game.taps == 1
    tap = rec.of("press")[-2]
    assert "card" not in tap and tap["r"] == "tap"


def test_a_tap_never_moves_a_card_and_shows_the_hold():
    game, rec, err = taps_game("press 1800 A 0", "clock 1850")
    tick = rec.of("tick")[-1]
    assert tick["rows"] == [["5H"], ["5S"]] and tick["packs"] == [0, 24]
    assert game.held(0, 1850) == 0 and game.hold_left(0, 1850) == 350
    assert game.held(0, 2200) == -1 and game.held(1, 1850) == -1
    assert CARD_NAMES[game.hold_card[0]] == "5H"


def test_the_call_window_is_strict():
    game, rec, err = taps_game("press 1800 A 0", "press 2199 A 14", "clock 2300")
    assert tail(rec, 2) == ["A0:tap", "A14:call"]
    game, rec, err = taps_game("press 1800 A 0", "press 2200 A 14", "press 2599 A 0", "clock 2600")
    assert tail(rec, 3) == ["A0:tap", "A14:tap", "A0:call"]  # 400 ms is too late: a first tap
    game, rec, err = taps_game("press 1800 A 0", "press 1900 A 14", "clock 1901", rules="call=50")
    assert tail(rec, 2) == ["A0:tap", "A14:tap"] and game.held(0, 1949) == 14
    assert game.held(0, 1950) == -1
    changes = game.changes
    game.advance(1950)
    assert game.hold_pos[0] == -1  # the window has passed: the hold ends for good
    assert game.changes == changes + 1  # and a screen hears of it


def test_a_tap_needs_a_rank_shown_on_two_tops_pending_does_not_count():
    # Right after the race: 0 = 5H alone, 14 = KD pending alone.
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(), "press 1700 A 14", "clock 1701"))
    assert tail(rec, 1) == ["A14:illegal"] and game.locked[0]
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(), "press 1700 A 0", "clock 1701"))
    assert tail(rec, 1) == ["A0:illegal"]


def test_a_held_tap_whose_stack_is_covered_is_dropped_and_the_next_tap_judged_as_a_first_tap():
    # A holds 5H at 0; B covers 0 with 9S (14 = 5S is pending, alone): the second tap
    # on 14 is a first tap, and an illegal one.
    game, rec, err = taps_game("press 1800 A 0", "press 1850 B 0", "press 1900 A 14", "clock 1901")
    assert tail(rec, 3) == ["A0:tap", "B0:cover", "A14:illegal"]
    assert game.held(0, 1901) == -1 and not rec.of("over")


def test_a_tap_and_a_cover_on_one_position_in_one_tick_are_both_applied():
    game, rec, err = taps_game("press 1800 A 0", "press 1800 B 0", "press 1850 A 14", "clock 1851")
    assert tail(rec, 3) == ["A0:tap", "B0:cover", "A14:illegal"]
    assert rec.of("tick")[-2]["rows"] == [["9S"], ["5S"]]


def test_a_tap_on_the_held_position_is_ignored_within_the_window_and_keeps_its_time():
    game, rec, err = taps_game("press 1800 A 0", "press 2100 A 0", "press 2200 A 0",
                               "press 2500 A 14", "clock 2501")
    assert tail(rec, 4) == ["A0:tap", "A0:ignored", "A0:tap", "A14:call"]
    game, rec, err = taps_game("press 1800 A 0", "press 1850 B 0", "press 1900 A 0", "clock 1901")
    assert tail(rec, 3) == ["A0:tap", "B0:cover", "A0:ignored"]  # even covered since


def test_two_taps_in_one_tick_on_one_rank_are_a_call_at_once():
    game, rec, err = taps_game("press 1800 A 14", "press 1800 A 0", "clock 1801")
    assert tail(rec, 2) == ["A14:call", "A0:tap"]  # judged 0 first, reported in log order
    assert rec.of("over")[0]["t"] == 1800


def test_two_taps_in_one_tick_of_different_ranks_hold_the_lower_position():
    game, rec, err = taps_game("press 1800 A 15", "press 1800 A 0", "press 1900 A 14", "clock 1901",
                               rules="penalty=0")
    assert tail(rec, 3) == ["A15:illegal", "A0:tap", "A14:call"]


def test_a_tap_of_another_rank_drops_a_hold_from_an_earlier_tick():
    game, rec, err = taps_game("press 1800 A 0", "press 1850 A 15", "press 1900 A 14", "clock 1901",
                               rules="penalty=0")
    assert tail(rec, 3) == ["A0:tap", "A15:illegal", "A14:tap"]
    assert game.held(0, 1901) == 14


def test_a_locked_tap_does_not_touch_the_hold():
    game, rec, err = taps_game("press 1800 A 15", "press 1800 A 0", "press 1900 A 14",
                               "press 2300 A 14", "clock 2301", rules="call=1000")
    assert tail(rec, 4) == ["A15:illegal", "A0:tap", "A14:locked", "A14:call"]


def test_a_hold_ends_by_time_only_not_by_a_dry_pause_or_a_deal_round():
    # A holds 0 (5H) at 1800; B covers 0 with 9S and 14 with 7S: dry at 1850, B deals 9H at
    # 2350 (a match with 0), play at 2650. At 2700 the hold still stands: a tap on 0 is
    # ignored; 15 is then a first tap (the held stack was covered), and 0 calls.
    game, rec, err = taps_game("press 1800 A 0", "press 1850 B 0", "press 1850 B 14",
                               "press 2700 A 0", "press 2800 A 15", "press 2900 A 0", "clock 2901",
                               b_cards="5S 9S 7S 9H", rules="call=2000")
    assert evs(rec, "dry", "deal")[-2:] == [("dry", 1850), ("deal", 2350)]
    assert tail(rec, 3) == ["A0:ignored", "A15:tap", "A0:call"]
    game, rec, err = taps_game("press 1800 A 0", "press 1850 B 0", "press 1850 B 14",
                               "press 3800 A 0", "clock 3801", b_cards="5S 9S 7S 9H",
                               rules="call=2000")
    assert tail(rec, 1) == ["A0:tap"]  # the window has passed: 0 (9S, paired) is tapped anew


def test_a_call_ends_the_game_with_its_tick_the_others_covers_count_and_no_dry_follows():
    game, rec, err = taps_game("press 1800 A 0", "press 1900 A 14", "press 1900 B 0",
                               "press 1900 B 14", "clock 5000")
    assert tail(rec, 3) == ["A14:call", "B0:cover", "B14:cover"]
    assert rec.of("tick")[-1]["rows"] == [["9S"], ["7S"]] and rec.of("tick")[-1]["coverable"] == []
    assert evs(rec)[-2:] == [("tick", 1900), ("over", 1900)]
    assert game.phase == OVER and game.why == 3


def test_a_call_uses_the_hold_up_the_callers_later_taps_of_the_tick_are_first_taps():
    lines, t = play_out(THREE_END)  # both out; one rank on 2, 16 and 17
    game, rec, err = run_agg("\n".join(lines + ["press %d A 17" % (t + 100), "press %d A 16" % (t + 100),
                                                "press %d A 2" % (t + 100), "clock %d" % (t + 200)]))
    assert tail(rec, 3) == ["A17:tap", "A16:call", "A2:tap"]
    assert rec.of("over")[0]["why"] == "call"


def test_a_rutter_stack_alone_is_coverable_but_not_a_legal_tap():
    # After the race B covers the pending 14 (KD) with KS: a rutter, the only king on top.
    game, rec, err = run_agg(agg_log(race_deck("KS"), *race_presses(), "press 1700 B 14",
                                     "press 1800 A 14", "clock 1801", rules="rutter=1"))
    assert rec.of("tick")[-2]["coverable"] == [14] and not rec.of("dry")
    assert tail(rec, 1) == ["A14:illegal"]


def test_both_players_calling_in_one_tick_is_a_draw():
    game, rec, err = run_agg(agg_log(SPLIT, *split_presses(), "press 1700 A 0", "press 1700 B 14",
                                     "press 1750 B 0", "press 1750 A 14", "clock 1800"))
    assert tail(rec, 4) == ["A0:tap", "B14:tap", "B0:call", "A14:call"]
    assert rec.of("over") == [{"ev": "over", "t": 1750, "result": "draw", "why": "both-call"}]
    assert list(game.score) == [0, 0]


def test_with_both_packs_empty_only_a_rank_shown_twice_is_coverable_and_the_table_waits():
    game, rec, err = run_agg(agg_log(SPLIT, *split_presses(), "clock 100000"))
    assert rec.of("tick")[-1] == {"ev": "tick", "t": SPLIT_END, "rows": [["5H"], ["5S"]],
                                  "packs": [0, 0], "coverable": [0, 14]}
    assert game.phase == PLAY and game.due_at() == -1 and not rec.of("over")


def test_both_out_on_a_dry_table_ends_the_game_at_once_as_a_draw():
    lines, t = play_out(DRY_END)
    game, rec, err = run_agg("\n".join(lines + ["clock %d" % (t + 5000)]))
    last = rec.of("tick")[-1]
    assert last["packs"] == [0, 0] and last["coverable"] == []
    assert game.pending  # pending stacks no longer count once both packs are empty
    assert evs(rec)[-3:] == [("tick", last["t"]), ("dry", last["t"]), ("over", last["t"])]
    assert rec.of("over")[0]["result"] == "draw" and rec.of("over")[0]["why"] == "dry"
    assert rec.of("deal")[-1]["t"] < last["t"]


def test_a_player_with_cards_never_taps():
    game, rec, err = taps_game("press 1800 B 0", "press 1800 A 14", "clock 1801")
    assert tail(rec, 2) == ["B0:cover", "A14:tap"]


# ------------------------------------------------------------- §5 Frustration


def test_frustration_scoops_a_pack_emptied_by_a_tick_after_the_pause():
    game, rec, err = run_agg(agg_log(race_deck("9S"), *race_presses(), "press 1700 B 14",
                                     "clock 2140", rules="frustration=1"))
    assert not rec.of("dry") and not rec.of("over")
    assert rec.of("tick")[-1] == {"ev": "tick", "t": RACE_END, "rows": [["5H"], ["KD"]],
                                  "packs": [0, 25], "coverable": [14], "shares": [14, 38]}
    assert results(rec)[-1] == "B14:ignored"  # the scooping pause
    assert evs(rec)[-2:] == [("scoop", 2140), ("deal", 2140)]
    assert rec.of("scoop") == [{"ev": "scoop", "t": 2140, "packs": [14, 38]}]
    assert rec.of("deal")[-1] == {"ev": "deal", "t": 2140, "rows": [["5C"], ["9S"]],
                                  "packs": [13, 37], "shares": [14, 38]}


def test_frustration_scoops_each_row_from_its_owners_left_bottom_card_first_under_the_pack():
    game, rec, err = run_agg(agg_log(race_deck("9S"), *race_presses(), "clock 2139",
                                     rules="frustration=1"))
    assert game.phase == STUCK and game.scooping == 1
    game.advance(2140)
    a = ["5C"] + [r + "C" for r in "A 2 3 4 6 7 8 9 T J Q K".split()] + ["5H"]
    b = ["5D"] + [r + "D" for r in "A 2 3 4 6 7 8 9 T J Q K".split()]
    assert pack_cards(game, 0) == a[1:]  # 5C was dealt again at once
    assert pack_cards(game, 1)[-13:] == b and pack_cards(game, 1)[0] != "9S"
    assert rows(game) == [["5C"], ["9S"]] and game.scoops == 1


def test_frustration_shares_move_only_on_covers_of_the_opponents_row():
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(covers=5), "clock 1441",
                                     rules="frustration=1"))
    assert [e["shares"] for e in rec.of("tick")] == [[26, 26], [25, 27], [25, 27], [24, 28],
                                                    [24, 28]]
    assert rec.of("deal")[0]["shares"] == [26, 26]
    assert list(game.shares) == [24, 28]


def test_frustration_a_share_at_the_target_wins_after_its_tick():
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(), "clock 5000",
                                     rules="frustration=1 target=14"))
    assert rec.of("over") == [{"ev": "over", "t": 1630, "result": "A", "why": "share"}]
    assert rec.of("tick")[-1]["shares"] == [14, 38]


def test_frustration_the_target_is_checked_before_an_empty_pack_scoops():
    # Starting on 14, A's last card (its 13th on B's row) empties its pack and makes 13.
    presses = race_presses(first=14)
    game, rec, err = run_agg(agg_log(race_deck(), *presses, "clock 5000",
                                     rules="frustration=1 target=13"))
    assert evs(rec)[-2:] == [("tick", RACE_END), ("over", RACE_END)] and not rec.of("scoop")
    assert rec.of("over")[0]["why"] == "share" and rec.of("tick")[-1]["shares"] == [13, 39]
    game, rec, err = run_agg(agg_log(race_deck(), *presses, "clock 5000",
                                     rules="frustration=1 target=12"))
    assert not rec.of("over") and evs(rec, "scoop") == [("scoop", RACE_END + 500)]


def test_frustration_a_pack_emptied_by_a_deal_round_scoops_at_deal_plus_pause():
    # A covers 24 times (one card left); B covers 0 and 14: dry at 1700, the round at 2200
    # deals A's last card; scooping from 2500 (no dry check), scoop and deal at 3000.
    game, rec, err = run_agg(agg_log(race_deck("9S 7S 8S"), *race_presses(covers=24),
                                     "press 1700 B 0", "press 1700 B 14", "press 2600 B 1",
                                     "clock 3000", rules="frustration=1"))
    assert evs(rec, "dry", "deal", "scoop") == [("deal", 1000), ("dry", 1700), ("deal", 2200),
                                                ("scoop", 3000), ("deal", 3000)]
    assert rec.of("deal")[1]["rows"] == [["9S", "5H"], ["7S", "8S"]]
    assert results(rec)[-1] == "B1:ignored"
    assert rec.of("tick")[-1]["shares"] == [15, 37]
    a = ["5C"] + [r + "C" for r in "A 2 3 4 6 7 8 9 T J Q K".split()] + ["9S", "5H"]
    assert rec.of("scoop")[0]["packs"] == [15, 37] and pack_cards(game, 0) == a[1:]


def test_frustration_has_no_taps():
    game, rec, err = run_agg(agg_log(race_deck(), *race_presses(), "press 1641 A 0", "clock 1642",
                                     rules="frustration=1"))
    assert tail(rec, 1) == ["A0:ignored"] and game.taps == 0


# ------------------------------------------------------------------ §6 match


def test_a_match_goes_to_the_first_to_win_two_games_and_a_draw_does_not_count():
    game1 = list(TAPS) + ["press 1800 A 0", "press 1900 A 14"]
    draw = split_presses(t=10400) + ["press 10700 A 0", "press 10700 B 0", "press 10750 A 14",
                                     "press 10750 B 14"]
    game3 = race_presses(t=20400) + ["press 20700 B 14", "press 20800 A 14", "press 20850 A 0",
                                     "clock 21000"]
    text = agg_log(race_deck("5S"), *(game1 + [SPLIT, "start 10000"] + draw +
                                      [race_deck("5S"), "start 20000"] + game3))
    game, rec, err = run_agg(text)
    assert err is None, err
    assert [(e["result"], e["why"]) for e in rec.of("over")] == [("A", "call"), ("draw", "both-call"),
                                                               ("A", "call")]
    assert rec.of("match") == [{"ev": "match", "t": 20850, "winner": "A", "score": [2, 0]}]
    assert game.games == 3 and game.match_over


# --------------------------------------------------------- invariants, views


def test_all_52_cards_are_in_the_packs_and_the_rows_after_every_event():
    game = AggravationGame()
    seen = []

    def check(ev, t, i):
        seen.append(sorted(agg_all_cards(game)) == sorted(CARD_NAMES))

    game.sink = check
    from engine.log import play_lines
    play_lines(game, agg_log(race_deck("9S 7S 8S"), *race_presses(covers=24), "press 1700 B 0",
                             "press 1700 B 14", "clock 3000", rules="frustration=1").split("\n"))
    assert seen and all(seen)


def test_a_start_while_the_game_is_on_is_refused_and_changes_nothing():
    game = AggravationGame()
    game.set_deck(list(range(52)))
    game.start(0)
    game.advance(400)
    before = (list(game.tops), list(game.packs), game.phase, game.changes)
    game.shuffle(3)
    assert game.start(500) == E_BUSY
    assert (list(game.tops), list(game.packs), game.phase, game.changes) == before
    plain = AggravationGame(None, None, False)
    plain.shuffle(1)
    plain.start(0)
    plain.shuffle(2)
    assert plain.start(100) == E_BUSY


def test_the_rules_refuse_non_ints_and_values_out_of_range():
    bad = {"frustration": (2, -1, True, 1.0), "target": (0, 26, 10.0, True),
           "call": (0, 1 << 28, 400.0, True), "penalty": (-1, 1 << 28, 5.0, False),
           "stuck": (-1, 1 << 28, "500"), "deal": (-1, 1 << 28, None), "tie": (2, True, "coin"),
           "rutter": (2, True, 1.0), "wins": (0, 100, 2.0, True)}
    for key in bad:
        for value in bad[key]:
            try:
                AggravationRules(**{key: value})
            except ValueError as err:
                assert key in str(err), (key, value, err)
            else:
                assert False, (key, value)
    good = AggravationRules(frustration=1, target=25, call=(1 << 28) - 1, penalty=0, stuck=0,
                            deal=0, tie=1, rutter=1, wins=99)
    assert good.target == 25 and AggravationRules(target=1, call=1, wins=1).call == 1


def test_the_rules_read_and_write_their_log_keys():
    rules = AggravationRules()
    for key, text in (("frustration", "1"), ("target", "15"), ("call", "250"), ("tie", "coin"),
                      ("stuck", "0"), ("wins", "3")):
        rules.set(key, text)
        assert rules.text(key) == text
    for key, text in (("deadlock", "13"), ("deadlock_result", "draw"), ("target", "26"),
                      ("call", "0"), ("frustration", "2"), ("tie", "flip"), ("piles", "4")):
        try:
            rules.set(key, text)
        except ValueError:
            pass
        else:
            assert False, (key, text)
    assert rules.target == 15 and rules.call == 250
    assert rules.codes() == 28 and rules.KEYS[0] == "game"
