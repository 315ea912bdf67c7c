#!/usr/bin/env node
// Run a Python script inside the MicroPython 1.27 WebAssembly VM
// (npm: @micropython/micropython-webassembly-pyscript), with the project's
// Python sources copied into the VM's in-memory filesystem.
//
//   node tests/mpy/vm.mjs [--timeout S] [--dir D]... [--heapsize BYTES] script.py [args...]
//
// VM layout: each --dir (default: engine, tests/mpy; missing defaults are
// skipped) is copied, .py files only, to /proj/<dir>; the script goes to
// /proj/<its repo path> (or /run/<name> if outside the repo). sys.path starts
// with the script's directory, then /proj; cwd is /proj; sys.argv is set.
//
// Exit code: 0 ok; the SystemExit code; 1 on an uncaught Python exception;
// 2 on usage/setup errors; 124 on timeout (default 120 s, 0 = none).
//
// Why a worker thread: runPython() is synchronous, and a hung VM (e.g. an
// exception escaping micropython.heap_lock()) never yields to the event loop,
// so the timer must live in another thread; worker.terminate() stops a spinning
// wasm loop, and killing this process takes the worker with it (no orphans).

import { Worker, isMainThread, workerData } from "node:worker_threads";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PKG = "@micropython/micropython-webassembly-pyscript";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DEFAULT_DIRS = ["engine", "tests"]; // tests/: the plain-Python rule tests run in the VM too

// Synchronous write that survives a non-blocking pipe being full (EAGAIN).
const sleeper = new Int32Array(new SharedArrayBuffer(4));
function writeAll(fd, buf) {
  let off = 0;
  while (off < buf.length) {
    try {
      off += fs.writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      Atomics.wait(sleeper, 0, 0, 2);
    }
  }
}
const say = (msg) => writeAll(2, Buffer.from(`vm.mjs: ${msg}\n`));

