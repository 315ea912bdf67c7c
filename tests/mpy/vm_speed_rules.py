"""Run the plain-Python Speed rule tests (tests/test_speed_rules.py) inside the VM (MicroPython or CircuitPython)."""
# vm-timeout: 300

import sys

# speed_helpers, cs_helpers and test_speed_rules live in the VM's copy of tests/
sys.path.append(__file__.rsplit("/", 2)[0])

from mpyharness import Report  # noqa: E402
import test_speed_rules  # noqa: E402

report = Report("vm_speed_rules")
for name in sorted(dir(test_speed_rules)):
    if name.startswith("test_"):
        try:
            getattr(test_speed_rules, name)()
            report.check(True, name)
        except Exception as err:  # report every failure, not just the first
            sys.print_exception(err)
            report.check(False, name, repr(err))
report.done()
