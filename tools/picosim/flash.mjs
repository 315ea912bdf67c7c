// A model of the Pico's serial flash (a W25Q16JV behind the RP2040's SSI), for tools/picosim.
//
// rp2040js keeps the flash as a byte array that XIP reads and ignores what is sent to
// it: its SSI answers READ_STATUS with "not busy", reports empty FIFOs, and drops
// program and erase commands; IO_QSPI is an unimplemented block that reads 0xFFFFFFFF.
// CircuitPython 10.2.1 writes flash (microcontroller.nvm, CIRCUITPY) with the pico-sdk's
// flash_range_erase / flash_range_program, which call the bootrom's
// connect_internal_flash, flash_exit_xip, flash_range_erase/program, flash_flush_cache,
// then boot2 to re-enter XIP (raspberrypi/pico-bootrom bootrom/program_flash_generic.c).
// Those drive the flash through two registers, and this model makes both real:
//
// * IO_QSPI (0x40018000) becomes a register file. The bootrom selects the chip by
//   forcing the SS pad (GPIO_QSPI_SS_CTRL OUTOVER: 2 = low, 3 = high) with a
//   read-modify-write, and polls GPIO_QSPI_SD1_CTRL's INOVER bits as an "abort" flag
//   (flash_was_aborted). Reading 0xFFFFFFFF there made every ROM erase/program loop
//   stop before its first command: the reason nvm writes used to vanish.
// * SSI DR0 / TXFLR / RXFLR / SR get FIFOs with time: every byte written to DR0 is on
//   the wire for 8 SSI clocks (clk_sys / BAUDR; the ROM sets BAUDR 6: 384 ns a byte)
//   and then one RX byte is readable. flash_put_get paces itself on TXFLR + RXFLR.
//
// Commands, framed by the forced chip select (CS low .. CS high), as the W25Q16JV:
//   0x06 WRITE ENABLE, 0x04 WRITE DISABLE
//   0x20 SECTOR ERASE (4 KB), 0x52 (32 KB), 0xD8 (64 KB) ADDR24: bytes -> 0xFF
//   0x02 PAGE PROGRAM ADDR24 DATA...: flash &= data (wrapping inside the 256 B page)
//   0x05 READ STATUS (WIP while busy, WEL), 0x35 STATUS 2 (QE set, as on a Pico),
//   0x9F JEDEC ID (EF 40 15: 2 MB), 0x03 READ DATA
// Erase and program need WEL (WRITE ENABLE first) and clear it. Boot2's own
// transfers (SSI-driven chip select, no force) are answered the same way; a pause
// of the wire between them ends a command.
//
// Busy times: the W25Q16JV datasheet's typical (default) or maximum figures,
// opts.timing = 'typ' | 'max': sector erase 45 / 400 ms, 32 KB block 120 / 1600 ms,
// 64 KB block 150 / 2000 ms, page program 0.4 / 3 ms. The CPU spins on READ STATUS
// meanwhile (CircuitPython has interrupts off), so the emulated clock shows the stall.
//
// Power cuts: each erase or page program inside the nvm sector (opts.nvmOffset) is
// one step. opts.cutAfter = N lets N steps take effect and stops the emulation as
// step N+1 is issued (the power is gone; the flash keeps what it had). With
// opts.cutPartial, step N+1 is half done when the power goes: a cut erase leaves
// some bits still 0, a cut program leaves some of its 0 bits unwritten (seeded,
// repeatable). Steps outside the nvm sector (CIRCUITPY) are never cut.

const SS_CTRL = 0x0c; // IO_QSPI GPIO_QSPI_SS_CTRL
const SSI_SSIENR = 0x08, SSI_BAUDR = 0x14, SSI_TXFLR = 0x20, SSI_RXFLR = 0x24;
const SSI_SR = 0x28, SSI_DR0 = 0x60;
const SR_BUSY = 1, SR_TFNF = 2, SR_TFE = 4, SR_RFNE = 8;
const CLK_NS = 8; // rp2040js: clk_sys fixed at 125 MHz
const TIMES_NS = {
  typ: { 0x20: 45e6, 0x52: 120e6, 0xd8: 150e6, 0x02: 0.4e6 },
  max: { 0x20: 400e6, 0x52: 1600e6, 0xd8: 2000e6, 0x02: 3e6 },
};
const ERASE_SIZE = { 0x20: 4096, 0x52: 32768, 0xd8: 65536 };
const JEDEC = [0xef, 0x40, 0x15];
const SECTOR = 4096;

