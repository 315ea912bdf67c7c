// An I2C FRAM (Fujitsu MB85RC256V, 32 KB; Adafruit product 1895) on the RP2040's I2C1, for tools/picosim.
//
// rp2040js's I2C controller (RPI2C) runs the DesignWare state machine and asks its
// user to finish each bus step: onStart / onConnect(address, mode) / onWriteByte /
// onReadByte / onStop, answered with completeStart / completeConnect(ack) /
// completeWrite(ack) / completeRead(value) / completeStop. Its defaults NACK every
// address. This model answers as the chip does:
//
//   0x50 write: 2 address bytes (big-endian, 15 bits used) then data, each data byte
//        stored as it arrives (FRAM: no erase, no page buffer, no write time), the
//        address counting up and wrapping at 32 KB;
//   0x50 read: bytes from the address last set, counting up (a repeated start after
//        the address write is how a read is addressed);
//   0x7C (the MB85RC device-ID address): one byte written (the memory's address
//        shifted left), then a read gives 00 A5 10 (manufacturer 0x00A Fujitsu,
//        density 5 = 256 Kbit, product 0x10);
//   any other address: NACK.
//
// Options (job.fram): in (a 32 KB image file; zeros if absent), cutAfter, cutInAddress,
// images (see below), pins (held high: [26, 27]), bus (1). The memory is written to
// JOB.outDir/fram.bin when the run ends (or at the power cut).
//
// Power cuts: cutAfter = N lets N data bytes of memory writes be stored and cuts the
// power at the next bus step after them (data byte N+1, which is not stored, or the
// write's stop): N = 0 cuts as the first data byte arrives, N = the write's length
// cuts at its stop (everything stored, nothing after it ran). The address bytes never
// count for cutAfter. cutInAddress = {transfer: w, byte: k} cuts memory write
// transfer w (counted from 0 over every write to 0x50, the address-only ones that
// start a read included; each is printed as {"type":"fram","op":"write"|"address",
// "n":w,...}) as its byte k ends: 0 the chip address, 1 and 2 the memory address.
//
// Served images (job.fram.images, a list of files): each read of the memory that
// starts at address 0 first loads the next image of the list (after the last, the
// memory stays as it is), and {"type":"fram","image":k} is printed: one boot can
// load many cut images, one per load of the record.
//
// Implementation Notes
// --------------------
// Completing a step inside its callback (synchronously) runs the next one before the
// CPU has seen the last, which is not what the wire does; every step is finished from
// an alarm on the emulator's clock after its bus time instead: a start or a stop one
// SCL period, a byte (8 bits + ACK) nine. The SCL period is the one the firmware set
// (IC_FS_SCL_HCNT + IC_FS_SCL_LCNT clk_sys cycles, rp2040js's clk_sys being 125 MHz:
// pico-sdk's i2c_set_baudrate), so 400 kHz gives 22.5 us a byte.
// rp2040js sets TX_EMPTY when a command leaves the TX FIFO but not after a NACK flushed
// it, where the DesignWare block does (the FIFO is empty): pico-sdk's write loop waits
// for TX_EMPTY before it reads the abort reason, so without it a NACK'd address ended
// at the 1 s bus timeout (OSError ETIMEDOUT, 116, where the chip gives ENODEV, 19).
// This model sets it after a NACK.
// Interrupts: pico.mjs reports every change of PRIMASK (irqOff); each transfer
// printed carries irqOffNs, the longest stretch with interrupts off while it was on
// the bus, and irqOffCount, how many such stretches (CircuitPython's I2C runs with
// them on: only its brief critical sections can show); stats.irqOffBytes counts the
// bytes that ended with PRIMASK set, stats.irqOffStretches all stretches of the run.
// CircuitPython's busio.I2C constructor checks for pull-ups (pins pulled down for
// 10 us, released, read 3 us later): rp2040js has no pull model, so with the FRAM
// fitted the host holds GP26/GP27's inputs high (the breakout's 10k pull-ups) and
// without it they read low and busio.I2C raises RuntimeError.

import fs from 'node:fs';

const SIZE = 32768;
const MEMORY = 0x50, ID = 0x7c;
const DEVICE_ID = [0x00, 0xa5, 0x10];
const R_TX_EMPTY = 1 << 4;
const CLK_NS = 8; // rp2040js: clk_sys fixed at 125 MHz

