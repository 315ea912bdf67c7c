// A small model of the serial flash behind the RP2040's QSPI, for tools/picosim.
//
// STATUS: EXPERIMENTAL, opt-in (run(..., flash={...})), not yet effective. With it on,
// a `microcontroller.nvm[0:4] = b"abcd"` on CircuitPython 10.2.1 returns after 213 us
// of emulated time and reads back 0xFF: the model sees the SDK's forced-CS commands
// (0x4B unique ID, 0x9F JEDEC ID, 0xFF/0x00 XIP exit) and boot2's SSI-driven set-up
// (0x35, 0x06, 0x01, 0x05, 0xEB) once per flash operation, but no 0x06/0x20/0x02
// between them: the erase/program bytes are not reaching SSI DR0 in a form this
// model recognises (next step: trace the bootrom's flash_range_erase entry and its
// SSI/IO_QSPI accesses). `done.flash` carries the counters used to find this.
//
// rp2040js keeps the flash as a byte array read through XIP and ignores what is sent
// to it: its SSI answers only READ_STATUS (0x05) with "not busy" and drops program
// and erase. CircuitPython writes flash (microcontroller.nvm, CIRCUITPY) through the
// pico-sdk's flash_range_erase / flash_range_program, which call the bootrom: with
// the chip select forced low through IO_QSPI's SS pad override (GPIO_QSPI_SS_CTRL,
// OUTOVER 2 = low, 3 = high), they push command bytes through SSI DR0 and pop one RX
// byte per TX byte. This model watches those two registers and, per command (CS low
// to CS high):
//   0x06 WRITE ENABLE; 0x04 WRITE DISABLE
//   0x20 SECTOR ERASE (4 KB), 0x52 (32 KB), 0xD8 (64 KB) ADDR24: bytes -> 0xFF
//   0x02 PAGE PROGRAM ADDR24 DATA...: bits cleared (flash & data), wrapping in the page
//   0x05 READ STATUS: WIP (bit 0) set while an erase or program is "busy"
//   0x03 READ DATA ADDR24: the bytes (the bootrom does not need it; for completeness)
// Busy times are the Pico's W25Q16JV typical datasheet figures (sector erase 45 ms,
// page program 0.4 ms; 32/64 KB block erase 120/150 ms), on the emulator's clock.
// Each erase or program is one "step": job.flash.cutAfter = k stops the emulation
// (the power cut) as step k+1 is about to happen, after k steps took effect
// (steps inside the nvm sector, job.flash.nvmOffset, only).

const SS_CTRL = 0x0c; // IO_QSPI GPIO_QSPI_SS_CTRL
const DR0 = 0x60;
const BUSY_NS = { 0x20: 45e6, 0x52: 120e6, 0xd8: 150e6, 0x02: 0.4e6 };
const ERASE_SIZE = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };

export function installFlash(mcu, opts, out, onCut) {
  const ssi = mcu.findPeripheral(0x18000000);
  const ioqspi = mcu.findPeripheral(0x40018000);
  if (!ssi || !ioqspi) throw new Error('flash model: SSI or IO_QSPI not found');
  const flash = mcu.flash;
  let cs = false; // chip selected (forced low)
  let cmd = []; // bytes of the command being sent
  const rx = []; // RX bytes to return
  let busyUntil = 0;
  let wel = false;
  let steps = 0;
  let cut = false;
  const stats = { erases: 0, programs: 0, steps: 0, dr0Writes: 0, csWrites: 0, ioOffsets: {}, ssiOffsets: {}, cmds: {} };

  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  ssi.readUint32 = (offset) => {
    if (offset === DR0) return rx.length ? rx.shift() : 0;
    return ssiRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    stats.ssiOffsets[offset] = (stats.ssiOffsets[offset] || 0) + 1;
    if (offset !== DR0) return ssiWrite(offset, value);
    stats.dr0Writes += 1;
    const byte = value & 0xff;
    if (!cs) {
      if ((stats.unforced = stats.unforced || []).length < 64) stats.unforced.push(byte);
      rx.push(0);
      return;
    }
    cmd.push(byte);
    rx.push(reply(cmd.length - 1));
  };

  function reply(index) {
    const op = cmd[0];
    if (op === 0x05 && index >= 1) return mcu.clock.nanos < busyUntil ? 0x01 | (wel ? 2 : 0) : 0;
    if (op === 0x03 && index >= 4) {
      const addr = ((cmd[1] << 16) | (cmd[2] << 8) | cmd[3]) + index - 4;
      return flash[addr % flash.length];
    }
    return 0;
  }

  const ioWrite = ioqspi.writeUint32.bind(ioqspi);
  ioqspi.writeUint32 = (offset, value) => {
    stats.ioOffsets[offset] = (stats.ioOffsets[offset] || 0) + 1;
    if (offset === SS_CTRL) {
      stats.csWrites += 1;
      const over = (value >> 8) & 3;
      if (over === 2 && !cs) { cs = true; cmd = []; }
      else if (over !== 2 && cs) { cs = false; execute(); }
      return;
    }
    ioWrite(offset, value);
  };

  // Only erase/program steps inside the nvm sector count (and can be cut): CircuitPython
  // also writes CIRCUITPY (boot_out.txt) at boot.
  const nvmLo = opts.nvmOffset, nvmHi = opts.nvmOffset + 4096;
  function step(kind, addr, len) {
    const inNvm = addr < nvmHi && addr + len > nvmLo;
    if (inNvm && opts.cutAfter !== undefined && opts.cutAfter >= 0 && steps >= opts.cutAfter) {
      if (!cut) { cut = true; onCut(kind, addr); }
      return false;
    }
    if (inNvm) steps += 1;
    stats.steps = steps;
    out({ type: 'flash', op: kind, addr, len, t: mcu.clock.nanos, nvm: inNvm, step: steps,
      busyNs: kind === 'erase' ? BUSY_NS[cmd[0]] : BUSY_NS[0x02] });
    return true;
  }

  function execute() {
    if (cut || !cmd.length) return;
    const op = cmd[0];
    stats.cmds[op] = (stats.cmds[op] || 0) + 1;
    const addr = cmd.length >= 4 ? (cmd[1] << 16) | (cmd[2] << 8) | cmd[3] : 0;
    if (op === 0x06) { wel = true; return; }
    if (op === 0x04) { wel = false; return; }
    if (ERASE_SIZE[op] && cmd.length >= 4 && wel) {
      const size = ERASE_SIZE[op];
      const base = addr - (addr % size);
      if (!step('erase', base, size)) return;
      flash.fill(0xff, base, base + size);
      stats.erases += 1;
      busyUntil = mcu.clock.nanos + BUSY_NS[op];
      wel = false;
    } else if (op === 0x02 && cmd.length > 4 && wel) {
      const data = cmd.slice(4);
      if (!step('program', addr, data.length)) return;
      const page = addr - (addr % 256);
      for (let i = 0; i < data.length; i++) {
        const a = page + (((addr % 256) + i) % 256);
        flash[a] &= data[i];
      }
      stats.programs += 1;
      busyUntil = mcu.clock.nanos + BUSY_NS[0x02];
      wel = false;
    }
  }

  return stats;
}
