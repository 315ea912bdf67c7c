"""One or more tests per rule of RULES-SPEED.md (Speed), on hand-built decks.

Plain asserts and no pytest import: ``tests/mpy/vm_speed_rules.py`` runs these same
functions inside the MicroPython VM (and CircuitPython's unix interpreter).
Times: ``start 1000``; the deal window ends at 1300, a stuck pause lasts 1000 ms.
A play is n = 5 * pile + slot.
"""

from speed_helpers import (
    chain, codes, hand, mid_cards, run_speed, side_cards, speed_all_cards, speed_deck, speed_log,
)
from engine.cards import CARD_NAMES
from engine.family import E_ARG, OK, OVER, PLAY, STUCK
from engine.rng import Rng, shuffle
from engine.speed_rules import SpeedRules
from engine.speed import SpeedGame, fits

# Middle 5D | 9D. A: 4C 6C KC 8C 2C, draw 3C 7C ...; B: TC QH 4H JH 2H, draw 3H ...
# A may play n 0 (4C on 5D), 1 (6C on 5D), 8 (8C on 9D); B n 2 (4H on 5D), 5 (TC on 9D).
BASIC = speed_deck(a="4C 6C KC 8C 2C 3C 7C", b="TC QH 4H JH 2H 3H", mid="5D 9D")
# Nobody fits: middle 5D | 9D; every hand card is 5 or 9 away... (A: K Q J 2 A, B: same ranks).
NONE = speed_deck(a="KC QC JC 2C AC", b="KD QD JD 2D AD", s0="6H", s1="TH", mid="5D 9D")


def results(rec):
    return rec.results()


# --------------------------------------------------------------- §2 deal


def test_deal_of_20_hands_draw_piles_sides_and_middle_cards():
    game, rec, err = run_speed(speed_log(BASIC))
    assert err is None
    d = codes(BASIC)
    assert hand(game, 0) == "4C 6C KC 8C 2C" and hand(game, 1) == "TC QH 4H JH 2H"
    assert list(game.draws) == [15, 15] and list(game.sides) == [5, 5]
    assert side_cards(game, 0) == [CARD_NAMES[c] for c in d[40:45]]  # top first
    assert side_cards(game, 1) == [CARD_NAMES[c] for c in d[45:50]]
    assert mid_cards(game, 0) == ["5D"] and mid_cards(game, 1) == ["9D"]
    assert rec.of("deal") == [{"ev": "deal", "t": 1000, "tops": ["5D", "9D"],
                              "hands": [["4C", "6C", "KC", "8C", "2C"], ["TC", "QH", "4H", "JH", "2H"]],
                              "draws": [15, 15], "sides": [5, 5]}]


def test_deal_of_15_leaves_ten_cards_per_side_pile():
    deck = speed_deck(a="4C 6C KC 8C 2C", b="TC QH 4H JH 2H", mid="5D 9D", cards=15)
    game, rec, err = run_speed(speed_log(deck, rules="cards=15"))
    d = codes(deck)
    assert list(game.draws) == [10, 10] and list(game.sides) == [10, 10]
    assert hand(game, 1) == " ".join(CARD_NAMES[c] for c in d[15:20])
    assert side_cards(game, 0) == [CARD_NAMES[c] for c in d[30:40]]
    assert side_cards(game, 1) == [CARD_NAMES[c] for c in d[40:50]]
    assert sorted(speed_all_cards(game)) == sorted(CARD_NAMES)


def test_presses_during_the_deal_window_are_ignored():
    game, rec, err = run_speed(speed_log(BASIC, "press 1299 A 0", "press 1300 A 0", "clock 1301"))
    assert results(rec) == ["A0:ignored", "A0:cover"]


# ------------------------------------------------------------ §3 playing


