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
// What a harness must get right for this UF2 (found running it; tools/cpstack fetches it):
// the bootrom at 0 and PC = 0x10000000; the QSPI chip-select pad reads high (or
// CircuitPython sees BOOTSEL held and waits forever); rp2040js has no pull-ups, so
// released button pins are held high from here; each SPI byte is finished from a
// clock alarm 8 bit-times after it leaves the FIFO (finishing it inside onTransmit
// hangs CircuitPython's DMA writes); the CIRCUITPY FAT image sits at flash offset
// 0x100000; rp2040js's USBCDC helper binds one CDC port only, so TwoPortHost below
// enumerates the device itself and raises DTR on both ports.
//
// The ILI9341 decoder reads bytes sent while its chip select is low and keeps the panel's memory as the firmware addresses it
// (CASET/RASET window, RAMWR pixels, MADCTL's row/column exchange picks 320x240 or
// 240x320). A "burst" is a run of SPI bytes with no gap longer than job.gapUs: one
// displayio refresh (its areas follow each other within microseconds to a couple of
// ms; two refreshes are a main-loop pass apart at least).

import fs from 'node:fs';
import path from 'node:path';
import { RP2040 } from 'rp2040js';
import {
  createSetupPacket, getDescriptorPacket, setDeviceAddressPacket,
  setDeviceConfigurationPacket,
} from 'rp2040js';
import { ConsoleLogger, LogLevel } from 'rp2040js';
import { installFlash } from './flash.mjs';
import { installFram } from './fram.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

const FLASH_BASE = 0x10000000;
const CYCLE_NS = 8; // rp2040js counts time on a fixed 125 MHz clock

// ---------------------------------------------------------------- the chip
const mcu = new RP2040();
mcu.logger = new ConsoleLogger(LogLevel.Error);
mcu.loadBootrom(new Uint32Array(fs.readFileSync(job.bootrom).buffer.slice(0)));

function loadUF2(file) {
  const data = fs.readFileSync(file);
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const magic0 = data.readUInt32LE(off), magic1 = data.readUInt32LE(off + 4);
    if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157) continue;
    const target = data.readUInt32LE(off + 12), size = data.readUInt32LE(off + 16);
    mcu.flash.set(data.subarray(off + 32, off + 32 + size), target - FLASH_BASE);
  }
}
loadUF2(job.uf2);
mcu.flash.set(fs.readFileSync(job.fat), job.fatOffset);
mcu.core.PC = FLASH_BASE;

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

// BOOTSEL: the QSPI chip-select pad must read high (input enabled, value 1).
mcu.qspi[1].padValue |= 0x40;
mcu.qspi[1].setInputValue(true);
// No pull-up model: every button pin idles high (released).
for (const pin of job.holdHigh) mcu.gpio[pin].setInputValue(true);

// ---------------------------------------------------------------- USB host
const CDC_COMM_CLASS = 2, CDC_DATA_CLASS = 10;

class TwoPortHost {
  constructor(usb, ports) {
    this.usb = usb;
    this.ports = ports; // [onData(console bytes), onData(data bytes)]
    this.state = 'idle';
    this.total = 0;
    this.desc = [];
    this.inEndpoints = new Map(); // IN endpoint number -> port index
    this.dtrQueue = [];
    usb.onUSBEnabled = () => usb.resetDevice();
    usb.onResetReceived = () => {
      this.state = 'address';
      usb.sendSetupPacket(setDeviceAddressPacket(1));
    };
    // OUT requests are never answered: the host has nothing to send (a NAK forever).
    usb.onEndpointRead = () => {};
    usb.onEndpointWrite = (ep, buf) => this.written(ep, buf);
  }

  written(ep, buf) {
    if (ep !== 0) {
      const port = this.inEndpoints.get(ep);
      if (port !== undefined && buf.length) this.ports[port](buf);
      return;
    }
    const usb = this.usb;
    switch (this.state) {
      case 'address':
        if (buf.length === 0) {
          this.state = 'config9';
          usb.sendSetupPacket(getDescriptorPacket(2, 9));
        }
        break;
      case 'config9':
        if (buf.length >= 4) {
          this.total = buf[2] | (buf[3] << 8);
          this.desc = [];
          this.state = 'config';
          usb.sendSetupPacket(getDescriptorPacket(2, this.total));
        }
        break;
      case 'config':
        this.desc.push(...buf);
        if (this.desc.length >= this.total) {
          this.parse();
          this.state = 'configure';
          usb.sendSetupPacket(setDeviceConfigurationPacket(1));
        }
        break;
      case 'configure':
      case 'dtr':
        if (buf.length === 0) this.nextDtr();
        break;
      default:
        break;
    }
  }

