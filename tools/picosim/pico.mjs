// The emulated Pico: CircuitPython's real UF2 on rp2040js, driven by a JSON job.
//
// Usage: node tools/picosim/pico.mjs JOB.json   (tools/picosim/run.py writes the job
// and reads what this prints). One JSON object per line on stdout:
//   {"type":"console","t":ns,"text":...}  bytes from the first CDC port (the REPL)
//   {"type":"t0","t":ns}                  "code.py" seen on the console (its title): script time 0
//   {"type":"edge","t":ns,"pin":N,"high":bool}   a scripted GPIO edge
//   {"type":"burst",...}                  a run of SPI bytes (a refresh, see below)
//   {"type":"done",...}                   emulated and wall time, why it stopped
//   {"type":"fram",...}                   FRAM model: a transfer, a served image, a cut
// It stops after job.untilMs of script time, or once the console has shown
// job.stopOn (if set), or at a power cut of the flash model (flash.mjs) or of the
// FRAM model (fram.mjs, job.fram: the record's optional FRAM on I2C1).
// The second CDC port (usb_cdc.data, the match log) goes to JOB.outDir/data.bin.
//
// Implementation Notes
// --------------------
// The chip and what a board around it provides (bootrom, UF2, CIRCUITPY image, held-up
// button pins, the USB host serving both CDC ports, the ILI9341 decoder) are chip.mjs's,
// shared with link.mjs (two chips on a cable). This file adds the optional flash and
// FRAM models and runs the one chip.

import fs from 'node:fs';
import path from 'node:path';
import { Chip, CYCLE_NS } from './chip.mjs';
import { installFlash } from './flash.mjs';
import { installFram } from './fram.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

// ---------------------------------------------------------------- the chip
const chip = new Chip(job, {
  dir: job.outDir, out,
  onT0: (t0) => chip.addEdges(job.events.map((e) => ({ at: t0 + e.ms * 1e6, pin: e.pin, high: e.high }))),
});
const mcu = chip.boot();

// Optional serial-flash model (flash.mjs): nvm writes become real; power cuts.
// With it, every stretch with interrupts off (PRIMASK set) during which an nvm
// erase or program happened is reported: {"type":"irqoff","start","end","ops"}
// (and the FRAM model is told of every change: its transfers' irqOffNs).
let flashStats = null;
let cutReason = null;
if (job.flash) {
  if (job.flash.nvmIn) mcu.flash.set(fs.readFileSync(job.flash.nvmIn), job.flash.nvmOffset);
  flashStats = installFlash(mcu, job.flash, out, (kind, addr) => {
    cutReason = `power cut at ${kind} 0x${addr.toString(16)}`;
  });
}
// Optional I2C FRAM on I2C1 (fram.mjs); without it GP26/GP27 read low (no pull-ups).
const fram = job.fram ? installFram(mcu, job.fram, out, (why) => { cutReason = `power cut ${why}`; })
  : null;
let irqOffSince = -1, irqOffOps = 0;
const watching = flashStats !== null || fram !== null; // PRIMASK changes matter to a model
function watchPrimask() {
  const pm = mcu.core.PM;
  if (fram) fram.irqOff(!!pm);
  if (pm && irqOffSince < 0) {
    irqOffSince = mcu.clock.nanos;
    irqOffOps = flashStats ? flashStats.steps : 0;
  } else if (!pm && irqOffSince >= 0) {
    if (flashStats && flashStats.steps !== irqOffOps) {
      out({ type: 'irqoff', start: irqOffSince, end: mcu.clock.nanos, ops: flashStats.steps - irqOffOps });
    }
    irqOffSince = -1;
  }
}

// ---------------------------------------------------------------- run
const wallStart = Date.now();
const untilNs = (ms) => (chip.t0 === null ? Infinity : chip.t0 + ms * 1e6);
const bootLimitNs = job.bootTimeoutMs * 1e6;

function finish(reason) {
  const panel = chip.finish();
  if (job.flash) {
    const off = job.flash.nvmOffset;
    fs.writeFileSync(path.join(job.outDir, 'nvm.bin'), mcu.flash.subarray(off, off + 4096));
  }
  if (fram) fram.write(path.join(job.outDir, 'fram.bin'));
  out({ type: 'done', reason, t: mcu.clock.nanos, t0: chip.t0, wallMs: Date.now() - wallStart,
    width: panel.width, height: panel.height, madctl: panel.madctl, frames: panel.frames,
    flash: flashStats, fram: fram ? fram.stats : null });
}

function slice() {
  const { core, clock } = mcu;
  const stop = untilNs(job.untilMs);
  for (let i = 0; i < 200000; i++) {
    if (cutReason !== null) return finish(cutReason);
    if (chip.stopReason !== null) return finish(chip.stopReason);
    if (core.waiting) {
      const n = clock.nanosToNextAlarm;
      if (n <= 0) { clock.tick(1000); continue; }
      clock.tick(n);
    } else {
      clock.tick(core.executeInstruction() * CYCLE_NS);
      if (watching && core.PM !== (irqOffSince >= 0)) watchPrimask();
    }
  }
  if (clock.nanos >= stop) return finish('time');
  if (chip.t0 === null && clock.nanos >= bootLimitNs) return finish('no code.py output');
  setImmediate(slice);
}

process.on('SIGTERM', () => { finish('terminated'); process.exit(0); });
slice();