def test_one_rank_up_or_down_and_the_king_ace_two_loop():
    k, a, two, q, three = (CARD_NAMES.index(n) for n in ("KS", "AS", "2S", "QS", "3S"))
    assert fits(0, a, k) and fits(0, k, a) and fits(0, two, a) and fits(0, a, two)
    assert not fits(0, a, q) and not fits(0, three, a) and not fits(0, k, two)
    assert not fits(0, a, CARD_NAMES.index("AD")) and fits(1, a, CARD_NAMES.index("AD"))
    # On the table: A's AC fits a king and a two; B's KH fits the ace.
    deck = speed_deck(a="AC 7C 7D 7H 7S", b="5H KH 6C 6D 6H", mid="KD 2D")
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 1401"))
    first = run_speed(speed_log(deck, "clock 1301"))[0]
    assert list(first.legal) == [1 | 1 << 5, 0]  # AC on KD (n 0) and on 2D (n 5)
    assert results(rec) == ["A0:cover"] and mid_cards(game, 0) == ["KD", "AC"]
    assert game.legal[1] >> 1 & 1  # now B's KH fits the ace


def test_a_play_refills_the_same_slot_from_the_draw_pile():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 1", "clock 1401"))
    assert results(rec) == ["A1:cover"] and rec.of("press")[0]["card"] == "6C"
    assert hand(game, 0) == "4C 3C KC 8C 2C" and list(game.draws) == [14, 15]
    assert list(game.tops) == [CARD_NAMES.index("6C"), CARD_NAMES.index("9D")]
    tick = rec.of("tick")[0]
    assert tick["hands"][0] == ["4C", "3C", "KC", "8C", "2C"] and tick["draws"] == [14, 15]
    # On 6C: A's 7? no 7 in hand; 8C on 9D (n 8); B's TC on 9D (n 5).
    assert tick["legal"] == [[8], [5]]


def test_with_an_empty_draw_pile_the_slot_stays_empty_and_pressing_it_is_illegal():
    used = set(codes("deck AD")[:1])
    a = chain(1, 20, used)  # 2 3 4 ... : A plays slot 0 over and over onto the ace
    deck = speed_deck(a=" ".join(a[:1] + a[16:20] + a[1:16]), mid="AD KS")
    lines = ["press %d A 0" % (1400 + 10 * k) for k in range(16)]
    game, rec, err = run_speed(speed_log(deck, *lines, "press 1600 A 0", "clock 1601"))
    assert err is None
    assert list(game.draws)[0] == 0 and hand(game, 0).split()[0] == "--"
    assert results(rec)[-1] == "A0:illegal" and game.locked[0]
    assert rec.of("tick")[-1]["hands"][0][0] is None


def test_an_illegal_play_moves_nothing_and_locks_for_the_penalty():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 2", "press 1899 A 0",
                                         "press 1900 A 0", "clock 1901"))
    assert results(rec) == ["A2:illegal", "A0:locked", "A0:cover"]
    assert game.illegals[0] == 1
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 2", "press 1401 A 0", "clock 1402",
                                         rules="penalty=0"))
    assert results(rec) == ["A2:illegal", "A0:cover"]


def test_the_lock_is_per_player():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 9", "press 1401 B 5", "clock 1402"))
    assert results(rec) == ["A9:illegal", "B5:cover"]


def test_same_rank_too_with_same_1():
    deck = speed_deck(a="5C KC KD KH KS", b="QC QD QH QS TC", mid="5D 9D")
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 1401"))
    assert results(rec) == ["A0:illegal"]
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 1401", rules="same=1"))
    assert results(rec) == ["A0:cover"] and mid_cards(game, 0) == ["5D", "5C"]


# ---------------------------------------------- §4 one play per tick, ties


def test_one_play_per_tick_the_lowest_pile_then_slot():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 8", "press 1400 A 1", "press 1400 A 0",
                                         "clock 1401"))
    assert results(rec) == ["A8:ignored", "A1:ignored", "A0:cover"]
    assert list(game.draws) == [14, 15] and game.covers[0] == 1


def test_a_second_press_of_the_same_play_is_ignored_and_an_illegal_one_does_not_block():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 2", "press 1400 A 1", "press 1400 A 1",
                                         "clock 1401"))
    assert results(rec) == ["A2:illegal", "A1:cover", "A1:ignored"]
    assert game.locked_at(0, 1401)


