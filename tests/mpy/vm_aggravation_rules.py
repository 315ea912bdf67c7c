"""Run the plain-Python Aggravation rule tests (tests/test_aggravation_rules.py) inside the VM (MicroPython or CircuitPython)."""
# vm-timeout: 300

import sys

# aggravation_helpers, cs_helpers and test_aggravation_rules live in the VM's copy of tests/
sys.path.append(__file__.rsplit("/", 2)[0])

from mpyharness import Report  # noqa: E402
import test_aggravation_rules  # noqa: E402

report = Report("vm_aggravation_rules")
for name in sorted(dir(test_aggravation_rules)):
    if name.startswith("test_"):
        try:
            getattr(test_aggravation_rules, name)()
            report.check(True, name)
        except Exception as err:  # report every failure, not just the first
            sys.print_exception(err)
            report.check(False, name, repr(err))
report.done()
