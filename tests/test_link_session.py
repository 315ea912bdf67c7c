"""hw.link.link: two ends on a simulated cable (tests/link_sim.py) link up and lose nothing."""

from hypothesis import given, settings, strategies as st

from hw.link import frame as fr
from hw.link import link as lk
from link_sim import Pair


class Streams:
    """The host streams numbered log lines, the guest numbered presses; both keep count."""

    def __init__(self, pair, lines=150, presses=150, from_ms=0.0):
        self.pair = pair
        self.lines = [b"press %d A %d" % (i, i % 8) for i in range(lines)]
        self.presses = [(i * 3 + 1, i % 8, i % 5) for i in range(presses)]
        self.sent_lines = self.sent_presses = 0
        self.from_ms = from_ms
        pair.app[id(pair.host)] = self.host_step
        pair.app[id(pair.guest)] = self.guest_step

    def host_step(self, dev):
        link = dev.link
        while dev.t >= self.from_ms and self.sent_lines < len(self.lines) and \
                link.state == lk._LINKED:
            line = self.lines[self.sent_lines]
            if not link.send_log(line, len(line)):
                break
            self.sent_lines += 1

    def guest_step(self, dev):
        link = dev.link
        while dev.t >= self.from_ms and self.sent_presses < len(self.presses) and \
                link.state == lk._LINKED:
            if not link.send_press(*self.presses[self.sent_presses]):
                break
            self.sent_presses += 1
        link.drained(dev.clock.ticks(dev.t))

    def done(self):
        return (self.pair.guest.rec.logs == self.lines
                and [p[1:] for p in self.pair.host.rec.presses] == self.presses)


def test_host_and_guest_link_and_the_guest_gets_seat_1():
    pair = Pair(seed=1)
    pair.run(1000)
    assert pair.host.rec.events == [lk._EV_LINKED] == pair.guest.rec.events
    assert pair.guest.link.seat == 1 and pair.host.link.peer == 1
    assert pair.host.link.sync.ready and pair.host.link.syncs >= 10


def test_a_clean_cable_delivers_everything_once_in_order_without_resends():
    pair = Pair(seed=2)
    streams = Streams(pair)
    pair.run(20000)
    assert streams.done()
    assert pair.host.link.stats[lk._RESENT] == pair.guest.link.stats[lk._RESENT] == 0
    assert all(p[0] == 1 for p in pair.host.rec.presses)  # the guest's seat


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0, 0.02), st.floats(0, 0.02), st.floats(0, 0.01))
def test_lost_damaged_and_doubled_bytes_are_resent_never_delivered_twice(seed, drop, corrupt,
                                                                         dup):
    pair = Pair(seed=seed, drop=drop, corrupt=corrupt, dup=dup)
    streams = Streams(pair, lines=60, presses=60)
    pair.run(30000)
    logs, presses = pair.guest.rec.logs, [p[1:] for p in pair.host.rec.presses]
    # never out of order, twice or changed: what came is a prefix of what was sent
    assert logs == streams.lines[:len(logs)]
    assert presses == streams.presses[:len(presses)]
    assert streams.done(), (len(logs), len(presses))
    if drop + corrupt + dup > 0.005:
        assert pair.host.link.stats[lk._RESENT] + pair.guest.link.stats[lk._RESENT] > 0


def test_a_pulled_cable_is_noticed_by_both_and_nothing_is_lost():
    pair = Pair(seed=3)
    streams = Streams(pair, lines=400, presses=400)
    pair.cut(2000, 3500)
    pair.run(2000 + lk._LOST_MS + 60)
    assert lk._EV_LOST in pair.host.rec.events and lk._EV_LOST in pair.guest.rec.events
    pair.run(25000)
    assert pair.host.rec.events[-1] == lk._EV_BACK == pair.guest.rec.events[-1]
    assert streams.done()


def test_a_guest_that_restarts_rejoins_on_a_fresh_channel():
    pair = Pair(seed=4)
    streams = Streams(pair, lines=30, presses=30)
    pair.run(3000)
    assert streams.done()
    pair.restart(pair.guest)
    pair.guest.rec.logs.clear()
    pair.run(4000)
    assert pair.host.rec.events == [lk._EV_LINKED, lk._EV_REJOINED]
    assert pair.guest.rec.events[-1] == lk._EV_LINKED and pair.guest.link.state == lk._LINKED
    assert pair.host.link.send_log(b"rejoined", 8)
    pair.run(4500)
    assert pair.guest.rec.logs == [b"rejoined"]