export function installFlash(mcu, opts, out, onCut) {
  const ssi = mcu.findPeripheral(0x18000000);
  const ioqspi = mcu.findPeripheral(0x40018000);
  if (!ssi || !ioqspi) throw new Error('flash model: SSI or IO_QSPI not found');
  const flash = mcu.flash;
  const busyNs = TIMES_NS[opts.timing || 'typ'];
  if (!busyNs) throw new Error(`flash model: timing ${opts.timing} is not typ or max`);
  const nvmLo = opts.nvmOffset, nvmHi = opts.nvmOffset + SECTOR;
  const cutAfter = opts.cutAfter ?? -1;
  let seed = (opts.seed ?? 1) >>> 0;

  let forced = false; // chip select forced low by IO_QSPI
  let cmd = []; // bytes of the command being sent
  const rx = []; // {v, at}: RX bytes and when each finishes on the wire
  let wireFree = 0; // ns when the last byte sent leaves the wire
  let busyUntil = 0;
  let wel = false;
  let steps = 0;
  let cut = false;
  const stats = { erases: 0, programs: 0, steps: 0, bytes: 0, cmds: {} };
  const regs = new Uint32Array(16); // IO_QSPI: 6 x (STATUS, CTRL) + interrupt registers

  // ------------------------------------------------------------- IO_QSPI
  ioqspi.readUint32 = (offset) => (offset < 0x40 ? regs[offset >> 2] : 0);
  ioqspi.writeUint32 = (offset, value) => {
    if (offset >= 0x40) return;
    regs[offset >> 2] = value >>> 0;
    if (offset === SS_CTRL) {
      const low = ((value >> 8) & 3) === 2;
      if (low && !forced) { forced = true; endCommand(); }
      else if (!low && forced) { forced = false; endCommand(); }
    }
  };

  // ------------------------------------------------------------- SSI
  const byteNs = () => 8 * Math.max(2, ssi.baudr || 0) * CLK_NS;
  const ready = () => { // RX bytes whose transfer is over
    const now = mcu.clock.nanos;
    let n = 0;
    while (n < rx.length && rx[n].at <= now) n++;
    return n;
  };
  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  ssi.readUint32 = (offset) => {
    switch (offset) {
      case SSI_DR0: return ready() ? rx.shift().v : 0;
      case SSI_RXFLR: return Math.min(ready(), 16);
      case SSI_TXFLR: return Math.min(rx.length - ready(), 16);
      case SSI_SR: {
        const r = ready(), inFlight = rx.length - r;
        return (inFlight < 16 ? SR_TFNF : 0) | (inFlight === 0 ? SR_TFE : 0)
          | (r ? SR_RFNE : 0) | (mcu.clock.nanos < wireFree ? SR_BUSY : 0);
      }
      default: return ssiRead(offset);
    }
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === SSI_DR0) return send(value & 0xff);
    if (offset === SSI_SSIENR && !(value & 1)) { rx.length = 0; endCommand(); } // FIFOs cleared
    if (offset === SSI_BAUDR) ssi.baudr = value;
    return ssiWrite(offset, value);
  };

  function send(byte) {
    const now = mcu.clock.nanos;
    if (!forced && now > wireFree) endCommand(); // SSI-driven CS: the wire went idle
    const at = Math.max(now, wireFree) + byteNs();
    wireFree = at;
    stats.bytes += 1;
    const selected = forced || ((regs[SS_CTRL >> 2] >> 8) & 3) === 0;
    if (selected) cmd.push(byte);
    rx.push({ v: selected ? reply(cmd.length - 1) : 0xff, at });
  }

  function reply(index) {
    const op = cmd[0];
    if (op === 0x05 && index >= 1) return (mcu.clock.nanos < busyUntil ? 1 : 0) | (wel ? 2 : 0);
    if (op === 0x35 && index >= 1) return 0x02; // QE set: boot2 leaves the status alone
    if (op === 0x9f && index >= 1) return JEDEC[index - 1] ?? 0;
    if (op === 0x03 && index >= 4) {
      const addr = ((cmd[1] << 16) | (cmd[2] << 8) | cmd[3]) + index - 4;
      return flash[addr % flash.length];
    }
    return 0;
  }

  // ------------------------------------------------------------- commands
  function endCommand() {
    const c = cmd;
    cmd = [];
    if (cut || !c.length) return;
    const op = c[0];
    stats.cmds[op] = (stats.cmds[op] || 0) + 1;
    if (mcu.clock.nanos < busyUntil && op !== 0x05) return; // busy: only status answers
    const addr = c.length >= 4 ? (c[1] << 16) | (c[2] << 8) | c[3] : 0;
    if (op === 0x06) wel = true;
    else if (op === 0x04) wel = false;
    else if (ERASE_SIZE[op] && c.length >= 4 && wel) {
      const size = ERASE_SIZE[op];
      const base = addr - (addr % size);
      wel = false;
      if (!step('erase', base, size, busyNs[op], (a) => { flash[a] = 0xff; },
        (a) => { flash[a] |= random(); })) return;
      stats.erases += 1;
    } else if (op === 0x02 && c.length > 4 && wel) {
      const data = c.slice(4, 4 + 256);
      const page = addr - (addr % 256);
      const at = (i) => page + (((addr % 256) + i) % 256);
      wel = false;
      if (!step('program', page, 256, busyNs[0x02],
        null, (a, i) => { flash[a] &= data[i] | random(); }, data, at)) return;
      stats.programs += 1;
    }
  }

  function random() { // xorshift32: the bits a cut left undone
    seed ^= seed << 13; seed >>>= 0;
    seed ^= seed >>> 17;
    seed ^= seed << 5; seed >>>= 0;
    return seed & 0xff;
  }

  // One erase or program: applied (returns true) or the power cut (returns false).
  function step(kind, base, len, ns, eraseByte, partialByte, data, at) {
    const inNvm = base < nvmHi && base + len > nvmLo;
    const now = mcu.clock.nanos;
    if (inNvm && cutAfter >= 0 && steps >= cutAfter) {
      if (opts.cutPartial) {
        if (data) data.forEach((_, i) => partialByte(at(i), i));
        else for (let a = base; a < base + len; a++) partialByte(a);
      }
      cut = true;
      out({ type: 'flash', op: kind, addr: base, len, t: now, nvm: true, step: steps + 1,
        busyNs: ns, cut: opts.cutPartial ? 'partial' : 'before' });
      onCut(kind, base);
      return false;
    }
    if (data) data.forEach((b, i) => { flash[at(i)] &= b; });
    else for (let a = base; a < base + len; a++) eraseByte(a);
    busyUntil = now + ns;
    if (inNvm) steps += 1;
    stats.steps = steps;
    out({ type: 'flash', op: kind, addr: base, len: data ? data.length : len, t: now,
      nvm: inNvm, step: inNvm ? steps : null, busyNs: ns });
    return true;
  }

  return stats;
}
