"""Issue 9 item 11: tools.emulate's bad arguments are one line on stderr and exit 2.

Each case used to end in a traceback, run for hours, or draw overlapping text.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tools.emulate.script import SPAN_LIMIT_MS, ScriptError, load, parse

ROOT = Path(__file__).resolve().parent.parent


def emulate(args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "-m", "tools.emulate", "--headless", "--nvm", "none"]
                          + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def bad_cases(tmp):
    a_file = tmp / "plain"
    a_file.write_text("x")
    latin1 = tmp / "latin1.txt"
    latin1.write_bytes(b"# caf\xe9\n100 tap START\n")
    forever = tmp / "forever.txt"
    forever.write_text("0 tap A1 100000000\n")
    arabic = tmp / "arabic.txt"
    arabic.write_text("\u0664\u0660\u0660 tap A1\n")
    return [
        (["--script", str(latin1)], "script line 1: not UTF-8 text (byte 0xe9)"),
        (["--script", str(forever)], "script line 1: hold 100000000 ms is beyond 3600000 ms"),
        (["--script", str(arabic)], "script line 1: time must be a whole number of ms"),
        (["--seconds", "nan"], "--seconds must be a number from 0 to 604800 s"),
        (["--seconds", "inf"], "--seconds must be a number from 0 to 604800 s"),
        (["--seconds", "-1"], "--seconds must be a number from 0 to 604800 s"),
        (["--until", "-5"], "--until must be a whole number from 0"),
        (["--size", "20000x20000"], "--size must be one of 320x240, 240x240, 240x135"),
        (["--size", "100x100"], "--size must be one of"),
        (["--size", "banana"], "--size must be one of"),
        (["--log", str(a_file / "x.log")], "cannot write --log %s/x.log: %s is not a folder" % (a_file, a_file)),
        (["--log", "/proc/emulator.log"], "cannot write --log /proc/emulator.log: "),
        (["--trace", str(a_file / "t")], "cannot write --trace"),
        (["--gif", str(a_file / "d.gif")], "cannot write --gif"),
        (["--screenshot", "/proc/x.png"], "cannot write --screenshot"),
        (["--frames", str(a_file)], "cannot write into --frames %s: " % a_file),
    ]


def test_each_bad_argument_is_one_line_and_exit_2(tmp_path):
    for args, words in bad_cases(tmp_path):
        run = emulate(args, tmp_path)
        assert run.returncode == 2, (args, run.stderr)
        assert run.stderr.startswith("tools.emulate: " + words), (args, run.stderr)
        assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["arabic.txt", "forever.txt",
                                                           "latin1.txt", "plain"]


def test_a_script_spans_at_most_an_hour():
    assert parse("%d tap A1 1\n" % (SPAN_LIMIT_MS - 1))[-1][0] == SPAN_LIMIT_MS
    for bad in ("%d tap A1" % SPAN_LIMIT_MS, "%d down q" % (SPAN_LIMIT_MS + 1), "1e3 tap A1",
                "+5 tap A1", "1_000 tap A1", "5 tap A1 \u0663"):
        with pytest.raises(ScriptError, match="line 1"):
            parse(bad)


def test_a_script_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_bytes(b"100 tap START\n\n200 tap A\xff\n")
    with pytest.raises(ScriptError, match="script line 3: not UTF-8"):
        load(str(path))


# ------------------------------------------- issue 11: the tools as a new user meets them

def run_emulate(args, cwd, **env_changes):
    """tools.emulate as `make play` runs it: no forced --headless, no forced --nvm."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SDL_AUDIODRIVER="dummy",
               XDG_CACHE_HOME=str(cwd / "cache"))
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY", "CSPEED_ATTRACT_S"):
        env.pop(name, None)
    env.update(env_changes)
    return subprocess.run([sys.executable, "-m", "tools.emulate"] + args, cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


def _unused_display():
    for n in range(177, 250):
        if not os.path.exists("/tmp/.X11-unix/X%d" % n) and not os.path.exists("/tmp/.X%d-lock" % n):
            return ":%d" % n
    pytest.skip("no unused X display number")


# Both pick the first unused display number, and the second makes it answer for a
# moment: one xdist worker runs them, one after the other.
X_DISPLAYS = pytest.mark.xdist_group("x-display-numbers")


@X_DISPLAYS
def test_a_stale_display_is_reported_in_one_line_and_the_run_is_headless(tmp_path):
    display = _unused_display()
    run = run_emulate(["--seed", "3", "--seconds", "2"], tmp_path, DISPLAY=display)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ("tools.emulate: DISPLAY=%s is set but nothing answers there"
                          " (a stale display?): no window, running headless\n" % display)
    assert "no display found (DISPLAY=%s does not answer)" % display in run.stdout
    # then exactly the no-display path: the attract demo recorded into build/emulator-play
    assert "Recording a demo instead" in run.stdout
    assert (tmp_path / "build" / "emulator-play" / "demo.gif").exists()


@X_DISPLAYS
def test_a_display_that_answers_is_used(tmp_path):
    import socket

    from tools.emulate.__main__ import no_display, x_server_answers

    server = None
    for n in range(150, 250):  # a TCP "X server" on localhost:6000+N
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            server.bind(("127.0.0.1", 6000 + n))
            break
        except OSError:
            server.close()
            server = None
    if server is None:
        pytest.skip("no free port 6150-6249")
    server.listen(1)
    try:
        assert x_server_answers("127.0.0.1:%d" % n) and x_server_answers("127.0.0.1:%d.0" % n)
    finally:
        server.close()
    assert not x_server_answers("127.0.0.1:%d" % n)
    display = _unused_display()
    assert not x_server_answers(display) and not x_server_answers("nonsense")
    if os.access("/tmp/.X11-unix", os.W_OK):  # the local socket, as Xvfb and Xorg make it
        path = "/tmp/.X11-unix/X%s" % display[1:]
        local = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            local.bind(path)
            local.listen(1)
            assert x_server_answers(display) and x_server_answers("unix" + display + ".0")
        finally:
            local.close()
            os.remove(path)
    old = {k: os.environ.pop(k, None) for k in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    try:
        assert no_display() == "unset"
        os.environ["DISPLAY"] = display
        assert no_display() == "stale"
    finally:
        os.environ.pop("DISPLAY", None)
        os.environ.update({k: v for k, v in old.items() if v is not None})


def test_gif_alone_writes_the_gif_and_leaves_no_frames(tmp_path):
    from PIL import Image

    tmp = tmp_path / "tmp"  # its own temporary folder: other test workers make frames too
    tmp.mkdir()
    run = run_emulate(["--headless", "--seed", "7", "--script", str(ROOT / "docs" / "example.script"),
                       "--gif", "out/run.gif"], tmp_path, TMPDIR=str(tmp))
    assert run.returncode == 0, run.stderr
    gif = Image.open(tmp_path / "out" / "run.gif")
    assert gif.n_frames >= 3 and gif.size == (320, 240)  # title, menu, deal, presses ...
    assert "animated GIF: out/run.gif (%d frames)" % gif.n_frames in run.stdout
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["run.gif"]
    assert not list(tmp.glob("emulate-frames-*"))  # the frames went with their folder


def test_demo_and_make_play_write_to_separate_folders(tmp_path):
    play = run_emulate(["--seed", "3", "--seconds", "1"], tmp_path)  # no display: make play's demo
    demo = run_emulate(["--demo", "--headless", "--seed", "3", "--seconds", "1"], tmp_path)
    assert play.returncode == 0 and demo.returncode == 0, play.stderr + demo.stderr
    assert "animated GIF: build/emulator-play/demo.gif" in play.stdout
    assert "animated GIF: build/emulator-demo/demo.gif" in demo.stdout
    for folder in ("emulator-play", "emulator-demo"):
        assert (tmp_path / "build" / folder / "match.log").exists()
        assert list((tmp_path / "build" / folder / "frames").glob("frame_*.png"))


MENU_SCRIPT = ("300 tap START\n400 tap w\n500 tap w\n600 tap w\n"  # title -> menu; down to Penalty
               "700 tap e\n800 tap e\n1100 tap START\n")  # 500 ms -> off; play
PLAIN_SCRIPT = "300 tap START\n1100 tap START\n3000 tap A0\n"  # the menu as it comes


def test_scripted_runs_ignore_saved_menu_choices_unless_asked(tmp_path):
    (tmp_path / "menu.script").write_text(MENU_SCRIPT)
    (tmp_path / "plain.script").write_text(PLAIN_SCRIPT)
    saved = tmp_path / "cache" / "california-speed" / "nvm.bin"  # nvm.default_path()
    chose = run_emulate(["--headless", "--seed", "5", "--script", "menu.script",
                         "--nvm", str(saved)], tmp_path)
    assert chose.returncode == 0 and saved.exists(), chose.stderr

    def log_of(*extra):
        out = tmp_path / ("%d.log" % len(list(tmp_path.glob("*.log"))))
        run = run_emulate(["--headless", "--seed", "5", "--script", "plain.script",
                           "--log", out.name, *extra], tmp_path)
        assert run.returncode == 0, run.stderr
        return run.stdout, out.read_text()

    said, default = log_of()  # someone chose "penalty off" before: not used
    assert "scripted run ignores saved choices" in said
    assert log_of("--nvm", "none")[1] == default
    assert "penalty=0" not in default
    asked = log_of("--nvm", str(saved))[1]  # asked for: the saved choices apply
    assert "penalty=0" in asked


def test_running_the_documented_example_twice_still_replays(tmp_path):
    """Issue 20 (3.4): --log appended, so EMULATOR.md's example run twice gave a log with
    two headers that tools/replay refused ("the header may appear only once")."""
    args = ["--seed", "7", "--script", str(ROOT / "docs" / "example.script"),
            "--log", "out/match.log"]
    for _ in range(2):
        run = emulate(args, tmp_path)
        assert run.returncode == 0, run.stderr
    text = (tmp_path / "out" / "match.log").read_text()
    assert text.count("CSLOG 1") == 1
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    replay = subprocess.run([sys.executable, "-m", "tools.replay", "out/match.log"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=60)
    assert replay.returncode == 0, replay.stderr
    # 3.13: a headless run names the file that keeps the log, not a pty nobody can watch
    assert "goes to out/match.log" in run.stdout
    assert "miniterm" not in run.stdout and "save it to a file" not in run.stdout
    bare = emulate(["--until", "100"], tmp_path)
    assert "not kept (headless: add --log FILE to keep it)" in bare.stdout
    assert "miniterm" not in bare.stdout


@pytest.mark.parametrize("key", ["row", "speed"])
def test_game_starts_with_that_game_chosen(tmp_path, key):
    """Issue 20 (3.12): --game KEY, as tools.picosim has, reaches every game without
    scripting the menu: START, START plays KEY."""
    (tmp_path / "go.script").write_text("300 tap START\n1100 tap START\n")
    run = emulate(["--game", key, "--seed", "3", "--script", "go.script", "--until", "3000",
                   "--log", "m.log"], tmp_path)
    assert run.returncode == 0, run.stderr
    assert "rules game=%s " % key in (tmp_path / "m.log").read_text()
