"""Run the plain-Python rule tests (tests/test_rules.py) inside the MicroPython VM."""
# vm-timeout: 300

import sys

sys.path.append("/proj/tests")  # cs_helpers and test_rules live there in the VM

from mpyharness import Report  # noqa: E402
import test_rules  # noqa: E402

report = Report("vm_rules")
for name in sorted(dir(test_rules)):
    if name.startswith("test_"):
        try:
            getattr(test_rules, name)()
            report.check(True, name)
        except Exception as err:  # report every failure, not just the first
            sys.print_exception(err)
            report.check(False, name, repr(err))
report.done()
