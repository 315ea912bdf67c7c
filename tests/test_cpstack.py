"""tools/cpstack: the real CircuitPython 10.2.1 stack, fetched, checked and found offline.

Every test here runs without the network: downloads come from a local HTTP server
(127.0.0.1, a thread) serving made-up artifacts that pass or fail the real checks --
good files, a truncated UF2, wrong versions, a 404 -- or from no server at all
(connection refused: the one-line offline error). The cache and the mirror are temp
folders (``CSPEED_CIRCUITPYTHON``, ``CSPEED_CIRCUITPYTHON_MIRROR``): the real cache is
never written. A fresh machine (no mirror, empty cache) is simulated in subprocesses:
``check`` and the skip lines of tests that need an artifact name the file and the
command. The real artifacts, where present, must pass the same checks.
"""

import dataclasses
import hashlib
import http.server
import os
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tools import cpstack
from tools.cpstack import ARTIFACTS, __main__ as cli
from tools.cpstack.check import RP2040_FAMILY, UF2_MAGIC, CheckError, check
from tools.cpstack.fetch import FetchError, Offline, elf_rom, obtain

ROOT = Path(__file__).resolve().parent.parent
VERSION = cpstack.VERSION


# ------------------------------------------------------------------ made-up artifacts

def uf2(version=VERSION, board="Raspberry Pi Pico", board_id=b"raspberry_pi_pico",
        blocks=4, family=RP2040_FAMILY):
    """A UF2 file whose payload holds CircuitPython's banner and board id."""
    text = (b"\x00Adafruit CircuitPython %s on 2026-01-01; %s with rp2040\x00padding\x00%s\x00"
            % (version.encode(), board.encode(), board_id))
    image = text.ljust(256 * blocks, b"\xff")
    out = b""
    for n in range(blocks):
        head = struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], 0x2000, 0x10000000 + 256 * n,
                           256, n, blocks, family)
        out += head + image[256 * n:256 * (n + 1)].ljust(476, b"\x00") + \
            struct.pack("<I", UF2_MAGIC[2])
    return out


def tool(version=VERSION, mpy="v6.3"):
    """A stand-in mpy-cross: a shell script answering --version."""
    return ("#!/bin/sh\necho 'CircuitPython %s on 2026-01-01; mpy-cross emitting mpy %s'\n"
            % (version, mpy)).encode()


ROM = bytes(range(256)) * 64  # 16 KB, a made-up mask ROM


def elf(segments):
    """A 32-bit little-endian ELF holding ``[(paddr, vaddr, bytes)]`` as PT_LOAD segments."""
    phoff = 52
    body_at = phoff + 32 * len(segments)
    header = b"\x7fELF\x01\x01\x01" + bytes(9) + struct.pack(
        "<HHIIIIIHHHHHH", 2, 40, 1, 0, phoff, 0, 0, 52, 32, len(segments), 0, 0, 0)
    table, body = b"", b""
    for paddr, vaddr, data in segments:
        table += struct.pack("<8I", 1, body_at + len(body), vaddr, paddr, len(data), len(data),
                             5, 4)
        body += data
    return header + table + body