function parseArgs(argv) {
  const o = { timeout: 120, dirs: null, heapsize: 1 << 20, script: null, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (o.script !== null) o.args.push(a);
    else if (a === "--timeout") o.timeout = Number(val());
    else if (a === "--dir") (o.dirs ??= []).push(val());
    else if (a === "--heapsize") o.heapsize = Number(val());
    else if (a === "-h" || a === "--help") throw new Error("help");
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}`);
    else o.script = a;
  }
  if (o.script === null) throw new Error("no script given");
  if (!(o.timeout >= 0)) throw new Error("--timeout must be a number of seconds >= 0");
  return o;
}

function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e.message !== "help") say(e.message);
    say("usage: node tests/mpy/vm.mjs [--timeout S] [--dir D]... [--heapsize BYTES] script.py [args...]");
    process.exit(2);
  }
  o.script = path.resolve(o.script);
  if (!fs.existsSync(o.script)) {
    say(`no such script: ${o.script}`);
    process.exit(2);
  }
  const explicit = o.dirs !== null;
  o.dirs = (o.dirs ?? DEFAULT_DIRS).map((d) => path.resolve(ROOT, d));
  for (const d of o.dirs) {
    if (explicit && !fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) {
      say(`no such directory: ${d}`);
      process.exit(2);
    }
  }
  const worker = new Worker(new URL(import.meta.url), { workerData: o });
  let timer = null;
  let timedOut = false;
  if (o.timeout > 0) {
    timer = setTimeout(() => {
      timedOut = true;
      say(`timeout after ${o.timeout}s running ${o.script}; VM killed`);
      worker.terminate(); // fires "exit" below
    }, o.timeout * 1000);
  }
  worker.on("error", (e) => {
    say(`VM crashed: ${e?.stack ?? e}`);
    process.exit(1);
  });
  worker.on("exit", (code) => {
    clearTimeout(timer);
    process.exit(timedOut ? 124 : code);
  });
}

// Copy *.py files under dir (recursively, skipping __pycache__ and dot dirs) to the VM.
function copyTree(FS, hostDir, vmDir) {
  if (!fs.statSync(hostDir, { throwIfNoEntry: false })?.isDirectory()) return;
  FS.mkdirTree(vmDir);
  for (const ent of fs.readdirSync(hostDir, { withFileTypes: true })) {
    if (ent.name.startsWith(".") || ent.name === "__pycache__") continue;
    const src = path.join(hostDir, ent.name);
    if (ent.isDirectory()) copyTree(FS, src, `${vmDir}/${ent.name}`);
    else if (ent.name.endsWith(".py")) FS.writeFile(`${vmDir}/${ent.name}`, fs.readFileSync(src));
  }
}

// Line-buffered byte sink: the VM hands us one byte per call. `before` is
// flushed first (stdout before stderr keeps the two in order on a terminal).
function sink(fd, before = null) {
  let buf = Buffer.alloc(4096);
  let n = 0;
  const flush = () => {
    if (n) writeAll(fd, buf.subarray(0, n));
    n = 0;
  };
  const put = (bytes) => {
    before?.flush();
    for (const b of bytes) {
      buf[n++] = b;
      if (b === 10 || n === buf.length) flush();
    }
  };
  return { put, flush };
}

// Exit code for a SystemExit traceback ("...\nSystemExit: <arg>\n"), like CPython.
function systemExitCode(message, err) {
  const arg = (message.trimEnd().split("\n").pop() ?? "").replace(/^SystemExit:?\s*/, "");
  if (arg === "" || arg === "None") return 0;
  if (/^-?\d+$/.test(arg)) return Number(arg) & 0xff;
  err.put(Buffer.from(arg + "\n"));
  return 1;
}

async function runInWorker(o) {
  let loadMicroPython;
  try {
    ({ loadMicroPython } = await import(PKG));
  } catch (e) {
    say(`cannot load ${PKG} (${e.code ?? e.message}): run \`make test\` (or \`npm ci\`) in ${ROOT}`);
    process.exit(2);
  }
  const out = sink(1);
  const err = sink(2, out);
  const mp = await loadMicroPython({ heapsize: o.heapsize, stdout: out.put, stderr: err.put, linebuffer: false });

  for (const d of o.dirs) copyTree(mp.FS, d, `/proj/${path.relative(ROOT, d).split(path.sep).join("/")}`);
  const rel = path.relative(ROOT, o.script);
  const vmScript = rel.startsWith("..") || path.isAbsolute(rel)
    ? `/run/${path.basename(o.script)}`
    : `/proj/${rel.split(path.sep).join("/")}`;
  mp.FS.mkdirTree(path.posix.dirname(vmScript));
  mp.FS.writeFile(vmScript, fs.readFileSync(o.script));

  const py = JSON.stringify; // a JSON string is a valid Python string literal
  // Set up sys.path/argv/cwd and __file__, leaving no other names in the script's globals.
  const setup = `
import sys as _s, os as _o
_s.path.insert(0, '/proj')
_s.path.insert(0, ${py(path.posix.dirname(vmScript))})
_s.argv.clear()
_s.argv.extend([${[vmScript, ...o.args].map(py).join(", ")}])
_o.chdir('/proj')
del _s, _o
__file__ = ${py(vmScript)}
`;
  // On an exception, drop any heap lock the script left before the exception
  // reaches JS (which must allocate, and hangs the VM under the lock). Lock
  // once more first: heap_unlock() on an unlocked heap underflows the depth
  // (to 32767, i.e. locked). No names are bound here: that could allocate.
  const run = `
try:
    execfile(${py(vmScript)})
except BaseException:
    if hasattr(__import__('micropython'), 'heap_unlock'):
        __import__('micropython').heap_lock()
        while __import__('micropython').heap_unlock():
            pass
    raise
`;
  let code = 0;
  try {
    mp.runPython(setup);
    mp.runPython(run);
  } catch (e) {
    if (e?.name !== "PythonError") {
      out.flush();
      err.flush();
      throw e;
    }
    if (e.type === "SystemExit") code = systemExitCode(e.message, err);
    else {
      // Drop the frame of our own runPython() wrapper code.
      err.put(Buffer.from(e.message.replace(/^ {2}File "<stdin>".*\n/m, "")));
      if (e.type === "MemoryError" && !e.message.includes('File "')) {
        err.put(Buffer.from("(no traceback: MemoryError raised while micropython.heap_lock() was held?)\n"));
      }
      code = 1;
    }
  }
  out.flush();
  err.flush();
  process.exit(code);
}

if (isMainThread) main();
else await runInWorker(workerData);
