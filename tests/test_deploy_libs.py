"""tools.deploy --libs: the pinned device libraries, offline, exactly as tested.

lib/requirements.txt pins exactly the libraries the firmware imports on the board; the
same PyPI packages are pinned in requirements-dev.txt (the versions the tests ran with);
``--libs`` copies those packages' own files from this environment onto the drive,
compiled with CircuitPython's mpy-cross 10.2.1 when tools.cpstack has it (make cpstack).
"""

import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mpy import cpvm  # tests/mpy/cpvm.py
from tools import cpstack, deploy

ROOT = Path(__file__).resolve().parent.parent
NULL = open("/dev/null", "w")  # noqa: SIM115


@pytest.fixture
def drive(tmp_path):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    (d / "boot_out.txt").write_text("Adafruit CircuitPython 10.2.1 on 2026-11-30; Raspberry Pi Pico\n")
    return d


def dev_pins():
    pins = {}
    for line in (ROOT / "requirements-dev.txt").read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9_.-]+)==(\S+)", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def test_every_device_library_is_pinned_to_the_tested_version():
    pins = deploy.pinned_libraries()
    assert {name for name, _ in pins} == {"adafruit_ili9341", "adafruit_st7789"}
    dev = dev_pins()
    for name, version in pins:
        dist = deploy.distribution_name(name)
        assert version is not None, name
        assert dev.get(dist) == version, (name, "requirements-dev.txt pins", dev.get(dist))
        assert metadata.version(dist) == version  # what the tests run with


def test_a_kit_gets_exactly_the_libraries_the_firmware_imports():
    imported = set()
    for path in list((ROOT / "hw").rglob("*.py")) + list((ROOT / "engine").rglob("*.py")):
        imported |= set(re.findall(r"^\s*(?:from|import) (adafruit_\w+)", path.read_text(), re.M))
    assert imported == set(deploy.required_libraries())


def test_libs_as_py_are_the_installed_files(drive):
    written = deploy.install_libraries(drive, out=NULL)
    assert (drive / "lib" / "adafruit_ili9341.py").is_file()
    assert (drive / "lib" / "adafruit_st7789.py").is_file()
    assert not list((drive / "lib").rglob("__pycache__"))
    for name, version in deploy.pinned_libraries():
        for source, rel in deploy.library_files(name, version):
            target = drive / "lib" / rel
            assert target in written and target.read_bytes() == source.read_bytes()
    assert deploy.missing_libraries(drive) == []


def test_libs_as_mpy_replace_stale_copies_and_load_in_circuitpython(drive):
    if not deploy.MPY_CROSS.is_file():
        pytest.skip(cpstack.missing_line("mpy-cross"))
    lib = drive / "lib"
    lib.mkdir()
    (lib / "adafruit_st7789.py").write_text("stale = True\n")  # would shadow the .mpy
    deploy.install_libraries(drive, mpy_cross=deploy.MPY_CROSS, out=NULL)
    assert not (lib / "adafruit_st7789.py").exists()
    assert (lib / "adafruit_st7789.mpy").read_bytes()[:1] == b"C"  # a CircuitPython .mpy
    assert not list(lib.rglob("*.py"))
    reason = cpvm.missing_reason()
    if reason:
        pytest.skip(reason)
    script = drive / "probe.py"
    # The unix interpreter has no displayio: load the .mpy for its constants only.
    (drive / "busdisplay.py").write_text("BusDisplay = object\n")  # not built into it
    script.write_text("import adafruit_st7789\nprint(adafruit_st7789.__file__)\n")
    p = subprocess.run([str(cpvm.CP_BIN), str(script)], capture_output=True, text=True,
                       env={"MICROPYPATH": "%s:%s" % (lib, drive)}, timeout=30)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.split() == [str(lib / "adafruit_st7789.mpy")]


def test_cli_libs_and_a_version_mismatch_is_one_line(drive, tmp_path):
    p = subprocess.run([sys.executable, "-m", "tools.deploy", str(drive), "--libs", "--py"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "Libraries missing" not in p.stdout
    assert (drive / "lib" / "adafruit_st7789.py").is_file()
    root = tmp_path / "proj"
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "requirements.txt").write_text("adafruit_st7789==0.0.1\n")
    with pytest.raises(deploy.DeployError, match="pins 0.0.1"):
        deploy.install_libraries(drive, root=root, out=NULL)
    (root / "lib" / "requirements.txt").write_text("adafruit_no_such_lib==1.0\n")
    with pytest.raises(deploy.DeployError, match="not installed"):
        deploy.install_libraries(drive, root=root, out=NULL)
