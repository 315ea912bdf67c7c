// One emulated Pico for tools/picosim: CircuitPython's real UF2 on rp2040js, with what
// a board around it provides. Shared by pico.mjs (one chip) and link.mjs (two chips).
//
//   const chip = new Chip(job, { dir, out, onT0 });
//   chip.boot();            // a fresh RP2040 (again after a reset: see reboot())
//   chip.mcu                // the rp2040js RP2040 being run
//   chip.finish()           // close the files, write final.raw; returns the 'done' fields
//
// job: uf2, bootrom, fat, fatOffset (the CIRCUITPY image), holdHigh (pins held high:
// released buttons), dcPin, csPin, spi (the display), gapUs, captureFrames, stopOn.
// Messages (out): console, t0, usb, burst, edge, as documented in pico.mjs; times are
// this chip's own emulated ns since its last reset (mcu.clock.nanos).
// Files in dir: data.bin (usb_cdc.data), frames.bin (job.captureFrames), final.raw.
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
// The ILI9341 decoder reads bytes sent while its chip select is low and keeps the
// panel's memory as the firmware addresses it (CASET/RASET window, RAMWR pixels,
// MADCTL's row/column exchange picks 320x240 or 240x320). A "burst" is a run of SPI
// bytes with no gap longer than job.gapUs: one displayio refresh (its areas follow
// each other within microseconds to a couple of ms; two refreshes are a main-loop
// pass apart at least). The panel's memory outlives a reset of the chip, as a real
// panel's does.

import fs from 'node:fs';
import path from 'node:path';
import { RP2040 } from 'rp2040js';
import {
  createSetupPacket, getDescriptorPacket, setDeviceAddressPacket,
  setDeviceConfigurationPacket,
} from 'rp2040js';
import { ConsoleLogger, LogLevel } from 'rp2040js';

export const FLASH_BASE = 0x10000000;
export const CYCLE_NS = 8; // rp2040js counts time on a fixed 125 MHz clock

const CDC_COMM_CLASS = 2, CDC_DATA_CLASS = 10;

// ---------------------------------------------------------------- USB host
class TwoPortHost {
  constructor(mcu, ports, out) {
    const usb = mcu.usbCtrl;
    this.mcu = mcu;
    this.out = out;
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
    this.out({ type: 'usb', t: this.mcu.clock.nanos, ports: [...this.inEndpoints.entries()] });
  }

  nextDtr() {
    const iface = this.dtrQueue.shift();
    if (iface === undefined) {
      this.state = 'ready';
      this.out({ type: 'usb', t: this.mcu.clock.nanos, ready: true });
      return;
    }
    this.state = 'dtr';
    this.usb.sendSetupPacket(createSetupPacket({
      dataDirection: 0, type: 1, recipient: 1, bRequest: 0x22, // SET_CONTROL_LINE_STATE
      wValue: 3, wIndex: iface, wLength: 0, // DTR | RTS
    }));
  }
}

// ---------------------------------------------------------------- display
const FB_SIZE = 320;

class Panel {
  constructor(job, dir, out) {
    this.out = out;
    this.fb = new Uint16Array(FB_SIZE * FB_SIZE);
    this.gapNs = job.gapUs * 1000;
    this.framesFile = job.captureFrames ? fs.openSync(path.join(dir, 'frames.bin'), 'w') : null;
    this.framesWritten = 0;
    this.xs = 0; this.xe = 0; this.ys = 0; this.ye = 0; this.cx = 0; this.cy = 0;
    this.madctl = 0;
    this.burst = null;
    this.lastByte = -1;
    this.resetCommand();
  }

  resetCommand() {
    this.cmd = -1; this.args = []; this.hi = -1;
  }

  size() { return this.madctl & 0x20 ? [320, 240] : [240, 320]; }

  snapshot() {
    const [w, h] = this.size();
    const img = new Uint16Array(w * h);
    for (let y = 0; y < h; y++) img.set(this.fb.subarray(y * FB_SIZE, y * FB_SIZE + w), y * w);
    return Buffer.from(img.buffer);
  }