def test_both_players_on_one_pile_is_a_tie_under_replay():
    # A's 4C (n 0) and B's 4H (n 2) both on 5D: a tie, even from different slots.
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 0", "press 1400 B 2", "clock 1401"))
    assert results(rec) == ["A0:tie", "B2:tie"]
    assert mid_cards(game, 0) == ["5D"] and game.ties == 1
    assert not game.locked[0] and not game.locked[1]


def test_a_tie_under_coin_follows_the_engine_generator():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 0", "press 1400 B 2", "clock 1401",
                                         rules="tie=coin"))
    a_wins = Rng(0).below(2) == 0  # a deck line: the generator starts from seed 0
    assert results(rec) == (["A0:cover", "B2:lost-tie"] if a_wins else ["A0:lost-tie", "B2:cover"])


def test_coin_ties_go_both_ways_over_seeds():
    winners = set()
    for seed in range(60):
        text = "rules game=speed tie=coin\nseed %d\nstart 0\nclock 300" % seed
        game = run_speed(text)[0]
        pair = None
        for na in range(10):
            for nb in range(10):
                if (game.legal[0] >> na) & 1 and (game.legal[1] >> nb) & 1 and (na < 5) == (nb < 5):
                    if pair is None and all(not (game.legal[0] >> k) & 1 for k in range(na)) \
                            and all(not (game.legal[1] >> k) & 1 for k in range(nb)):
                        pair = (na, nb)
        if pair is None:
            continue
        game, rec, err = run_speed(text + "\npress 400 A %d\npress 400 B %d\nclock 401" % pair)
        res = sorted(e["r"] for e in rec.of("press"))
        assert res == ["cover", "lost-tie"], res
        winners.add([e["p"] for e in rec.of("press") if e["r"] == "cover"][0])
    assert winners == {"A", "B"}


def test_no_fallback_a_tied_player_plays_no_other_candidate():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 8", "press 1400 A 0", "press 1400 B 2",
                                         "clock 1401"))
    assert results(rec) == ["A8:ignored", "A0:tie", "B2:tie"]
    assert list(game.draws) == [15, 15]


def test_plays_on_different_piles_in_one_tick_both_cover():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 B 5", "press 1400 A 0", "clock 1401"))
    assert results(rec) == ["B5:cover", "A0:cover"]
    assert mid_cards(game, 0) == ["5D", "4C"] and mid_cards(game, 1) == ["9D", "TC"]


def test_a_locked_press_does_not_tie_the_other_covers():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 B 9", "press 1450 A 0", "press 1450 B 2",
                                         "clock 1451"))
    assert results(rec) == ["B9:illegal", "A0:cover", "B2:locked"]


# ------------------------------------------------- §5 stuck, turn, remake


def test_stuck_side_cards_are_turned_after_the_pause():
    game, rec, err = run_speed(speed_log(NONE, "press 1500 A 0", "clock 2301"))
    assert rec.of("stuck") == [{"ev": "stuck", "t": 1300}]
    assert results(rec) == ["A0:ignored"]  # the pause ignores presses
    deal = rec.of("deal")[1]
    assert deal["t"] == 2300 and deal["tops"] == ["6H", "TH"] and deal["sides"] == [4, 4]
    assert mid_cards(game, 0) == ["5D", "6H"] and mid_cards(game, 1) == ["9D", "TH"]
    assert game.phase != STUCK and game.stuck_count == 1


def test_a_stuck_table_after_a_tick_is_stuck_from_that_tick():
    # A's 4C on 5D leaves 4C | 9D; then nobody fits (A: 6D? no) -> stuck at 1400.
    deck = speed_deck(a="4C KC KD KH KS", b="QC QD QH QS JC", s0="2S", s1="2H", mid="5D 9D")
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 2400"))
    hand_a = rec.of("tick")[0]["hands"][0]
    assert rec.of("stuck") == [{"ev": "stuck", "t": 1400}], hand_a
    assert rec.of("deal")[1]["t"] == 2400 and rec.of("deal")[1]["tops"] == ["2S", "2H"]


def test_only_a_side_pile_with_cards_turns():
    deck = speed_deck(a="KC QC JC 2C AC", b="KD QD JD 2D AD", s0="6H 7H 8H 9H TH",
                      s1="3S 4S 5S 6S 7S", mid="5D 9D")
    game = run_speed(speed_log(deck))[0]
    game.sides[1] = 0  # as if side pile 1 had run out
    game.advance(2300)
    assert game.phase != STUCK and mid_cards(game, 0)[-1] == "6H" and mid_cards(game, 1) == ["9D"]