  parse() {
    // Pair each CDC data interface's bulk IN endpoint with a port, in order.
    const d = this.desc;
    let cls = -1, port = 0;
    for (let i = 0; i + 1 < d.length && d[i] >= 2; i += d[i]) {
      const len = d[i], type = d[i + 1];
      if (type === 4 && len >= 9) {
        cls = d[i + 5];
        if (cls === CDC_COMM_CLASS) this.dtrQueue.push(d[i + 2]);
      } else if (type === 5 && len >= 7 && cls === CDC_DATA_CLASS) {
        const addr = d[i + 2], bulk = (d[i + 3] & 3) === 2;
        if (bulk && (addr & 0x80) && port < this.ports.length) {
          this.inEndpoints.set(addr & 0xf, port);
          port += 1;
        }
      }
    }
    out({ type: 'usb', t: mcu.clock.nanos, ports: [...this.inEndpoints.entries()] });
  }

  nextDtr() {
    const iface = this.dtrQueue.shift();
    if (iface === undefined) {
      this.state = 'ready';
      out({ type: 'usb', t: mcu.clock.nanos, ready: true });
      return;
    }
    this.state = 'dtr';
    this.usb.sendSetupPacket(createSetupPacket({
      dataDirection: 0, type: 1, recipient: 1, bRequest: 0x22, // SET_CONTROL_LINE_STATE
      wValue: 3, wIndex: iface, wLength: 0, // DTR | RTS
    }));
  }
}

const dataFile = fs.openSync(path.join(job.outDir, 'data.bin'), 'w');
let consoleTail = '';
let stopTail = '';
let t0 = null;
const decoder = new TextDecoder();

let stopReason = null;
function onConsole(buf) {
  const text = decoder.decode(buf, { stream: true });
  out({ type: 'console', t: mcu.clock.nanos, text });
  if (job.stopOn && stopReason === null) {
    stopTail = (stopTail + text).slice(-(job.stopOn.length + 256));
    if (stopTail.includes(job.stopOn)) stopReason = 'console: ' + job.stopOn;
  }
  if (t0 === null) {
    consoleTail = (consoleTail + text).slice(-64);
    if (consoleTail.includes('code.py')) startScript();
  }
}
new TwoPortHost(mcu.usbCtrl, [onConsole, (buf) => fs.writeSync(dataFile, buf)]);

// ---------------------------------------------------------------- script
function startScript() {
  t0 = mcu.clock.nanos;
  out({ type: 't0', t: t0 });
  const events = job.events.slice().sort((a, b) => a.ms - b.ms);
  let next = 0;
  const alarm = mcu.clock.createAlarm(fire);
  function arm() {
    if (next < events.length) {
      alarm.schedule(Math.max(0, t0 + events[next].ms * 1e6 - mcu.clock.nanos));
    }
  }
  function fire() {
    const now = mcu.clock.nanos;
    while (next < events.length && t0 + events[next].ms * 1e6 <= now) {
      const e = events[next++];
      mcu.gpio[e.pin].setInputValue(e.high);
      out({ type: 'edge', t: now, pin: e.pin, high: e.high });
    }
    arm();
  }
  arm();
}

// ---------------------------------------------------------------- display
const FB_SIZE = 320;
const fb = new Uint16Array(FB_SIZE * FB_SIZE);
const spi = mcu.spi[job.spi ?? 0];
const dcPin = mcu.gpio[job.dcPin];
const csPin = mcu.gpio[job.csPin];
let cmd = -1, args = [], hi = -1;
let xs = 0, xe = 0, ys = 0, ye = 0, cx = 0, cy = 0, madctl = 0;
let burst = null, lastByte = -1;
const gapNs = job.gapUs * 1000;
const framesFile = job.captureFrames ? fs.openSync(path.join(job.outDir, 'frames.bin'), 'w') : null;
let framesWritten = 0;

function size() { return madctl & 0x20 ? [320, 240] : [240, 320]; }

