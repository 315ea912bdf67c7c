// Two emulated Picos on one cable: CircuitPython's real UF2 on two rp2040js chips in
// one process, UART TX of each wired to the other's RX, stepped in slices of true time.
//
// Usage: node tools/picosim/link.mjs JOB.json   (tools/picosim/link.py writes the job
// and reads what this prints). JSON lines on stdout, as pico.mjs's, each with
// "chip" (0 or 1) and "T" (true ns since both chips powered on) added:
//   console, t0, usb, edge, burst (with "Tstart"): see chip.mjs / pico.mjs
//   {"type":"boot","chip":i,"T":ns,"n":k}   chip i powered on (n = 1) or was reset
//   {"type":"T0","T":ns}                     both chips run code.py: script time 0
//   {"type":"done",...}                      why it stopped, per-chip figures
// Every byte on the wire goes to JOB.outDir/bytes.csv, one line each:
//   dir,i,v,rv,fate,ts,te,late
// dir 0 = chip 0 -> chip 1, 1 = back; i counts the bytes of that direction from
// power-on; v the byte sent, rv the byte delivered; fate ok | drop | corrupt | cut |
// off (the receiver's UART or RX is disabled, or its RX pin is not the UART's) |
// overrun (its RX FIFO was full) | framing (baud rates more than 3 % apart) |
// reset (the receiver was reset while the byte was on the wire) | nopin (the
// sender's TX pin is not the UART's) | txfull (written to a full TX FIFO, never
// sent) ; ts, te the true ns its start bit left and its stop bit arrived; late the
// ns it reached the receiver after te (0 unless a slice is longer than a byte).
// Each chip's files (data.bin, final.raw, frames.bin) go to JOB.outDir/chip0, chip1.
//
// Job: chips[2] (each a pico.mjs chip job: uf2, bootrom, fat, fatOffset, holdHigh,
// dcPin, csPin, gapUs, captureFrames, stopOn; plus ppm and events [{ms, pin, high,
// tag}]), uart, txPin, rxPin (the cable's pins, the same on both), sliceUs, untilMs,
// bootTimeoutMs, stopWhen ('all' or 'any' of the chips' stopOn), faults:
//   drop / corrupt: [{dir: 'ab' | 'ba' | 'both', index: [i...], rate: p, seed: n,
//                     fromMs, toMs, mask (corrupt: XOR mask; default one seeded bit)}]
//   cut:   [{fromMs, toMs}]   the cable is out: a byte on the wire then is lost
//   reset: [{chip, atMs}]     the chip restarts (RUN pulled low): its program runs again
// ms are after T0; a rule's rate applies inside [fromMs, toMs) (default: always).
//
// Implementation Notes
// --------------------
// True time T advances in slices (sliceUs, default 20 us); in each, chip i runs until
// its own clock reaches (T - boot_i) * (1 + ppm_i / 1e6): a chip with ppm > 0 runs
// more cycles per slice, so its timers, its ticks_ms and its baud rate all run fast
// together, as with a fast crystal. Each byte is timed by uart.mjs on the sender's
// clock (TX FIFO, bit times from the divisors the firmware set) and delivered by an
// alarm on the receiver's clock at the true time its stop bit arrives; a slice
// shorter than a byte (86.8 us at 115200 baud) keeps every delivery in the
// receiver's future. A reset rebuilds the chip (a fresh RP2040, the same CIRCUITPY
// image, its panel's memory kept) at the slice boundary nearest the asked time.

import fs from 'node:fs';
import path from 'node:path';
import { Chip } from './chip.mjs';
import { UartPort } from './uart.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const write = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const FUNC_UART = 2;
const BAUD_TOLERANCE = 0.03;
const SLICES_PER_TURN = 500; // then let node breathe (signals, stdout)

// ---------------------------------------------------------------- true time
let T = 0; // ns
let T0 = null; // both chips run code.py
const msT = (ms) => T0 + ms * 1e6;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------- the chips
class Side {
  constructor(i, spec) {
    this.i = i;
    this.rate = 1 + (spec.ppm || 0) / 1e6;
    this.bootT = 0;
    this.spec = spec;
    this.t0T = null;
    const dir = path.join(job.outDir, 'chip' + i);
    fs.mkdirSync(dir, { recursive: true });
    this.chip = new Chip(spec, { dir, out: (obj) => this.out(obj), onT0: () => this.onT0() });
    this.port = null;
    this.rx = []; // bytes on their way here: {rec, te}
    this.rxAlarm = null;
  }

  localOf(t) { return (t - this.bootT) * this.rate; }
  trueOf(local) { return this.bootT + local / this.rate; }