  closeBurst() {
    if (!this.burst) return;
    const b = this.burst;
    this.burst = null;
    if (this.framesFile !== null && b.changed) {
      fs.writeSync(this.framesFile, this.snapshot());
      b.frame = this.framesWritten++;
    }
    this.out(b);
  }

  pixel(value, t) {
    const { cx, cy, burst } = this;
    if (cx < FB_SIZE && cy < FB_SIZE) {
      const i = cy * FB_SIZE + cx;
      if (this.fb[i] !== value) {
        this.fb[i] = value;
        burst.changed += 1;
        if (cx < burst.bbox[0]) burst.bbox[0] = cx;
        if (cy < burst.bbox[1]) burst.bbox[1] = cy;
        if (cx > burst.bbox[2]) burst.bbox[2] = cx;
        if (cy > burst.bbox[3]) burst.bbox[3] = cy;
      }
    }
    burst.pixels += 1;
    if (burst.firstPixel < 0) burst.firstPixel = t;
    this.cx += 1;
    if (this.cx > this.xe) { this.cx = this.xs; this.cy += 1; }
  }

  byte(v, dc, t) {
    if (this.burst && t - this.lastByte > this.gapNs) this.closeBurst();
    if (!this.burst) {
      this.burst = { type: 'burst', start: t, end: t, firstPixel: -1, bytes: 0, pixels: 0,
        changed: 0, bbox: [FB_SIZE, FB_SIZE, -1, -1], frame: null };
    }
    this.burst.bytes += 1;
    this.burst.end = t;
    this.lastByte = t;
    if (!dc) {
      this.cmd = v; this.args = []; this.hi = -1;
      if (this.cmd === 0x2c) { this.cx = this.xs; this.cy = this.ys; }
      return;
    }
    const cmd = this.cmd;
    if (cmd === 0x2c) {
      if (this.hi < 0) this.hi = v; else { this.pixel((this.hi << 8) | v, t); this.hi = -1; }
    } else if (cmd === 0x2a || cmd === 0x2b) {
      const args = this.args;
      args.push(v);
      if (args.length === 4) {
        const a = (args[0] << 8) | args[1], e = (args[2] << 8) | args[3];
        if (cmd === 0x2a) { this.xs = a; this.xe = e; } else { this.ys = a; this.ye = e; }
      }
    } else if (cmd === 0x36) {
      this.madctl = v;
    }
  }

  close() {
    this.closeBurst();
    if (this.framesFile !== null) fs.closeSync(this.framesFile);
  }
}

// ---------------------------------------------------------------- the chip
export class Chip {
  constructor(job, { dir, out, onT0 }) {
    this.job = job;
    this.out = out;
    this.onT0 = onT0 || (() => {});
    this.bootrom = new Uint32Array(fs.readFileSync(job.bootrom).buffer.slice(0));
    this.uf2 = fs.readFileSync(job.uf2);
    this.fat = fs.readFileSync(job.fat);
    this.dataFile = fs.openSync(path.join(dir, 'data.bin'), 'w');
    this.dir = dir;
    this.panel = new Panel(job, dir, out);
    this.decoder = new TextDecoder();
    this.stopReason = null;
    this.stopTail = '';
    this.boots = 0;
    this.mcu = null;
    this.alarm = null;
    this.pending = []; // scripted edges not yet made: {at (ns on this chip's clock), pin, high}
  }

  loadUF2(mcu) {
    const data = this.uf2;
    for (let off = 0; off + 512 <= data.length; off += 512) {
      const magic0 = data.readUInt32LE(off), magic1 = data.readUInt32LE(off + 4);
      if (magic0 !== 0x0a324655 || magic1 !== 0x9e5d5157) continue;
      const target = data.readUInt32LE(off + 12), size = data.readUInt32LE(off + 16);
      mcu.flash.set(data.subarray(off + 32, off + 32 + size), target - FLASH_BASE);
    }
  }

