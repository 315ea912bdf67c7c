"""hw.board.profiles' reading of a number setting, in CircuitPython 10.2.1's unix interpreter.

``cp_settings.py FILE`` (FILE holds a JSON list of values as ``os.getenv`` may return
them) prints the JSON list of outcomes: the int taken, or the SettingError message
(``tests/test_fw_settings.py`` and the settings fuzzer compare it with CPython's). A
file, not the command line: the unix port stops with "FATAL: uncaught NLR" on a long
non-ASCII argument.
"""

import json
import sys

from hw.board import profiles

out = []
with open(sys.argv[1]) as f:
    values = json.loads(f.read())
for value in values:
    try:
        out.append(profiles.setting_int("CSPEED_ATTRACT_S", value, 20, 0, 3600))
    except profiles.SettingError as err:
        out.append(str(err))
print(json.dumps(out))
