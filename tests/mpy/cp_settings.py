"""hw.profiles' reading of a number setting, in CircuitPython 10.2.1's unix interpreter.

``cp_settings.py JSON`` (a list of values as ``os.getenv`` may return them) prints the
JSON list of outcomes: the int taken, or the SettingError message
(``tests/test_fw_settings.py`` compares it with CPython's).
"""

import json
import sys

from hw import profiles

out = []
for value in json.loads(sys.argv[1]):
    try:
        out.append(profiles.setting_int("CSPEED_ATTRACT_S", value, 20, 0, 3600))
    except profiles.SettingError as err:
        out.append(str(err))
print(json.dumps(out))
