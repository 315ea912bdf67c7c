"""hw.views.stats_reset: the stats lines show the record's numbers; the reset gesture is deliberate."""

from hw.store import record as rec
from hw.views import stats_reset as ss
from hw.menu import DEFAULTS
from hw.board.profiles import KEY_START


def test_lines_show_the_records_numbers():
    r = rec.Record(DEFAULTS)
    r.game_won(0, 41230)
    r.game_won(0, 38000)
    r.game_won(1, 52000)
    r.match_won(0)
    r.tie(1)
    r.reaction(0, 612)
    r.game_won(0, 30000, level=2)
    r.match_won(0, level=2)
    from hw.views.stats_view import stats_lines

    lines = stats_lines(r, ("beginner", "normal", "expert"))
    text = "\n".join(lines)
    assert "Games won      3          1" in text
    assert "Matches        2          0" in text
    assert "Fastest  30.00 s    52.00 s" in text
    assert "Ties won   0/1        1/1" in text
    assert "Reaction   612 ms       - ms" in text
    assert "A vs expert   games 1-0  matches 1-0" in text
    assert "A vs beginner games 0-0  matches 0-0" in text
    assert "Run now    B 1" not in text and "Run now    A 1" in text


def gesture_run(events, until):
    g = ss.ResetGesture()
    for t, key, pressed in events:
        g.tick(t)
        g.key(key, pressed, t)
    return g.tick(until)


def test_reset_needs_both_buttons_held_3_s_then_start():
    both = [(0, ss.KEY_A, True), (100, ss.KEY_B, True)]
    assert gesture_run(both, 3000) == ss.HOLDING  # 2.9 s: not yet
    assert gesture_run(both, 3100) == ss.CONFIRM
    assert gesture_run(both + [(3200, KEY_START, True)], 3300) == ss.DONE
    assert gesture_run(both + [(3200, 5, True)], 3300) == ss.IDLE  # another key: no
    assert gesture_run(both + [(1000, ss.KEY_B, False)], 5000) == ss.IDLE  # let go early
    assert gesture_run([(0, ss.KEY_A, True)], 9000) == ss.IDLE  # one button only
    assert gesture_run(both + [(3200, 3, True)] + [(3300, KEY_START, True)], 3400) == ss.IDLE
    g = ss.ResetGesture()
    for t, key, pressed in both:
        g.key(key, pressed, t)
    assert g.tick(3100) == ss.CONFIRM
    assert g.tick(3100 + ss.CONFIRM_MS) == ss.IDLE  # no confirmation in time