  /** Power on (or reset): a fresh RP2040 whose clock starts at 0. */
  boot() {
    const job = this.job;
    const mcu = new RP2040();
    mcu.logger = new ConsoleLogger(LogLevel.Error);
    mcu.loadBootrom(this.bootrom);
    this.loadUF2(mcu);
    mcu.flash.set(this.fat, job.fatOffset);
    mcu.core.PC = FLASH_BASE;
    // BOOTSEL: the QSPI chip-select pad must read high (input enabled, value 1).
    mcu.qspi[1].padValue |= 0x40;
    mcu.qspi[1].setInputValue(true);
    // No pull-up model: every button pin idles high (released).
    for (const pin of job.holdHigh) mcu.gpio[pin].setInputValue(true);
    this.mcu = mcu;
    this.t0 = null;
    this.consoleTail = '';
    this.boots += 1;
    this.panel.resetCommand();
    new TwoPortHost(mcu, [(buf) => this.onConsole(buf),
      (buf) => fs.writeSync(this.dataFile, buf)], this.out);
    this.hookSpi();
    this.alarm = mcu.clock.createAlarm(() => this.fire());
    this.arm();
    return mcu;
  }

  onConsole(buf) {
    const text = this.decoder.decode(buf, { stream: true });
    this.out({ type: 'console', t: this.mcu.clock.nanos, text });
    const stopOn = this.job.stopOn;
    if (stopOn && this.stopReason === null) {
      this.stopTail = (this.stopTail + text).slice(-(stopOn.length + 256));
      if (this.stopTail.includes(stopOn)) this.stopReason = 'console: ' + stopOn;
    }
    if (this.t0 === null) {
      this.consoleTail = (this.consoleTail + text).slice(-64);
      if (this.consoleTail.includes('code.py')) {
        this.t0 = this.mcu.clock.nanos;
        this.out({ type: 't0', t: this.t0 });
        this.onT0(this.t0);
      }
    }
  }

  // ------------------------------------------------------------ scripted GPIO edges
  /** Make these edges at their times ({at: ns on this chip's clock, pin, high}). */
  addEdges(edges) {
    this.pending = this.pending.concat(edges).sort((a, b) => a.at - b.at);
    this.arm();
  }

  arm() {
    if (this.alarm && this.pending.length) {
      this.alarm.schedule(Math.max(0, this.pending[0].at - this.mcu.clock.nanos));
    }
  }

  fire() {
    const now = this.mcu.clock.nanos;
    while (this.pending.length && this.pending[0].at <= now) {
      const e = this.pending.shift();
      this.mcu.gpio[e.pin].setInputValue(e.high);
      this.out({ type: 'edge', t: now, pin: e.pin, high: e.high, ...(e.tag ? { tag: e.tag } : {}) });
    }
    this.arm();
  }

  // ------------------------------------------------------------ display
  hookSpi() {
    const mcu = this.mcu, job = this.job, panel = this.panel;
    const spi = mcu.spi[job.spi ?? 0];
    const dcPin = mcu.gpio[job.dcPin];
    const csPin = mcu.gpio[job.csPin];
    // Finish each byte 8 bit-times after it left the FIFO, on the emulator's clock.
    const spiDone = mcu.clock.createAlarm(() => spi.completeTransmit(0));
    spi.onTransmit = (value) => {
      const t = mcu.clock.nanos;
      // The byte is on the wire from now; it is complete 8 bit-times later.
      const freq = spi.clockFrequency || 20833333;
      if (!csPin.outputValue) panel.byte(value & 0xff, dcPin.outputValue, t + 8e9 / freq);
      spiDone.schedule(8e9 / freq);
    };
  }

  /** Run until this chip's clock reaches untilNs. */
  runUntil(untilNs) {
    const { core, clock } = this.mcu;
    while (clock.nanos < untilNs) {
      if (core.waiting) {
        let n = clock.nanosToNextAlarm;
        if (n <= 0 || clock.nanos + n > untilNs) n = untilNs - clock.nanos;
        clock.tick(n);
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
    }
  }

  /** Close the files; write the panel's last picture. Returns {width, height, madctl, frames}. */
  finish() {
    this.panel.close();
    fs.closeSync(this.dataFile);
    fs.writeFileSync(path.join(this.dir, 'final.raw'), this.panel.snapshot());
    const [width, height] = this.panel.size();
    return { width, height, madctl: this.panel.madctl, frames: this.panel.framesWritten };
  }
}