def _stuck_until_remake(remake):
    """Nobody ever fits: the 5 side cards of each pile are turned, then a remake."""
    # A holds K Q J 3 ... never next to 5-9s? Build: middle and sides all 5..9 ranks
    # spaced so no hand card (ranks K, Q, J... far from 4-10) fits.
    mid = "5D 5H"
    s0 = "5S 5C 7D 7H 7S"
    s1 = "7C 9D 9H 9S 9C"
    deck = speed_deck(a="KC QC KD QD KH", b="QH KS QS AC AD", s0=s0, s1=s1, mid=mid)
    return deck


def test_remake_rest_gathers_the_middle_under_the_tops_shuffles_and_splits():
    deck = _stuck_until_remake("rest")
    # Stuck when each deal window ends (1300, 2600, ...), turns 1000 ms later (2300,
    # 3600, ...); the sixth pause (ends 8800) finds both side piles empty: a remake.
    game, rec, err = run_speed(speed_log(deck, "clock 8800", rules="deadlock=20"))
    assert err is None
    assert [e["t"] for e in rec.of("deal")] == [1000, 2300, 3600, 4900, 6200, 7500, 8800]
    assert game.remakes == 1
    # Recompute: before the remake pile 0 is 5D 5S 5C 7D 7H 7S, pile 1 5H 7C 9D 9H 9S 9C.
    gathered = [CARD_NAMES.index(n) for n in ("5D 5S 5C 7D 7H 5H 7C 9D 9H 9S").split()]
    rng = Rng(0)  # a deck line's generator: seed 0
    buf = bytearray(gathered)
    shuffle(rng, buf, 10)
    names = [CARD_NAMES[c] for c in buf]
    # Side 0 got indices 0-4 (index 0 on top), side 1 indices 5-9; then each turned one.
    assert rec.of("deal")[-1]["tops"] == [names[0], names[5]]
    assert side_cards(game, 0) == names[1:5] and side_cards(game, 1) == names[6:10]
    assert mid_cards(game, 0) == ["7S", names[0]] and mid_cards(game, 1) == ["9C", names[5]]
    assert sorted(speed_all_cards(game)) == sorted(CARD_NAMES)


def test_remake_rest_with_an_odd_count_gives_side_pile_0_the_extra_card():
    deck = _stuck_until_remake("rest")
    game = run_speed(speed_log(deck, "clock 7501", rules="deadlock=20"))[0]
    game.heights[1] = 5  # drop pile 1's top card from the count: 5 + 4 cards to gather
    game.tops[1] = game.mid[52 + 4]
    game.advance(8800)
    assert game.remakes == 1 and list(game.sides) == [4, 3]  # 5 and 4, one turned from each


def test_remake_whole_shuffles_each_pile_on_its_own_and_turns_one():
    deck = _stuck_until_remake("whole")
    game, rec, err = run_speed(speed_log(deck, "clock 8800", rules="deadlock=20 remake=whole"))
    assert err is None and game.remakes == 1
    rng = Rng(0)
    piles = []
    for names in ("5D 5S 5C 7D 7H 7S", "5H 7C 9D 9H 9S 9C"):
        buf = bytearray(CARD_NAMES.index(n) for n in names.split())
        shuffle(rng, buf, 6)  # pile 0 first, then pile 1, from the one generator
        piles.append([CARD_NAMES[c] for c in buf])
    assert mid_cards(game, 0) == [piles[0][0]] and mid_cards(game, 1) == [piles[1][0]]
    assert side_cards(game, 0) == piles[0][1:] and side_cards(game, 1) == piles[1][1:]
    assert rec.of("deal")[-1]["sides"] == [5, 5]


