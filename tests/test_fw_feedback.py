"""Feedback for every event (hw/app/feedback.py): what each player sees and hears.

A tie flashes its cards and tells both seats; a lost coin toss tells who lost; a locked
or illegal press tells the presser only; no match and the redeal, a game's and a
match's end each have their sound; vs the CPU the texts name the CPU; a finished match
offers "START: new match" and START starts one.
"""

import json

import pytest

from fw_rig import Rig
from engine.family import COVER, EV_DEAL, EV_MATCH, EV_OVER, EV_PRESS, EV_STUCK, LOCKED, TIE
from hw.board import buzzer as bz
from hw.app import feedback as fb
from hw.draw import gfx
from hw import games, messages
from hw.app.modes import DONE, GAME, MENU, READY
from hw.menu import MATCH, PLAYERS, TIES
from hw.board.pads import KEY_START


def _begin(rig, choices=None):
    """From the title: the menu, the given choices (menu index: value), a match in play."""
    rig.tap(KEY_START)
    rig.run(60)
    assert rig.app.mode == MENU
    for option, value in (choices or {}).items():
        rig.app.menu.values[option] = value
    rig.tap(KEY_START)
    rig.run(60)
    rig.run_until(lambda: rig.game.phase == 2)
    rig.run(1000)  # "GO!" has gone


def _notes(sound):
    """``[(frequency Hz, ms), ...]`` of a sound (hw.board.buzzer keeps them flat)."""
    return [(bz.NOTES[i], bz.NOTES[i + 1])
            for i in range(bz.FIRST[sound], bz.FIRST[sound + 1], 2)]


def _presses(rig):
    """The device engine's press events so far (dicts of the trace)."""
    events = [json.loads(line) for line in rig.trace]
    return [e for e in events if e.get("ev") == "press"]


def _lines(rig):
    return tuple(text.text for text in rig.app.table.messages)


def _tones(rig):
    return [f for f, duty in rig.app.buzzer.pwm.history if duty]


def _sound_played(rig, sound):
    """True if the notes of ``sound`` were played, in order, at some point."""
    want = [f for f, _ in _notes(sound) if f]
    got = _tones(rig)
    return any(got[i:i + len(want)] == want for i in range(len(got)))


@pytest.fixture
def rig():
    return Rig(start=10000, seed=2024)


def test_a_tie_flashes_the_pair_tells_both_seats_and_chirps(rig):
    _begin(rig)
    game = rig.game
    pos = rig.coverable()[0]
    pair = game.by_rank[game.tops[pos] >> 2]  # the cards of that rank: both players' aim
    assert bin(pair).count("1") >= 2
    t = rig.now + 1
    rig.press_pos(0, pos, t)
    rig.press_pos(1, pos, t)  # the same scan: one tick, a tie (replay: nobody covers)
    rig.run(10, dt=1)
    assert [e["r"] for e in _presses(rig)][-2:] == ["tie", "tie"]
    cards = rig.app.table.cards
    lit = set()
    seen = []
    for _ in range(200):  # 1 s: the flash blinks, then stops
        rig.step(5)
        state = [cards[p].border == gfx.FLASH for p in range(8)]
        seen.append(state)
        lit |= {p for p in range(8) if state[p]}
        if rig.now - t < fb.NOTE_MS - 100:
            assert _lines(rig) == ("Tie! Nobody covers",) * 2 or rig.now - t < 20
    assert lit == {p for p in range(8) if (pair >> p) & 1}  # the tied card and its pair
    blinks = sum(1 for a, b in zip(seen, seen[1:]) if a[pos] != b[pos])
    assert blinks >= 4  # lit, dark, lit, ... (BLINK_MS each)
    assert not any(seen[-1])  # and stops
    assert _sound_played(rig, bz.SOUND_TIE)
    rig.run(400)
    assert _lines(rig) == ("", "")  # the note is gone


def test_a_lost_coin_toss_tells_each_seat_its_side(rig):
    _begin(rig, {TIES: 1})  # coin toss
    pos = rig.coverable()[0]
    t = rig.now + 1
    rig.press_pos(0, pos, t)
    rig.press_pos(1, pos, t)
    rig.run(30, dt=1)
    results = {e["p"]: e["r"] for e in _presses(rig)}
    loser = "A" if results["A"] == "lost-tie" else "B"
    assert results["AB"[1 - "AB".index(loser)]] == "cover"
    lines = _lines(rig)
    assert lines["AB".index(loser)] == "Lost the coin toss"
    assert lines[1 - "AB".index(loser)] == "Won the coin toss"
    rig.run(200)
    assert _sound_played(rig, bz.SOUND_LOST_TIE)