def test_a_host_that_restarts_is_reported_to_the_guest_then_links_again():
    pair = Pair(seed=5)
    pair.run(2000)
    pair.restart(pair.host)
    pair.run(4000)
    assert lk._EV_HOST_RESTARTED in pair.guest.rec.events
    assert pair.guest.rec.events[-1] == lk._EV_LINKED and pair.host.link.state == lk._LINKED


def test_two_hosts_or_two_guests_on_one_cable_say_so():
    pair = Pair(seed=6)
    pair.guest.role = lk._ROLE_HOST
    pair.restart(pair.guest)
    pair.run(1000)
    assert pair.host.rec.events == [lk._EV_TWO_HOSTS] == pair.guest.rec.events
    pair = Pair(seed=7)
    pair.host.role = lk._ROLE_GUEST
    pair.restart(pair.host)
    pair.run(1000)
    assert pair.host.rec.events == [lk._EV_NO_HOST] == pair.guest.rec.events
    assert pair.host.link.state == lk._CONFLICT == pair.guest.link.state


def test_a_full_window_refuses_and_a_watermark_waits_for_the_presses_before_it():
    pair = Pair(seed=8)
    pair.run(500)
    guest = pair.guest.link
    for i in range(4):
        assert guest.send_press(i, 1)
    guest._go_back(guest.base)  # as after a NACK: those four go out again first
    assert guest.send_press(4, 1)
    assert guest.high != guest.next  # the new press waits behind the resends
    guest.drained(pair.guest.clock.ticks(pair.guest.t))
    guest.wm_at -= lk._WATERMARK_MS  # a watermark is due
    guest.poll()
    assert guest.wm_sent == -1  # a press before it is still unsent: no watermark yet
    while guest.wm_sent == -1:
        guest.poll()
    assert guest.high == guest.next and guest.wm_sent == guest.wm
    for i in range(5, guest.slots):
        assert guest.send_press(i, 1)
    assert not guest.send_press(99, 1) and guest.window_free() == 0


def test_a_press_is_followed_at_once_by_its_watermark_and_idle_ones_keep_their_period():
    pair = Pair(seed=10)
    pair.run(500)
    guest = pair.guest.link
    now = pair.guest.clock.ticks(pair.guest.t)
    guest.drained(now)
    guest.wm_at = now  # a watermark just went: the next is not due for WATERMARK_MS
    guest.drained(now + 1)
    assert guest.wm_sent != now + 1  # idle: the period holds
    frames = guest.stats[lk._FRAMES_OUT]
    assert guest.send_press(now + 1, 0, 3)
    guest.drained(now + 2)  # the pass read its keys: the press's watermark goes now
    assert guest.wm_sent == now + 2 and guest.stats[lk._FRAMES_OUT] == frames + 2
    guest.drained(now + 3)
    assert guest.wm_sent == now + 2  # and then the period again


def test_a_watermark_lets_the_host_judge_every_tick_up_to_it():
    pair = Pair(seed=11)
    pair.run(1000)
    guest, host = pair.guest.link, pair.host.link
    assert host.sync.ready
    now = pair.guest.clock.ticks(pair.guest.t)
    guest.send_press(now, 0, 1)
    guest.drained(now)  # every press stamped up to now was sent
    pair.run(pair.guest.t + 20)
    # the guest's clock has passed ``now``: the host may advance past its mapped tick
    assert host.gate.horizon[1] == host.sync.to_host(now + 1)
    assert host.gate.limit(host.sync.to_host(now) + 50) == host.sync.to_host(now + 1)


def test_frames_for_another_seat_or_from_a_stranger_are_ignored():
    pair = Pair(seed=9)
    pair.run(500)
    host = pair.host.link
    before = len(pair.host.rec.presses)
    frame = bytearray(fr._FRAME_MAX)
    for seat in ((2 << 4) | 0, (1 << 4) | 3):  # from seat 2; to seat 3
        pay = bytes([0, 0, 0, 5, 1, 0])
        n = fr.encode(frame, seat, fr.PRESS, host.expected, 0, pay, 6)
        host.feed(frame, n)
    assert len(pair.host.rec.presses) == before and host.ignored >= 2


def test_a_silent_guest_is_not_asked_the_time():
    # each request costs the host a spin: none while the guest is lost
    pair = Pair(seed=10)
    pair.run(1500)
    pair.cut(1500, 4000)
    pair.run(1500 + lk._LOST_MS + 100)
    sent = pair.host.link.sync_at
    pair.run(3900)
    assert pair.host.link.lost and pair.host.link.sync_at == sent
    pair.run(6000)
    assert not pair.host.link.lost and pair.host.link.sync_at != sent