def test_remake_shuffles_continue_a_seeded_games_generator():
    game = SpeedGame(SpeedRules(deadlock=20))
    game.shuffle(77)
    rng = Rng(77)
    buf = bytearray(range(52))
    shuffle(rng, buf, 52)  # the generator as the seed's shuffle left it
    game.deck[:] = bytearray(codes(_stuck_until_remake("rest")))  # our deck, its generator
    game.start(1000)
    game.advance(8800)
    assert game.remakes == 1
    gathered = bytearray(CARD_NAMES.index(n) for n in "5D 5S 5C 7D 7H 5H 7C 9D 9H 9S".split())
    shuffle(rng, gathered, 10)
    assert game.tops[0] == gathered[0] and game.tops[1] == gathered[5]


# ------------------------------------------------------------ §5 deadlock


def test_deadlock_limit_ends_the_game_with_fewer_or_draw():
    deck = _stuck_until_remake("rest")
    game, rec, err = run_speed(speed_log(deck, "clock 9000", rules="deadlock=3"))
    stucks = rec.of("stuck")
    assert [s["t"] for s in stucks] == [1300, 2600, 3900]
    assert rec.of("over") == [{"ev": "over", "t": 3900, "result": "draw", "why": "deadlock"}]
    assert rec.events[-1]["ev"] == "over" and rec.events[-2]["ev"] == "stuck"


def test_fewer_compares_hand_and_draw_pile():
    game, rec, err = run_speed(speed_log(BASIC, "press 1400 A 0", "clock 1401"))
    assert game.held(0) == 19 and game.held(1) == 20  # hand 5 + draw 14 against 5 + 15
    # A's 4C on 5D, then nobody fits: stuck at 1400, and deadlock=1 ends it; A holds 19.
    deck = speed_deck(a="4C KC KD KH KS", b="QC QD QH QS JC", s0="2S", s1="2H", mid="5D 9D")
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 9000", rules="deadlock=1"))
    assert rec.of("over") == [{"ev": "over", "t": 1400, "result": "A", "why": "deadlock"}]
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 9000",
                                         rules="deadlock=1 deadlock_result=draw"))
    assert rec.of("over")[0]["result"] == "draw"


def test_a_cover_resets_the_deadlock_count_and_a_replayed_tie_does_not():
    game = run_speed(speed_log(BASIC, "clock 1301"))[0]
    game.stuck_count = 5
    game.press(0, 0, 1400)
    game.press(1, 2, 1400)
    game.advance(1401)
    assert game.stuck_count == 5
    game.press(0, 0, 1500)
    game.advance(1501)
    assert game.stuck_count == 0


def test_a_table_that_cannot_turn_ends_at_once():
    game = run_speed(speed_log(NONE, "clock 1299"))[0]
    game.sides[0] = game.sides[1] = 0
    game.heights[0] = game.heights[1] = 1  # nothing under the tops to gather (rest)
    game.advance(1300)
    assert game.phase == OVER and game.why == 2 and game.due_at() == -1


# ------------------------------------------------------------ §6 end, match


def _race():
    """A plays 20 cards up from the AC on pile 0, B 20 up from the 8D on pile 1,
    one each per tick (slot 0 sixteen times, then slots 1-4)."""
    used = set([CARD_NAMES.index("AC"), CARD_NAMES.index("8D")])
    a = chain(1, 20, used)
    b = chain(8, 20, used)
    order = lambda c: " ".join(c[:1] + c[16:20] + c[1:16])  # noqa: E731
    return speed_deck(a=order(a), b=order(b), mid="AC 8D")


def _plays(player, n_plays, t0=1400, pile=0):
    out = []
    for k in range(n_plays):
        slot = 0 if k < 16 else k - 15
        out.append("press %d %s %d" % (t0 + 10 * k, player, 5 * pile + slot))
    return out


def test_a_player_wins_the_moment_hand_and_draw_pile_are_empty():
    game, rec, err = run_speed(speed_log(_race(), *_plays("A", 20), "clock 2000"))
    assert err is None
    assert results(rec) == ["A%d:cover" % (0 if k < 16 else k - 15) for k in range(20)]
    assert rec.of("over") == [{"ev": "over", "t": 1590, "result": "A", "why": "out"}]
    assert game.held(0) == 0 and hand(game, 0) == "-- -- -- -- --"
    assert rec.of("tick")[-1]["hands"][0] == [None] * 5 and rec.of("tick")[-1]["legal"][0] == []