function snapshot() {
  const [w, h] = size();
  const img = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) img.set(fb.subarray(y * FB_SIZE, y * FB_SIZE + w), y * w);
  return Buffer.from(img.buffer);
}

function closeBurst() {
  if (!burst) return;
  const b = burst;
  burst = null;
  if (framesFile !== null && b.changed) {
    fs.writeSync(framesFile, snapshot());
    b.frame = framesWritten++;
  }
  out(b);
}

function pixel(value, t) {
  if (cx < FB_SIZE && cy < FB_SIZE) {
    const i = cy * FB_SIZE + cx;
    if (fb[i] !== value) {
      fb[i] = value;
      const b = burst;
      b.changed += 1;
      if (cx < b.bbox[0]) b.bbox[0] = cx;
      if (cy < b.bbox[1]) b.bbox[1] = cy;
      if (cx > b.bbox[2]) b.bbox[2] = cx;
      if (cy > b.bbox[3]) b.bbox[3] = cy;
    }
  }
  burst.pixels += 1;
  if (burst.firstPixel < 0) burst.firstPixel = t;
  cx += 1;
  if (cx > xe) { cx = xs; cy += 1; }
}

function spiByte(v, dc, t) {
  if (burst && t - lastByte > gapNs) closeBurst();
  if (!burst) {
    burst = { type: 'burst', start: t, end: t, firstPixel: -1, bytes: 0, pixels: 0,
      changed: 0, bbox: [FB_SIZE, FB_SIZE, -1, -1], frame: null };
  }
  burst.bytes += 1;
  burst.end = t;
  lastByte = t;
  if (!dc) {
    cmd = v; args = []; hi = -1;
    if (cmd === 0x2c) { cx = xs; cy = ys; }
    return;
  }
  if (cmd === 0x2c) {
    if (hi < 0) hi = v; else { pixel((hi << 8) | v, t); hi = -1; }
  } else if (cmd === 0x2a || cmd === 0x2b) {
    args.push(v);
    if (args.length === 4) {
      const a = (args[0] << 8) | args[1], e = (args[2] << 8) | args[3];
      if (cmd === 0x2a) { xs = a; xe = e; } else { ys = a; ye = e; }
    }
  } else if (cmd === 0x36) {
    madctl = v;
  }
}

// Finish each byte 8 bit-times after it left the FIFO, on the emulator's clock.
const spiDone = mcu.clock.createAlarm(() => spi.completeTransmit(0));
spi.onTransmit = (value) => {
  const t = mcu.clock.nanos;
  // The byte is on the wire from now; it is complete 8 bit-times later.
  const freq = spi.clockFrequency || 20833333;
  if (!csPin.outputValue) spiByte(value & 0xff, dcPin.outputValue, t + 8e9 / freq);
  spiDone.schedule(8e9 / freq);
};

// ---------------------------------------------------------------- run
const wallStart = Date.now();
const untilNs = (ms) => (t0 === null ? Infinity : t0 + ms * 1e6);
const bootLimitNs = job.bootTimeoutMs * 1e6;

function finish(reason) {
  closeBurst();
  fs.closeSync(dataFile);
  if (framesFile !== null) fs.closeSync(framesFile);
  fs.writeFileSync(path.join(job.outDir, 'final.raw'), snapshot());
  if (job.flash) {
    const off = job.flash.nvmOffset;
    fs.writeFileSync(path.join(job.outDir, 'nvm.bin'), mcu.flash.subarray(off, off + 4096));
  }
  if (fram) fram.write(path.join(job.outDir, 'fram.bin'));
  const [w, h] = size();
  out({ type: 'done', reason, t: mcu.clock.nanos, t0, wallMs: Date.now() - wallStart,
    width: w, height: h, madctl, frames: framesWritten, flash: flashStats, fram: fram ? fram.stats : null });
}

function slice() {
  const { core, clock } = mcu;
  const stop = untilNs(job.untilMs);
  for (let i = 0; i < 200000; i++) {
    if (cutReason !== null) return finish(cutReason);
    if (stopReason !== null) return finish(stopReason);
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
  if (t0 === null && clock.nanos >= bootLimitNs) return finish('no code.py output');
  setImmediate(slice);
}

process.on('SIGTERM', () => { finish('terminated'); process.exit(0); });
slice();
