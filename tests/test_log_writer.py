"""engine.log.LogWriter writes exactly the lines LogReader reads."""

from hypothesis import given, settings, strategies as st

from cs_helpers import run
from engine.cards import CARD_NAMES
from engine.logwriter import LogWriter
from engine.grid_rules import GridRules
from engine.ticks import TICKS_MAX


@settings(deadline=None)  # a loaded CI machine must not turn speed into a failure
@given(st.integers(0, (1 << 30) - 1), st.integers(0, TICKS_MAX),
       st.lists(st.tuples(st.integers(0, 500), st.integers(0, 1), st.integers(0, 7)), max_size=60),
       st.sampled_from([GridRules(), GridRules(tie=1, penalty=0, rutter=1, wins=3, deadlock_result=1)]))
def test_written_log_replays_like_the_same_log_written_by_hand(seed, start, presses, rules):
    w = LogWriter()
    written = [bytes(w.header()), bytes(w.rules(rules)), bytes(w.seed(seed)), bytes(w.start(start))]
    by_hand = ["CSLOG 1", "rules " + " ".join("%s=%s" % (k, rules.text(k)) for k in
               ("penalty", "stuck", "deal", "tie", "deadlock", "deadlock_result", "rutter", "wins")),
               "seed %d" % seed, "start %d" % start]
    t = start
    for gap, player, pos in presses:
        t = (t + gap) & TICKS_MAX
        written.append(bytes(w.press(t, player, pos)))
        by_hand.append("press %d %s %d" % (t, "AB"[player], pos))
    written.append(bytes(w.clock(t)))
    by_hand.append("clock %d" % t)
    text = b"".join(written).decode()
    assert text == "\n".join(by_hand) + "\n"
    game, rec, err = run(text)
    assert err is None


def test_deck_and_comment_lines():
    w = LogWriter()
    line = bytes(w.deck(bytearray(range(52)))).decode()
    assert line == "deck " + " ".join(CARD_NAMES) + "\n"
    assert bytes(w.comment("overflow 3")) == b"# overflow 3\n"
    game, rec, err = run("CSLOG 1\n" + line + "start 0\n" + bytes(w.comment("x")).decode())
    assert err is None and rec.of("deal")[0]["tops"][0] == "AC"


def test_rules_before_a_waiting_seed_and_after_it_both_work():
    game, rec, err = run("CSLOG 1\nseed 4\nrules penalty=0\nstart 0")
    assert err is None and rec.of("deal") and game.rules.penalty == 0
