"""Zero heap bytes in Aggravation and Frustration: covers, ties, locks, ticks, deal rounds,
dry pauses, taps, calls, both calling, a dry end, scoops, refused starts in every phase,
whole games and bot steps.

Runs in both VMs (tests/test_micropython.py). Every check is measured twice: the
growth of gc.mem_alloc() with the collector off, and a run under heap_lock(). All set-up
(games, decks, scripts, drivers, bots) happens before any measurement.
"""
# vm-timeout: 600

from mpyharness import Report, locked, measure
from aggravation_alloc_cases import (
    DRY_ROUNDS, BotDriver, Driver, Racer, advance_by, deal_emptied_game, dry_end_script, game_drivers,
    new_game, press_after_lock, press_after_window, press_and_judge, scooping_game, split_end, taps_game,
    tie_and_judge,
)
from aggravation_helpers import DRY_END, deck_line, race_deck
from engine.aggravation import CALL, TAP, AggravationGame
from engine.aggravation_rules import AggravationRules
from engine.family import (
    COVER, DEALING, E_BUSY, E_MATCH_OVER, E_NO_DECK, IGNORED, ILLEGAL, LOCKED, LOST_TIE, OVER, STUCK,
    TIE,
)
from engine.grid import GridGame
from engine.family_bot import BEGINNER, EXPERT, NORMAL, PERFECT
from engine.logwriter import LogWriter

report = Report("vm_aggravation_alloc")


# --- set-up: every game first ------------------------------------------------
race = new_game(race_deck())
race.advance(1300)
racer = Racer(race)
pair = new_game(deck_line("5C", "5D"))
pair.advance(1300)
coins = [new_game(deck_line("5C", "5D"), AggravationRules(tie=1)) for _ in range(3)]
for g in coins:
    g.advance(1300)
over = new_game(deck_line("5C", "5D"))
over._end(over.clock, 2, 3)  # any finished game
dry = new_game(DRY_ROUNDS)
dry.advance(1300)  # dry at 1300: the next round at 1800
tapper = taps_game()
tap_once = taps_game()
callers = [taps_game() for _ in range(3)]
for g in callers:
    press_and_judge(g, 0, 0)  # held: the next tap on 14 calls
both = [split_end() for _ in range(3)]
scoops = [scooping_game() for _ in range(3)]
deal_scoops = [deal_emptied_game() for _ in range(3)]
dry_script = dry_end_script()
dry_ends = [new_game(DRY_END) for _ in range(3)]
drivers = game_drivers()
bots = [BotDriver(AggravationRules(), NORMAL, NORMAL, 10), BotDriver(AggravationRules(), EXPERT, BEGINNER, 20),
        BotDriver(AggravationRules(frustration=1), NORMAL, EXPERT, 30),
        BotDriver(AggravationRules(call=100, rutter=1), PERFECT, PERFECT, 40)]
for d in bots:
    d.run(300)  # warm-up: first calls, first deal
writer = LogWriter()

# Refused starts, one game per phase (a deck waits for each).
refuse = []
g = new_game(deck_line("5C", "5D"))
refuse.append(("dealing", g, g.clock, E_BUSY))
g = new_game(deck_line("5C", "5D"))
g.advance(1300)
refuse.append(("play", g, 1300, E_BUSY))
g = new_game(deck_line("5C", "5D"))
g.advance(1300)
g.press(0, 0, 1400)
refuse.append(("play, a tick pending", g, 1400, E_BUSY))
g = new_game(DRY_ROUNDS)
g.advance(1300)
refuse.append(("dry pause (the trial deals)", g, 1900, E_BUSY))
g = scooping_game()
refuse.append(("scooping (the trial scoops)", g, 2200, E_BUSY))
g = taps_game()
press_and_judge(g, 0, 0)
refuse.append(("a tap held", g, g.clock, E_BUSY))
g = taps_game(rules=AggravationRules(wins=1))
press_and_judge(g, 0, 0)
press_and_judge(g, 0, 14)  # a call: the match is won
refuse.append(("over, match over", g, g.clock + 1, E_MATCH_OVER))
for name, g, t, code in refuse:
    g.shuffle(7)  # a deck waits for the start
refuse.append(("idle, no deck", AggravationGame(), 0, E_NO_DECK))
g = GridGame()  # the family's trial copy, shared by every game (lists copied element-wise)
g.shuffle(3)
g.start(0)
g.advance(400)
g.shuffle(4)
refuse.append(("the 2x4 game, in play", g, 400, E_BUSY))

# --- presses and ticks -------------------------------------------------------
report.free("press: cover (A's race, 0 and 14 in turn) x10", racer.cover, n=10)
report.check(race.covers[0] == 12 and race.tick_result[0] == COVER, "the race covered (%d)" % race.covers[0])
report.free("press: tie (replay) x20", tie_and_judge, pair, 0, None, n=20)
report.check(pair.tick_result[0] == TIE and pair.tick_result[1] == TIE, "replayed ties")
report.free("press: illegal (no stack at 5)", press_after_lock, pair, 0, 5)
report.check(pair.tick_result[0] == ILLEGAL and pair.locked[0], "illegal, locked")
report.free("press: locked x20", press_and_judge, pair, 0, 0, n=20)
report.check(pair.tick_result[0] == LOCKED, "locked")
report.free("press: ignored (game over) x20", press_and_judge, over, 0, 3, n=20)
report.check(over.tick_result[0] == IGNORED, "ignored")
report.free("advance with nothing due x100", advance_by, pair, 7, None, n=100)