def test_illegal_and_locked_presses_tell_the_presser_only(rig):
    _begin(rig)
    bad = [p for p in range(8) if p not in rig.coverable()][0]
    rig.press_pos(0, bad)
    rig.run(30)
    assert _lines(rig) == ("Not a match!", "")
    assert _sound_played(rig, bz.SOUND_ILLEGAL)
    assert not rig.app.table.lock_text[0].hidden  # LOCKED in A's strip
    rig.press_pos(0, rig.coverable()[0])  # within the 500 ms penalty
    rig.run(30)
    assert [e["r"] for e in _presses(rig)][-1] == "locked"
    assert _lines(rig) == ("Locked: wait", "")
    assert _sound_played(rig, bz.SOUND_LOCKED)
    rig.run(fb.NOTE_MS + 100)
    assert _lines(rig) == ("", "")


def test_each_seat_has_its_own_cover_click(rig):
    _begin(rig)
    rig.press_pos(1, rig.coverable()[0])
    rig.run(30)
    assert _tones(rig)[-1] == _notes(bz.SOUND_COVER_B)[0][0]
    rig.run(200)
    rig.press_pos(0, rig.coverable()[0])
    rig.run(30)
    assert _tones(rig)[-1] == _notes(bz.SOUND_COVER_A)[0][0]
    assert _notes(bz.SOUND_COVER_A) != _notes(bz.SOUND_COVER_B)


class _Game:
    """The views Feedback reads, set by hand."""

    def __init__(self):
        self.tick_result = bytearray(4)
        self.tick_player = bytearray(4)
        self.tick_pos = bytearray(4)
        self.tops = bytearray(8)
        self.by_rank = bytearray(13)


def test_every_event_has_its_own_sound():
    f = fb.Feedback()
    game = _Game()
    f.new_match(cpu=False, demo=False)
    heard = []
    for result in (COVER, LOCKED, TIE):
        game.tick_result[0] = result
        heard.append(f.on_event(EV_PRESS, 0, 0, game))
    heard.append(f.on_event(EV_DEAL, 0, -1, game))  # the first deal: silent
    heard.append(f.on_event(EV_STUCK, 0, -1, game))
    heard.append(f.on_event(EV_DEAL, 0, -1, game))  # after no match: the redeal
    heard.append(f.on_event(EV_OVER, 0, -1, game))
    heard.append(f.on_event(EV_MATCH, 0, -1, game))
    assert heard == [bz.SOUND_COVER_A, bz.SOUND_LOCKED, bz.SOUND_TIE, bz.SOUND_NONE,
                     bz.SOUND_STUCK, bz.SOUND_REDEAL, bz.SOUND_OVER, bz.SOUND_MATCH]
    tunes = [tuple(_notes(s)) for s in range(1, len(bz.FIRST) - 1)]
    assert len(tunes) == bz.SOUND_MATCH and all(tunes)
    assert len(set(tunes)) == len(tunes)  # every sound distinct


def test_the_buzzer_plays_a_sound_note_by_note():
    from tools.cpstubs import board

    buzzer = bz.Buzzer(board.GP15)
    buzzer.beep(bz.SOUND_MATCH, 100)
    t = 100
    for freq, ms in _notes(bz.SOUND_MATCH):
        assert buzzer.on and buzzer.pwm.frequency == freq and buzzer.pwm.duty_cycle
        buzzer.update(t + ms - 1)
        assert buzzer.pwm.frequency == freq  # not before its time
        t += ms
        buzzer.update(t)
    assert not buzzer.on and buzzer.pwm.duty_cycle == 0


