"""Run the plain-Python rule tests (tests/test_rules.py) inside the VM (MicroPython or CircuitPython)."""
# vm-timeout: 300

import sys

# cs_helpers and test_rules live in the VM's copy of tests/ (this file is tests/mpy/vm_rules.py)
sys.path.append(__file__.rsplit("/", 2)[0])

from mpyharness import Report  # noqa: E402
import test_rules  # noqa: E402

report = Report("vm_rules")
for name in sorted(dir(test_rules)):
    if name.startswith("test_"):
        try:
            getattr(test_rules, name)()
            report.check(True, name)
        except Exception as err:  # report every failure, not just the first
            if hasattr(sys, "print_exception"):  # MicroPython; CircuitPython has none
                sys.print_exception(err)
            report.check(False, name, repr(err))
report.done()