  out(obj) {
    const extra = { chip: this.i };
    if (obj.t !== undefined) extra.T = Math.round(this.trueOf(obj.t));
    if (obj.type === 'burst') {
      extra.Tstart = Math.round(this.trueOf(obj.start));
      extra.T = Math.round(this.trueOf(obj.end));
    }
    write({ ...obj, ...extra });
  }

  onT0() {
    const t = this.trueOf(this.chip.t0);
    if (this.t0T === null) this.t0T = t;
    if (T0 === null && sides.every((s) => s.t0T !== null)) startScript();
  }

  boot(at) {
    const chip = this.chip;
    // Scripted edges still to come keep their true times across a reset.
    const pending = chip.pending.map((e) => ({ ...e, T: this.trueOf(e.at) }));
    this.bootT = at;
    chip.pending = pending.map((e) => ({ ...e, at: this.localOf(e.T) }));
    const mcu = chip.boot();
    write({ type: 'boot', chip: this.i, T: Math.round(at), n: chip.boots, ppm: this.spec.ppm || 0 });
    this.port = new UartPort(mcu, job.uart, {
      onStart: (value, startNs, frameNs) => cable.start(this, value, startNs, frameNs),
      onLost: (value, why) => cable.lost(this, value, why),
    });
    for (const item of this.rx) item.rec.fate = 'reset'; // the new chip never sees these
    this.flushRx();
    this.rxAlarm = mcu.clock.createAlarm(() => this.arrive());
  }

  /** A byte will arrive (stop bit in) at true time te. */
  expect(rec) {
    this.rx.push(rec);
    if (this.rx.length === 1) this.armRx();
  }

  armRx() {
    if (!this.rx.length) return;
    const clock = this.chip.mcu.clock;
    const at = this.localOf(this.rx[0].te);
    this.rxAlarm.schedule(Math.max(0, at - clock.nanos));
  }

  arrive() {
    const nowT = this.trueOf(this.chip.mcu.clock.nanos);
    while (this.rx.length && this.rx[0].te <= nowT + 1) {
      const rec = this.rx.shift();
      rec.late = Math.max(0, Math.round(nowT - rec.te));
      if (rec.fate === 'ok' || rec.fate === 'corrupt') {
        if (this.chip.mcu.gpio[job.rxPin].functionSelect !== FUNC_UART) rec.fate = 'off';
        else if (rec.framing) rec.fate = 'framing';
        if (rec.fate === 'ok' || rec.fate === 'corrupt' || rec.fate === 'framing') {
          const fate = this.port.deliver(rec.rv);
          if (fate !== 'ok') rec.fate = fate;
        }
      }
      cable.log(rec);
    }
    this.armRx();
  }

  flushRx() {
    for (const rec of this.rx) cable.log(rec);
    this.rx = [];
  }
}

// ---------------------------------------------------------------- the cable
class Cable {
  constructor(faults) {
    this.count = [0, 0];
    this.file = fs.openSync(path.join(job.outDir, 'bytes.csv'), 'w');
    this.lines = [];
    fs.writeSync(this.file, 'dir,i,v,rv,fate,ts,te,late\n');
    this.maxLate = 0;
    this.rules = { drop: this.compile(faults.drop), corrupt: this.compile(faults.corrupt) };
    this.cuts = faults.cut || [];
  }

  compile(rules) {
    return (rules || []).map((r) => ({
      dirs: r.dir === 'ab' ? [0] : r.dir === 'ba' ? [1] : [0, 1],
      index: new Set(r.index || []),
      rate: r.rate || 0,
      random: mulberry32(r.seed ?? 1),
      fromMs: r.fromMs ?? null,
      toMs: r.toMs ?? null,
      mask: r.mask ?? null,
    }));
  }

  /** The first rule that hits byte i of direction dir sent at true time ts, or null. */
  hit(rules, dir, i, ts) {
    for (const r of rules) {
      if (!r.dirs.includes(dir)) continue;
      if (r.index.has(i)) return r;
      if (!r.rate) continue;
      if (r.fromMs !== null && (T0 === null || ts < msT(r.fromMs))) continue;
      if (r.toMs !== null && (T0 === null || ts >= msT(r.toMs))) continue;
      if (r.random() < r.rate) return r;
    }
    return null;
  }