export function installFram(mcu, opts, out, onCut) {
  const i2c = mcu.i2c[opts.bus ?? 1];
  const mem = new Uint8Array(SIZE);
  if (opts.in && fs.existsSync(opts.in)) mem.set(fs.readFileSync(opts.in).subarray(0, SIZE));
  const images = opts.images || [];
  let served = -1;
  const cutAfter = opts.cutAfter ?? -1;
  const cutInAddress = opts.cutInAddress ?? null;
  for (const pin of opts.pins || [26, 27]) mcu.gpio[pin].setInputValue(true); // pull-ups

  const stats = { stored: 0, read: 0, writes: 0, reads: 0, nacks: 0, irqOffBytes: 0,
    bytes: 0, irqOffStretches: 0 }; // irqOffStretches: all of the run, bus or not
  let device = -1; // address being talked to (-1: none)
  let reading = false;
  let index = 0; // bytes written in this write transfer after the chip address
  let pointer = 0;
  let txn = null; // the memory transaction on the bus: {op, addr, len, start}
  let cut = false;
  let transfers = 0; // memory write transfers so far
  let busStart = 0; // when the transaction's first start went on the wire

  // ------------------------------------------------------------- bus time
  const bitNs = () => {
    const cycles = (i2c.sclHighPeriod || 0) + (i2c.sclLowPeriod || 0);
    return Math.max(cycles, 125) * CLK_NS; // at most 1 MHz (Fast-mode Plus)
  };
  let pending = null;
  const alarm = mcu.clock.createAlarm(() => {
    const fn = pending;
    pending = null;
    if (!cut && fn) fn();
  });
  function later(bits, fn) {
    pending = fn;
    alarm.schedule(bits * bitNs());
  }

  function powerCut(why) {
    cut = true;
    out({ type: 'fram', op: 'cut', t: mcu.clock.nanos, stored: stats.stored, why });
    onCut(why);
  }

  let offAt = -1; // interrupts off since (ns), -1: on
  function offStretch(now) { // the part of the current interrupts-off stretch in txn
    if (offAt < 0 || !txn) return;
    txn.irqOffNs = Math.max(txn.irqOffNs, now - Math.max(offAt, txn.start));
  }
  function irqOff(off) {
    const now = mcu.clock.nanos;
    if (off && offAt < 0) {
      offAt = now;
      stats.irqOffStretches += 1;
      if (txn) txn.irqOffCount += 1;
    }
    else if (!off && offAt >= 0) { offStretch(now); offAt = -1; }
  }

  function closeTxn() {
    if (!txn) return;
    txn.end = mcu.clock.nanos;
    offStretch(txn.end);
    if (txn.op === 'write' && txn.len === 0) txn.op = 'address';
    else if (txn.op === 'write') stats.writes += 1;
    out({ type: 'fram', ...txn });
    txn = null;
  }

  // The power goes at this step if the cut's count of data bytes is reached: at a
  // data byte, or at the stop / repeated start ending a write that stored data.
  function cutHere(dataByte) {
    if (device === MEMORY && !reading && index >= 2 && cutAfter >= 0
      && stats.stored >= cutAfter && (dataByte || txn.len > 0)) {
      powerCut(`after ${stats.stored} FRAM data bytes`);
      return true;
    }
    return false;
  }

  function cutAddr(k) { // at byte k of the write transfer being numbered `transfers`
    const n = k === 0 ? transfers : transfers - 1;
    if (cutInAddress && cutInAddress.transfer === n && cutInAddress.byte === k) {
      powerCut(`at byte ${k} of memory write transfer ${n}`);
      return true;
    }
    return false;
  }

  function byteDone() {
    stats.bytes += 1;
    if (mcu.core.PM) stats.irqOffBytes += 1;
  }

  // ------------------------------------------------------------- steps
  i2c.onStart = (restart) => {
    if (!restart) busStart = mcu.clock.nanos;
    later(1, () => i2c.completeStart());
  };

  i2c.onConnect = (address, mode) => later(9, () => {
    byteDone();
    if (cutHere(false)) return; // a repeated start after the data
    closeTxn();
    const ack = address === MEMORY || address === ID;
    device = ack ? address : -1;
    reading = mode === 1;
    index = 0;
    if (!ack) {
      stats.nacks += 1;
      i2c.completeConnect(false);
      if (i2c.txFIFO.empty) i2c.setInterrupts(R_TX_EMPTY); // the NACK flushed the FIFO
      return;
    }
    if (device === MEMORY) {
      if (reading) {
        if (pointer === 0 && served + 1 < images.length) {
          served += 1;
          mem.set(fs.readFileSync(images[served]).subarray(0, SIZE));
          out({ type: 'fram', image: served, t: mcu.clock.nanos });
        }
        stats.reads += 1;
        txn = { op: 'read', addr: pointer, len: 0, start: busStart, irqOffNs: 0,
          irqOffCount: offAt >= 0 ? 1 : 0 };
      } else {
        if (cutAddr(0)) return;
        txn = { op: 'write', n: transfers, addr: -1, len: 0, start: busStart, irqOffNs: 0,
          irqOffCount: offAt >= 0 ? 1 : 0 };
        transfers += 1;
      }
    }
    i2c.completeConnect(true);
  });

  i2c.onWriteByte = (value) => later(9, () => {
    byteDone();
    if (device === ID) { index += 1; i2c.completeWrite(true); return; }
    if (device !== MEMORY) { i2c.completeWrite(false); return; }
    if (index >= 2 && cutHere(true)) return;
    if (index < 2) {
      if (cutAddr(index + 1)) return;
      pointer = index === 0 ? (value << 8) & 0x7f00 : (pointer & 0x7f00) | value;
      index += 1;
      if (index === 2) txn.addr = pointer;
    } else {
      mem[pointer] = value;
      pointer = (pointer + 1) % SIZE;
      stats.stored += 1;
      txn.len += 1;
    }
    i2c.completeWrite(true);
  });

  i2c.onReadByte = () => later(9, () => {
    byteDone();
    let value = 0xff;
    if (device === ID) {
      value = DEVICE_ID[index] ?? 0xff;
      index += 1;
    } else if (device === MEMORY) {
      value = mem[pointer];
      pointer = (pointer + 1) % SIZE;
      stats.read += 1;
      txn.len += 1;
    }
    i2c.completeRead(value);
  });

  i2c.onStop = () => later(1, () => {
    if (cutHere(false)) return;
    closeTxn();
    device = -1;
    i2c.completeStop();
  });

  return {
    stats,
    irqOff,
    memory: mem,
    write(file) { fs.writeFileSync(file, mem); },
  };
}