def test_both_out_in_one_tick_is_a_draw():
    lines = []
    for a, b in zip(_plays("A", 20), _plays("B", 20, pile=1)):
        lines += [a, b]
    game, rec, err = run_speed(speed_log(_race(), *lines, "clock 2000"))
    assert err is None
    assert rec.of("over") == [{"ev": "over", "t": 1590, "result": "draw", "why": "both-out"}]
    assert list(game.score) == [0, 0]


def test_the_match_is_won_by_wins_games():
    game, rec, err = run_speed(speed_log(_race(), *_plays("A", 20), "clock 2000", rules="wins=1"))
    assert rec.of("match") == [{"ev": "match", "t": 1590, "winner": "A", "score": [1, 0]}]
    text = speed_log(_race(), *_plays("A", 20), "clock 2000", BASIC, "start 3000", "clock 3301")
    game, rec, err = run_speed(text)
    assert err is None and list(game.score) == [1, 0] and game.phase == PLAY


def test_points_the_winner_scores_the_cards_the_loser_holds():
    game, rec, err = run_speed(speed_log(_race(), *_plays("A", 20), "clock 2000", rules="points=20"))
    assert rec.of("over") == [{"ev": "over", "t": 1590, "result": "A", "why": "out", "points": [20, 0]}]
    assert rec.of("match") == [{"ev": "match", "t": 1590, "winner": "A", "score": [1, 0]}]
    game, rec, err = run_speed(speed_log(_race(), *_plays("A", 20), "clock 2000",
                                         rules="points=21 wins=1"))
    assert not rec.of("match") and list(game.points) == [20, 0] and not game.match_over
    # B played 5 cards meanwhile: A scores 15.
    lines = _plays("A", 20) + ["press %d B 5" % (1401 + 10 * k) for k in range(5)]
    lines.sort(key=lambda s: int(s.split()[1]))
    game, rec, err = run_speed(speed_log(_race(), *lines, "clock 2000", rules="points=100"))
    assert err is None and rec.of("over")[0]["points"] == [15, 0]


def test_points_of_a_fewer_deadlock_and_draws_score_nothing():
    deck = speed_deck(a="4C KC KD KH KS", b="QC QD QH QS JC", s0="2S", s1="2H", mid="5D 9D")
    game, rec, err = run_speed(speed_log(deck, "press 1400 A 0", "clock 9000",
                                         rules="deadlock=1 points=50"))
    assert rec.of("over")[0]["points"] == [20, 0]
    lines = []
    for a, b in zip(_plays("A", 20), _plays("B", 20, pile=1)):
        lines += [a, b]
    game, rec, err = run_speed(speed_log(_race(), *lines, "clock 2000", rules="points=5"))
    assert rec.of("over")[0]["points"] == [0, 0]


def test_every_card_is_somewhere_exactly_once():
    game, rec, err = run_speed(speed_log(_race(), *_plays("A", 12), "clock 2000"))
    assert sorted(speed_all_cards(game)) == sorted(CARD_NAMES)


# --------------------------------------------------------------- API, views


def test_a_play_outside_0_to_9_is_refused():
    game = SpeedGame()
    game.set_deck(codes(BASIC))
    game.start(0)
    assert game.press(0, 10, 400) == E_ARG and game.press(2, 0, 400) == E_ARG
    assert game.press(0, 9, 400) == OK


def test_legal_ignores_locks_and_phase():
    game = run_speed(speed_log(BASIC))[0]
    assert game.phase != PLAY and list(game.legal) == [1 | 2 | 1 << 8, 1 << 2 | 1 << 5]
    game = run_speed(speed_log(BASIC, "press 1400 A 2", "clock 1401"))[0]
    assert game.locked_at(0, 1401) and game.legal[0] == 1 | 2 | 1 << 8


def test_a_start_during_a_game_is_refused_and_changes_nothing():
    text = speed_log(BASIC, "press 1400 A 0", BASIC, "start 1500")
    game, rec, err = run_speed(text)
    assert err is not None and "not over" in str(err)
    assert hand(game, 0) == "3C 6C KC 8C 2C"