def ts(rom):
    words = struct.unpack("<%dI" % (len(rom) // 4), rom)
    return ("export const bootromB1 = new Uint32Array([\n  %s,\n]);\n"
            % ", ".join("0x%08x" % w for w in words)).encode()


# --------------------------------------------------------------------- fixtures

@pytest.fixture(autouse=True)
def stack(tmp_path, monkeypatch):
    """A temp cache and a temp mirror (empty until a test fills it): never the real ones."""
    cache, mirror = tmp_path / "cache", tmp_path / "mirror"
    monkeypatch.setenv(cpstack.CACHE_ENV, str(cache))
    monkeypatch.setenv(cpstack.MIRROR_ENV, str(mirror))
    return cache, mirror


class Files(http.server.BaseHTTPRequestHandler):
    served = {}

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = self.served.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    """``(base url, {path: bytes})``: a local HTTP server; unknown paths are 404."""
    served = {}
    handler = type("Handler", (Files,), {"served": served})
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d" % httpd.server_address[1], served
    httpd.shutdown()
    httpd.server_close()


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def from_(key, *urls, unpack=None, **changes):
    """ARTIFACTS[key] downloaded from ``urls`` instead."""
    return dataclasses.replace(ARTIFACTS[key], sources=tuple((u, unpack) for u in urls), **changes)


ROM_SHA = hashlib.sha256(ROM).hexdigest()


# ------------------------------------------------------------------------ fetch

def test_good_files_are_downloaded_checked_and_kept_in_the_cache(stack, server):
    cache, _ = stack
    url, served = server
    served.update({"/pico.uf2": uf2(), "/mpy-cross.static": tool(),
                   "/b1.elf": elf([(0, 0, ROM)])})
    arts = [from_("uf2", url + "/pico.uf2"), from_("mpy-cross", url + "/mpy-cross.static"),
            from_("bootrom", url + "/b1.elf", unpack="elf_rom", sha256=ROM_SHA)]
    for art in arts:
        how, path, said = obtain(art)
        assert (how, path) == ("downloaded", cache / art.file), said
    assert "CircuitPython %s, Raspberry Pi Pico with rp2040, 4 UF2 blocks" % VERSION == \
        check(arts[0], cache / arts[0].file)
    assert os.access(cache / arts[1].file, os.X_OK)
    assert (cache / arts[2].file).read_bytes() == ROM
    assert sorted(p.name for p in cache.iterdir()) == sorted(a.file for a in arts)  # no .part
    served.clear()  # present now: no second download
    assert [obtain(a)[0] for a in arts] == ["present"] * 3


def test_the_bootrom_comes_from_the_next_source_after_a_404(server):
    url, served = server
    served["/bootrom.ts"] = ts(ROM)
    art = dataclasses.replace(ARTIFACTS["bootrom"], sha256=ROM_SHA, sources=(
        (url + "/missing/b1.elf", "elf_rom"), (url + "/bootrom.ts", "ts_words")))
    how, path, said = obtain(art)
    assert how == "downloaded" and path.read_bytes() == ROM and ROM_SHA[:16] in said


def test_the_elf_rom_is_its_load_segments_at_their_load_addresses():
    data = b"\x11" * 256
    rom = elf_rom(elf([(0, 0, ROM[:8192]), (0x2000, 0x20000000, data)]))  # .data: LMA in ROM
    assert len(rom) == 16384 and rom[:8192] == ROM[:8192]
    assert rom[0x2000:0x2100] == data and rom[0x2100:] == bytes(16384 - 0x2100)
    with pytest.raises(CheckError, match="not a 32-bit little-endian ELF"):
        elf_rom(b"MZ" + bytes(100))
    with pytest.raises(CheckError, match="no load segment"):
        elf_rom(elf([(0x20000000, 0x20000000, data)]))


def test_a_truncated_download_is_refused_and_leaves_nothing(stack, server):
    cache, _ = stack
    url, served = server
    served["/pico.uf2"] = uf2()[:2 * 512]
    with pytest.raises(FetchError, match=r"truncated: 2 of its 4 UF2 blocks"):
        obtain(from_("uf2", url + "/pico.uf2"))
    served["/pico.uf2"] = uf2()[:1000]
    with pytest.raises(FetchError, match="not a whole number of 512-byte blocks"):
        obtain(from_("uf2", url + "/pico.uf2"))
    assert not cache.exists() or not list(cache.iterdir())


@pytest.mark.parametrize("key, body, why", [
    ("uf2", uf2(version="10.1.0"), "it is CircuitPython 10.1.0, not %s" % VERSION),
    ("uf2", uf2(board="Raspberry Pi Pico W", board_id=b"raspberry_pi_pico_w"),
     "it is for the Raspberry Pi Pico W with rp2040"),
    ("uf2", uf2(family=0xE48BFF59), "block 0 is not for an RP2040"),
    ("mpy-cross", tool(version="9.2.4"), "it is CircuitPython 9.2.4's mpy-cross"),
    ("mpy-cross", b"#!/bin/sh\necho 'MicroPython v1.27.0 on 2026-01-01; mpy-cross emitting mpy v6.3'\n",
     "not CircuitPython's mpy-cross"),
], ids=["uf2-10.1.0", "uf2-pico-w", "uf2-rp2350", "mpy-cross-9.2.4", "micropython-mpy-cross"])
def test_a_wrong_version_is_refused_saying_what_it_is(stack, server, key, body, why):
    cache, _ = stack
    url, served = server
    served["/file"] = body
    with pytest.raises(FetchError, match=why.replace("(", r"\(")):
        obtain(from_(key, url + "/file"))
    assert not (cache / ARTIFACTS[key].file).exists()


def test_a_404_is_an_error_naming_the_address(server):
    url, _ = server
    with pytest.raises(FetchError, match=r"HTTP 404 from %s/nothing-here" % url) as err:
        obtain(from_("uf2", url + "/nothing-here"))
    assert not isinstance(err.value, Offline)


def test_no_server_is_one_line_naming_the_files_and_the_command(monkeypatch, capsys):
    dead = "http://127.0.0.1:%d" % closed_port()
    monkeypatch.setitem(ARTIFACTS, "uf2", from_("uf2", dead + "/pico.uf2"))
    monkeypatch.setitem(ARTIFACTS, "mpy-cross", from_("mpy-cross", dead + "/mpy-cross"))
    assert cli.main(["fetch", "uf2", "mpy-cross"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("tools.cpstack: offline (%s: Connection refused)" % dead[7:])
    for name in (ARTIFACTS["uf2"].file, ARTIFACTS["mpy-cross"].file, "`make cpstack`"):
        assert name in err


def test_the_unix_interpreter_is_not_downloaded_but_its_build_command_named(capsys):
    assert cli.main(["fetch", "unix"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert ARTIFACTS["unix"].file in err and "`make cpstack-unix`" in err
    assert "gcc-multilib" in err


def test_a_cache_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv(cpstack.CACHE_ENV, str(tmp_path / "a-file" / "cache"))
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / ARTIFACTS["uf2"].file).write_bytes(uf2())
    assert cli.main(["fetch", "uf2"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "cannot write in %s" % (tmp_path / "a-file") in err
    assert cpstack.CACHE_ENV in err


# ----------------------------------------------------------------------- mirror

def test_the_mirror_is_copied_from_after_its_check(stack):
    cache, mirror = stack
    mirror.mkdir()
    (mirror / ARTIFACTS["uf2"].file).write_bytes(uf2())
    (mirror / ARTIFACTS["mpy-cross"].file).write_bytes(tool())
    (mirror / ARTIFACTS["mpy-cross"].file).chmod(0o755)
    assert cpstack.find("uf2") == mirror / ARTIFACTS["uf2"].file  # found there before a fetch
    for key in ("uf2", "mpy-cross"):
        how, path, _ = obtain(dataclasses.replace(ARTIFACTS[key], sources=()))
        assert (how, path) == ("copied", cache / ARTIFACTS[key].file)
        assert path.read_bytes() == (mirror / ARTIFACTS[key].file).read_bytes()
        assert cpstack.find(key) == path  # the cache comes first


def test_a_wrong_file_in_the_mirror_is_not_copied_and_the_download_goes_ahead(stack, server):
    cache, mirror = stack
    url, served = server
    mirror.mkdir()
    (mirror / ARTIFACTS["uf2"].file).write_bytes(uf2(version="9.2.4"))
    served["/pico.uf2"] = uf2()
    how, path, _ = obtain(from_("uf2", url + "/pico.uf2"))
    assert how == "downloaded" and path.read_bytes() == uf2()
    assert (mirror / ARTIFACTS["uf2"].file).read_bytes() == uf2(version="9.2.4")  # left alone
    path.unlink()
    with pytest.raises(FetchError, match=r"the mirror's copy .* fails its check \(it is "
                                         r"CircuitPython 9.2.4.*; HTTP 404"):
        obtain(from_("uf2", url + "/gone.uf2"))


def test_a_cached_copy_that_fails_its_check_is_removed_and_fetched_again(stack, server):
    cache, _ = stack
    url, served = server
    cache.mkdir()
    (cache / ARTIFACTS["uf2"].file).write_bytes(uf2()[:512])
    served["/pico.uf2"] = uf2()
    how, path, _ = obtain(from_("uf2", url + "/pico.uf2"))
    assert how == "downloaded" and path.read_bytes() == uf2()


def test_a_bad_cached_copy_another_process_removed_first_is_fetched_again(stack, server,
                                                                        monkeypatch):
    """Two test workers start at once: both find the cached copy bad, the other removes it."""
    from tools.cpstack import fetch

    cache, _ = stack
    url, served = server
    cache.mkdir()
    target = cache / ARTIFACTS["uf2"].file
    target.write_bytes(uf2()[:512])
    served["/pico.uf2"] = uf2()

    def check_while_another_removes_it(artifact, path):
        try:
            return check(artifact, path)
        except CheckError:
            if path == target:
                path.unlink()  # the other process's removal, between our check and ours
            raise

    monkeypatch.setattr(fetch, "check", check_while_another_removes_it)
    how, path, _ = obtain(from_("uf2", url + "/pico.uf2"))
    assert how == "downloaded" and path.read_bytes() == uf2()


def test_two_fetches_at_once_into_one_cache_both_succeed_and_leave_no_part_file(stack):
    cache, mirror = stack
    mirror.mkdir()
    (mirror / ARTIFACTS["uf2"].file).write_bytes(uf2())
    (mirror / ARTIFACTS["mpy-cross"].file).write_bytes(tool())
    (mirror / ARTIFACTS["mpy-cross"].file).chmod(0o755)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    runs = [subprocess.Popen([sys.executable, "-c", "import sys; from tools.cpstack.__main__ "
                              "import main; sys.exit(main(['fetch', 'uf2', 'mpy-cross']))"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for _ in range(4)]
    for run in runs:
        out, err = run.communicate(timeout=60)
        assert run.returncode == 0, err
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        ARTIFACTS[k].file for k in ("uf2", "mpy-cross"))  # no .part file left over
    assert (cache / ARTIFACTS["uf2"].file).read_bytes() == uf2()


# ------------------------------------------------------------------ the CLI

def test_install_checks_the_file_first_and_takes_the_bootrom_as_an_elf(stack, tmp_path, capsys,
                                                                       monkeypatch):
    cache, _ = stack
    monkeypatch.setitem(ARTIFACTS, "bootrom",
                        dataclasses.replace(ARTIFACTS["bootrom"], sha256=ROM_SHA))
    (tmp_path / "b1.elf").write_bytes(elf([(0, 0, ROM)]))
    assert cli.main(["install", "bootrom", str(tmp_path / "b1.elf")]) == 0
    assert (cache / ARTIFACTS["bootrom"].file).read_bytes() == ROM
    (tmp_path / "old.uf2").write_bytes(uf2(version="8.2.10"))
    capsys.readouterr()
    assert cli.main(["install", "uf2", str(tmp_path / "old.uf2")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "it is CircuitPython 8.2.10" in err
    assert not (cache / ARTIFACTS["uf2"].file).exists()
    assert cli.main(["check", "nonsense"]) == 2


def test_where_names_the_cache_the_mirror_and_each_file(stack, capsys):
    cache, mirror = stack
    assert cli.main(["where"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("cache      %s" % cache) and out[1].startswith("mirror     %s" % mirror)
    assert "uf2        missing: `make cpstack`" in out
    assert "unix       missing: `make cpstack-unix`" in out
    assert cli.main(["where", "mpy-cross"]) == 0
    assert capsys.readouterr().out == "%s\n" % (cache / ARTIFACTS["mpy-cross"].file)


def fresh(tmp_path, monkeypatch):
    """A fresh machine, here and for subprocesses: an empty cache, no mirror."""
    monkeypatch.setenv(cpstack.CACHE_ENV, str(tmp_path / "empty-cache"))
    monkeypatch.setenv(cpstack.MIRROR_ENV, "")
    return dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


def test_on_a_fresh_machine_check_names_each_file_and_its_command(tmp_path, monkeypatch):
    done = subprocess.run([sys.executable, "-m", "tools.cpstack", "check"], cwd=ROOT,
                          env=fresh(tmp_path, monkeypatch), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["tools.cpstack: " + cpstack.missing_line(key)
                                        for key in ARTIFACTS]
    assert "`make cpstack`" in done.stderr and "`make cpstack-unix`" in done.stderr


def test_on_a_fresh_machine_the_tests_that_need_an_artifact_skip_naming_the_command(
        tmp_path, monkeypatch):
    tests = ["test_micropython.py::test_vm_script[vm_smoke.py-circuitpython]",
             "test_picosim.py::test_drive_libraries_compile_with_circuitpythons_mpy_cross",
             "test_deploy_libs.py::test_libs_as_mpy_replace_stale_copies_and_load_in_circuitpython"]
    # run from elsewhere: with the repo as the working directory, `python -m` would put the
    # firmware's code.py before the standard library's (pytest.ini)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                           *("%s/tests/%s" % (ROOT, t) for t in tests)], cwd=tmp_path,
                          env=fresh(tmp_path, monkeypatch), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 3, done.stdout[-3000:]
    for line, key in zip(skips, ("unix", "uf2", "mpy-cross")):
        assert line.endswith(cpstack.missing_line(key)), line


# --------------------------------------------------------- the interpreter's build

BUILD = ROOT / "tools" / "cpstack" / "build_unix.sh"


def test_the_build_script_shows_its_options_and_refuses_unknown_ones():
    done = subprocess.run([str(BUILD), "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "--dry-run" in done.stdout and "gcc-multilib" in done.stdout
    done = subprocess.run([str(BUILD), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--frobnicate" in done.stderr


def test_the_build_script_dry_run_is_the_recipe_of_the_readme(tmp_path, monkeypatch):
    src = tmp_path / "cp"
    done = subprocess.run([str(BUILD), "--dry-run", "--src", str(src), "--jobs", "3"],
                          capture_output=True, text=True, timeout=30,
                          env=fresh(tmp_path, monkeypatch))
    assert done.returncode == 0, done.stderr
    steps = done.stdout.splitlines()
    assert steps[0] == ("+ git clone --depth 1 --branch %s https://github.com/adafruit/"
                        "circuitpython.git %s" % (VERSION, src))
    assert steps[1] == "+ git -C %s submodule update --init --depth 1 tools/huffman" % src
    assert steps[3] == "+ cp -R %s %s/ports/unix/variants/boardlike" % (
        ROOT / "tools" / "cpstack" / "boardlike", src)
    make = steps[4].split()
    assert make[:6] == ["+", "env", "CP_VERSION=" + VERSION, "make", "-C", "%s/ports/unix" % src]
    assert set(make[6:]) == {"-j3", "VARIANT=boardlike", "MICROPY_FORCE_32BIT=1",
                             "MICROPY_PY_FFI=0", "CIRCUITPY_ULAB=0", "MICROPY_PY_BTREE=0",
                             "MICROPY_PY_SSL=0", "FROZEN_MANIFEST=", "LDFLAGS_EXTRA=-static"}
    assert steps[5].endswith("-m tools.cpstack install unix %s/ports/unix/build-boardlike/"
                             "micropython" % src)
    assert not src.exists() and not (tmp_path / "empty-cache").exists()  # nothing ran


def test_the_variant_has_the_boards_object_model_and_numbers():
    header = (ROOT / "tools" / "cpstack" / "boardlike" / "mpconfigvariant.h").read_text()
    for line in ("MICROPY_OBJ_REPR                    (MICROPY_OBJ_REPR_C)",
                 "MICROPY_FLOAT_IMPL                  (MICROPY_FLOAT_IMPL_FLOAT)",
                 "MICROPY_LONGINT_IMPL                (MICROPY_LONGINT_IMPL_MPZ)",
                 "MICROPY_ERROR_REPORTING             (MICROPY_ERROR_REPORTING_NORMAL)"):
        assert "#define " + line in header


# ----------------------------------------------------------- the real artifacts

@pytest.fixture
def real(monkeypatch):
    """Look where the project's tools look (the test's temp folders undone)."""
    monkeypatch.undo()


@pytest.mark.parametrize("key", list(ARTIFACTS))
def test_the_real_artifact_passes_its_check(real, key):
    path = cpstack.find(key)
    if path is None:
        pytest.skip(cpstack.missing_line(key))
    said = check(ARTIFACTS[key], path)
    assert VERSION in said or ARTIFACTS[key].sha256[:16] in said