  start(from, value, startNs, frameNs) {
    const dir = from.i, to = sides[1 - dir];
    const ts = from.trueOf(startNs);
    const te = ts + frameNs / from.rate;
    const rec = { dir, i: this.count[dir]++, v: value, rv: value, fate: 'ok', ts, te, late: 0 };
    const cut = T0 !== null && this.cuts.some((c) => ts < msT(c.toMs) && te > msT(c.fromMs));
    let rule;
    if (from.chip.mcu.gpio[job.txPin].functionSelect !== FUNC_UART) rec.fate = 'nopin';
    else if (cut) rec.fate = 'cut';
    else if (this.hit(this.rules.drop, dir, rec.i, ts)) rec.fate = 'drop';
    else if ((rule = this.hit(this.rules.corrupt, dir, rec.i, ts))) {
      rec.rv = value ^ (rule.mask ?? (1 << Math.floor(rule.random() * 8)));
      rec.fate = 'corrupt';
    }
    const theirs = to.port ? to.port.bitNs / to.rate : 0; // true ns per bit
    if (theirs && Math.abs(theirs * from.rate / from.port.bitNs - 1) > BAUD_TOLERANCE) {
      rec.framing = true;
      rec.rv = (value >> 1) | 0x80; // sampled at the wrong bit times
    }
    if (rec.fate === 'ok' || rec.fate === 'corrupt') to.expect(rec);
    else this.log(rec);
  }

  lost(from, value, why) {
    const ts = from.trueOf(from.chip.mcu.clock.nanos);
    this.log({ dir: from.i, i: -1, v: value, rv: value, fate: why, ts, te: ts, late: 0 });
  }

  log(rec) {
    if (rec.late > this.maxLate) this.maxLate = rec.late;
    this.lines.push(`${rec.dir},${rec.i},${rec.v},${rec.rv},${rec.fate},${Math.round(rec.ts)},`
      + `${Math.round(rec.te)},${rec.late}`);
    if (this.lines.length >= 1000) this.flush();
  }

  flush() {
    if (this.lines.length) fs.writeSync(this.file, this.lines.join('\n') + '\n');
    this.lines = [];
  }
}

const cable = new Cable(job.faults || {});
const sides = job.chips.map((spec, i) => new Side(i, spec));

// ---------------------------------------------------------------- the script
const resets = [];
function startScript() {
  T0 = Math.max(...sides.map((s) => s.t0T));
  write({ type: 'T0', T: Math.round(T0) });
  for (const side of sides) {
    const edges = (side.spec.events || []).map((e) => ({
      at: side.localOf(msT(e.ms)), pin: e.pin, high: e.high, tag: e.tag,
    }));
    side.chip.addEdges(edges);
  }
  for (const r of (job.faults && job.faults.reset) || []) resets.push({ chip: r.chip, T: msT(r.atMs) });
  resets.sort((a, b) => a.T - b.T);
}

// ---------------------------------------------------------------- run
const wallStart = Date.now();
const sliceNs = (job.sliceUs || 20) * 1000;
const bootLimitNs = job.bootTimeoutMs * 1e6;

function stopReason() {
  const watched = sides.filter((s) => s.spec.stopOn);
  if (watched.length) {
    const seen = watched.filter((s) => s.chip.stopReason !== null);
    if (job.stopWhen === 'any' ? seen.length : seen.length === watched.length) {
      return 'console: ' + seen.map((s) => `chip ${s.i} ${s.spec.stopOn}`).join(', ');
    }
  }
  if (T0 !== null && T >= msT(job.untilMs)) return 'time';
  if (T0 === null && T >= bootLimitNs) {
    const late = sides.filter((s) => s.t0T === null).map((s) => s.i);
    return `no code.py output on chip ${late.join(' and ')}`;
  }
  return null;
}

function finish(reason) {
  for (const side of sides) side.flushRx();
  cable.flush();
  fs.closeSync(cable.file);
  const chips = sides.map((s) => ({
    ...s.chip.finish(), t: s.chip.mcu.clock.nanos, boots: s.chip.boots, ppm: s.spec.ppm || 0,
    t0T: s.t0T === null ? null : Math.round(s.t0T),
  }));
  write({ type: 'done', reason, T: Math.round(T), T0: T0 === null ? null : Math.round(T0),
    wallMs: Date.now() - wallStart, chips, bytes: cable.count, maxLateNs: cable.maxLate,
    sliceNs });
}

function turn() {
  for (let k = 0; k < SLICES_PER_TURN; k++) {
    const reason = stopReason();
    if (reason !== null) return finish(reason);
    while (resets.length && resets[0].T <= T) sides[resets.shift().chip].boot(T);
    T += sliceNs;
    for (const side of sides) side.chip.runUntil(side.localOf(T));
  }
  setImmediate(turn);
}

process.on('SIGTERM', () => { finish('terminated'); process.exit(0); });
for (const side of sides) side.boot(0);
turn();
