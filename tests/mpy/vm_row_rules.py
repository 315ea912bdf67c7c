"""Run the plain-Python shared-row rule tests (tests/test_row_rules.py) inside the VM (MicroPython or CircuitPython)."""
# vm-timeout: 300

import sys

# row_helpers, cs_helpers and test_row_rules live in the VM's copy of tests/
sys.path.append(__file__.rsplit("/", 2)[0])

from mpyharness import Report  # noqa: E402
import test_row_rules  # noqa: E402

report = Report("vm_row_rules")
for name in sorted(dir(test_row_rules)):
    if name.startswith("test_"):
        try:
            getattr(test_row_rules, name)()
            report.check(True, name)
        except Exception as err:  # report every failure, not just the first
            sys.print_exception(err)
            report.check(False, name, repr(err))
report.done()