# --- deal rounds and dry pauses -----------------------------------------------
report.free("dry pause, deal round, deal window, dry again x3", advance_by, dry, 800, None, n=3)
report.check(dry.deals == 6 and dry.stucks == 6 and dry.phase == STUCK,
             "six dry rounds (%d deals, %d dry)" % (dry.deals, dry.stucks))

# --- taps and calls ------------------------------------------------------------
report.free("tap: a first tap, held (after the window) x10", press_after_window, tapper, 0, 0, n=10)
report.check(tapper.tick_result[0] == TAP and tapper.held(0, tapper.clock) == 0, "held taps")
report.free("tap: on the held position (ignored) x10", press_and_judge, tapper, 0, 0, n=10)
report.check(tapper.tick_result[0] == IGNORED, "the held position: ignored")
report.free("tap: illegal (no stack at 20)", press_after_window, tap_once, 0, 20)
report.check(tap_once.tick_result[0] == ILLEGAL, "an illegal tap")


def each(fn, games, a, b):
    """Warm up on the first game, measure on the second, lock on the third."""
    fn(games[0], a, b)
    used = measure(fn, games[1], a, b)
    ok = locked(fn, games[2], a, b)
    return used in (0, None) and ok is not False, used, ok


ok, used, lk = each(tie_and_judge, coins, 0, None)
report.check(ok and all(LOST_TIE in (g.tick_result[0], g.tick_result[1]) for g in coins),
             "press: tie (coin)", "(%s bytes, heap_lock %s)" % (used, lk))
ok, used, lk = each(press_and_judge, callers, 0, 14)
report.check(ok and all(g.phase == OVER and g.tick_result[0] == CALL for g in callers),
             "tap: the second tap calls and the game ends", "(%s bytes, heap_lock %s)" % (used, lk))


def both_call(g, _a, _b):
    t = g.clock + 1
    g.press(0, 0, t)
    g.press(1, 0, t)
    g.press(0, 14, t + 50)
    g.press(1, 14, t + 50)
    g.advance(t + 51)


ok, used, lk = each(both_call, both, 0, 0)
report.check(ok and all(g.phase == OVER and g.why == 4 for g in both),
             "both players call in one tick: a draw", "(%s bytes, heap_lock %s)" % (used, lk))

ok, used, lk = each(dry_script.play, dry_ends, None, None)
report.check(ok and all(g.phase == OVER and g.why == 6 for g in dry_ends),
             "a whole game to both out on a dry table (dry, draw)",
             "(%s bytes, heap_lock %s)" % (used, lk))

# --- Frustration: scoops ---------------------------------------------------------
ok, used, lk = each(advance_by, scoops, 600, None)
report.check(ok and all(g.scoops == 1 and g.phase == DEALING for g in scoops),
             "scoop after a tick emptied a pack, and the next round",
             "(%s bytes, heap_lock %s)" % (used, lk))
ok, used, lk = each(advance_by, deal_scoops, 900, None)
report.check(ok and all(g.scoops == 1 and g.phase == DEALING for g in deal_scoops),
             "scoop after a deal round emptied a pack, and the next round",
             "(%s bytes, heap_lock %s)" % (used, lk))

# --- refused starts ----------------------------------------------------------------
for name, g, t, code in refuse:
    before = (g.phase, g.changes, g.clock)
    report.check(g.start(t) == code and (g.phase, g.changes, g.clock) == before,
                 "refused start (%s) changes nothing" % name)
    report.free("refused start (%s) x5" % name, g.start, t, n=5)

# --- whole games ---------------------------------------------------------------------
for d in drivers:
    used = measure(d.play_game)
    g = d.game
    report.check(g.phase == OVER, "a whole game ended (frustration %d: %d deals, %d covers, %d taps, %s)"
                 % (g.frustration, g.deals, g.covers[0] + g.covers[1], g.taps, g.WHY_NAMES[g.why]))
    report.check(used in (0, None), "a whole game allocates 0 bytes", "(%s bytes)" % used)

g = AggravationGame(AggravationRules(frustration=1))
g.shuffle(99)
g.start(0)
d = Driver(g, 99)
d.step()
report.check(locked(d.play_game) is not False and g.phase == OVER, "a whole Frustration game under heap_lock")

# --- bots ----------------------------------------------------------------------------
for d in bots:
    steps0, presses0, games0 = d.steps, d.presses, d.games
    used = measure(d.run, 40000)
    what = "bots %d:%d (frustration %d)" % (d.bot_a.p[0], d.bot_b.p[0], d.game.frustration)
    print("%s: %d steps, %d presses, %d game starts, heap %s bytes"
          % (what, d.steps - steps0, d.presses - presses0, d.games - games0, used))
    report.check(used in (0, None) and d.presses - presses0 > 20 and d.games - games0 >= 1,
                 "%s: 40 s of bot play, restarts included, allocates 0 bytes" % what, used)
    report.free("%s: 10 s of bot play under heap_lock" % what, d.run, 10000)

report.free("LogWriter.press (position 27)", writer.press, 536870911, 1, 27)
report.check(bytes(writer.press(1000, 0, 27)) == b"press 1000 A 27\n", "LogWriter writes two digits")
report.done()
