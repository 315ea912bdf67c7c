// Byte timing for an rp2040js UART (PL011): a TX FIFO that drains at the baud rate the
// firmware programmed, and an RX side that a cable model feeds at the end of each byte.
//
//   const port = new UartPort(mcu, 1, { onStart(value, startNs, frameNs) {...} });
//   port.deliver(value)   // a byte's stop bit has arrived: 'ok', 'overrun' or 'off'
//
// Implementation Notes
// --------------------
// rp2040js 1.4.1's RPUART (src/peripherals/uart.ts) calls onByte as soon as the
// firmware writes UARTDR and always reports the TX FIFO empty (UARTFR.TXFE set, TXFF
// and BUSY clear): nothing ever waits for the wire. CircuitPython 10.2.1's
// busio.UART.write (ports/raspberrypi/common-hal/busio/UART.c) loops on
// uart_is_writable (UARTFR.TXFF clear) and writes UARTDR byte by byte, so with a real
// FIFO a write longer than the FIFO blocks until the line has taken the rest.
// This patches the instance: UARTDR writes go into a FIFO (32 entries with
// LCR_H.FEN, else 1; a write to a full FIFO is lost, as on the chip), the shift
// register takes the next byte when the last one's stop bit is out, and UARTFR
// reports TXFE, TXFF and BUSY from that state. A byte lasts 1 start bit + the word
// length + the parity bit if enabled + 1 or 2 stop bits (LCR_H), each bit 16 x
// (IBRD + FBRD / 64) cycles of clk_peri, on this chip's own clock.
// The RX side is rp2040js's own 32-entry FIFO (feedByte); a byte arriving when it is
// full is lost (the chip's overrun), and one arriving while the UART or its receiver
// is disabled is lost too.

const UARTDR = 0x0, UARTFR = 0x18;
const FR_BUSY = 1 << 3, FR_RXFE = 1 << 4, FR_TXFF = 1 << 5, FR_RXFF = 1 << 6, FR_TXFE = 1 << 7;
const CR_UARTEN = 1, CR_TXE = 1 << 8, CR_RXE = 1 << 9;
const LCR_PEN = 1 << 1, LCR_STP2 = 1 << 3, LCR_FEN = 1 << 4;
const FIFO_DEPTH = 32;

export class UartPort {
  constructor(mcu, index, { onStart, onLost }) {
    this.mcu = mcu;
    this.uart = mcu.uart[index];
    this.onStart = onStart;
    this.onLost = onLost || (() => {});
    this.txq = [];
    this.busy = false;
    this.done = mcu.clock.createAlarm(() => this.stopBitOut());
    const uart = this.uart;
    const read = uart.readUint32.bind(uart);
    const write = uart.writeUint32.bind(uart);
    uart.readUint32 = (offset) => (offset === UARTFR ? this.flags() : read(offset));
    uart.writeUint32 = (offset, value) => {
      if (offset === UARTDR) this.write(value & 0xff);
      else write(offset, value);
    };
  }

  get cr() { return this.uart.ctrlRegister; }
  get lcr() { return this.uart.lineCtrlRegister; }
  get depth() { return this.lcr & LCR_FEN ? FIFO_DEPTH : 1; }
  get txOn() { return (this.cr & (CR_UARTEN | CR_TXE)) === (CR_UARTEN | CR_TXE); }
  get rxOn() { return (this.cr & (CR_UARTEN | CR_RXE)) === (CR_UARTEN | CR_RXE); }

  /** ns of one bit on this chip's clock (0: no baud rate set yet). */
  get bitNs() {
    const div = this.uart.baudDivider; // IBRD + FBRD / 64
    return div ? (16 * div * 1e9) / this.mcu.clkPeri : 0;
  }

  /** Bits in one character: start, data, parity, stop. */
  get frameBits() {
    const lcr = this.lcr;
    return 1 + this.uart.wordLength + (lcr & LCR_PEN ? 1 : 0) + (lcr & LCR_STP2 ? 2 : 1);
  }

  flags() {
    const rx = this.uart.rxFIFO;
    const n = this.txq.length;
    return (rx.full ? FR_RXFF : 0) | (rx.empty ? FR_RXFE : 0) | (n === 0 ? FR_TXFE : 0)
      | (n >= this.depth ? FR_TXFF : 0) | (this.busy || n ? FR_BUSY : 0);
  }

  write(value) {
    if (!this.txOn || !this.bitNs) return this.onLost(value, 'txoff');
    if (this.txq.length >= this.depth) return this.onLost(value, 'txfull');
    this.txq.push(value);
    if (!this.busy) this.next();
  }

  next() {
    const value = this.txq.shift();
    const frameNs = this.frameBits * this.bitNs;
    this.busy = true;
    this.onStart(value, this.mcu.clock.nanos, frameNs);
    this.done.schedule(frameNs);
  }

  stopBitOut() {
    this.busy = false;
    if (this.txq.length && this.txOn && this.bitNs) this.next();
  }

  /** A byte has arrived (its stop bit is in): into the RX FIFO if there is room. */
  deliver(value) {
    if (!this.rxOn || !this.bitNs) return 'off';
    if (this.uart.rxFIFO.full) return 'overrun';
    this.uart.feedByte(value);
    return 'ok';
  }
}