def _play_to_the_end(rig, seats=(0,)):
    """The given seats cover whatever they can until the match is over."""
    game = rig.game
    spent = 0
    while not game.match_over:
        assert spent < 400000
        cov = rig.coverable()
        if cov and spent % 30 == 0 and rig.app.mode == GAME:
            rig.press_pos(seats[(spent // 30) % len(seats)], cov[0])
        rig.step(5)
        spent += 5


def test_match_over_offers_a_new_match_and_start_begins_it(rig):
    _begin(rig, {MATCH: 0})  # best of 1
    _play_to_the_end(rig)
    game = rig.game
    winner = game.match_winner
    rig.run_until(lambda: rig.app.mode == DONE, dt=10)
    assert _lines(rig) == ("%s wins the match" % "AB"[winner],) * 2
    assert _sound_played(rig, bz.SOUND_MATCH)
    me, them = "AB"[0], "AB"[1]
    assert rig.app.table.won_text[0].text == "%s %d - %d %s  first to 1" % (
        me, game.score[0], game.score[1], them)
    rig.run(fb.RESULT_SHOWN_MS + 100, dt=10)
    assert _lines(rig) == ("START: new match",) * 2
    rig.run(fb.PROMPT_MS, dt=10)
    assert _lines(rig)[winner] == "%s wins the match" % "AB"[winner]  # in turn
    matches = rig.app.matches
    rig.tap(KEY_START)
    rig.run(60)
    assert rig.app.mode == READY and rig.app.matches == matches + 1
    assert rig.app.table.won_text[0].text == "A 0 - 0 B  first to 1"
    rig.run_until(lambda: rig.app.mode == GAME)


def test_vs_the_cpu_the_texts_name_the_cpu(rig):
    _begin(rig, {PLAYERS: 1, MATCH: 0})  # vs the CPU, best of 1
    assert not rig.app.seats[1].human
    table = rig.app.table
    assert table.won_text[0].text == "A 0 - 0 CPU  first to 1"
    assert table.won_text[1].text == "CPU 0 - 0 A  first to 1"
    game = rig.game
    spent = 0
    while game.phase != 4:  # the CPU plays alone: it wins
        assert spent < 400000
        rig.step(10)
        spent += 10
    rig.run(20)
    assert game.match_winner == 1
    assert _lines(rig) == ("CPU wins the game", "CPU wins the game")
    rig.run_until(lambda: rig.app.mode == DONE, dt=10)
    assert _lines(rig) == ("CPU wins the match", "CPU wins the match")
    assert table.won_text[0].text == "A 0 - 1 CPU  first to 1"
    for msg, (a, b) in enumerate(messages.MESSAGES):  # the CPU's line never says "You"
        shown = fb.CPU_OF[msg]
        if msg in (messages.MSG_WIN_A, messages.MSG_WIN_B, messages.MSG_MATCH_A, messages.MSG_MATCH_B):
            assert b"You" not in messages.MESSAGES[shown][1]
            assert b"B wins" not in messages.MESSAGES[shown][0]


def test_every_message_fits_its_line_and_the_demo_words_each():
    assert len(messages.DEMO_OF) == len(messages.MESSAGES) == len(fb.CPU_OF)
    for a, b in messages.MESSAGES:
        assert len(a) <= messages.MESSAGE_WIDTH and len(b) <= messages.MESSAGE_WIDTH
    for msg in range(len(messages.MESSAGES)):
        assert b"You" not in messages.MESSAGES[messages.DEMO_OF[msg]][0]  # the demo: no "You"


RESULTS = (messages.MSG_WIN_A, messages.MSG_WIN_B, messages.MSG_MATCH_A, messages.MSG_MATCH_B,
           messages.MSG_DEMO_WIN_A, messages.MSG_DEMO_WIN_B, messages.MSG_DEMO_MATCH_A,
           messages.MSG_DEMO_MATCH_B, messages.MSG_CPU_WIN_A, messages.MSG_CPU_WIN_B,
           messages.MSG_CPU_MATCH_A, messages.MSG_CPU_MATCH_B)


@pytest.mark.parametrize("key", [key for key, _ in games.GAMES])
def test_every_game_words_results_one_way(key):
    """Issue 20 (3.14): one scheme in every game and mode: both seats read the same
    line, naming the winner (A, B or CPU); nobody is told "You"."""
    import importlib

    table = importlib.import_module("hw.games.%s.table" % key)
    texts = getattr(table, "MESSAGES", messages.MESSAGES)
    own = range(len(messages.MESSAGES), len(texts))  # a game's own results (Speed's)
    for msg in list(RESULTS) + list(own):
        a, b = texts[msg]
        assert a == b and b"You" not in a and b"you" not in a, (key, msg, a, b)
    for msg in RESULTS:
        who = b"CPU" if msg in (messages.MSG_CPU_WIN_B, messages.MSG_CPU_MATCH_B) else \
            b"B" if msg in (messages.MSG_WIN_B, messages.MSG_MATCH_B, messages.MSG_DEMO_WIN_B,
                            messages.MSG_DEMO_MATCH_B) else b"A"
        assert texts[msg][0].startswith(who + b" wins the "), (key, msg)
    for msg in (messages.MSG_WIN_A, messages.MSG_MATCH_A, messages.MSG_WIN_B):  # vs the CPU
        assert texts[fb.CPU_OF[msg]][0].split()[0] in (b"A", b"CPU")


def test_get_ready_hides_the_last_games_cards(rig):
    """Issue 20 (3.14): "Get ready..." no longer sits over the finished game's table;
    the cards come back with the next deal."""
    _begin(rig, {MATCH: 1})  # best of 3: a second game follows the first
    layer = rig.app.table.cards_layer
    assert not layer.hidden
    game = rig.game
    spent = 0
    while game.phase != 4:  # OVER: A covers whatever it can
        assert spent < 400000
        cov = rig.coverable()
        if cov and spent % 30 == 0:
            rig.press_pos(0, cov[0])
        rig.step(5)
        spent += 5
    rig.run(20)
    assert not layer.hidden  # the result is told over the final table
    rig.run_until(lambda: rig.app.mode == READY, dt=10)
    rig.run(20)
    assert layer.hidden and _lines(rig) == ("Get ready...",) * 2
    rig.run_until(lambda: rig.app.mode == GAME, dt=10)
    rig.run(10)
    assert not layer.hidden
    assert [card.card for card in rig.app.table.cards] == list(game.tops)
