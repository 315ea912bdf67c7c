"""Read a scenario: the ``tools/emulate`` script format plus ``# hil key=value`` settings."""

import os
from dataclasses import dataclass, field

from tools import cli
from tools.emulate import script as scripts

TAIL_MS = 3000  # a run lasts until this long after the last key
DEFAULT_SEED = 7
SECONDS = cli.seconds()  # a scenario's run (0: its last key + TAIL_MS)


class ScenarioError(Exception):
    """A scenario file cannot be used (one-line message)."""


@dataclass
class Scenario:
    """Key events ``[(ms, key name, down)]`` and the run's settings."""

    name: str
    path: str
    events: list
    seed: int = DEFAULT_SEED
    seconds: float = 0.0
    settings: dict = field(default_factory=dict)
    expected_path: str = ""

    def logical_events(self):
        """``[(ms, logical key, down)]`` (``seat * 8 + button``, START = 16)."""
        from tools.emulate.keys import logical_keys

        names = logical_keys()
        return [(ms, names[name], down) for ms, name, down in self.events]


def load(path):
    """Return the :class:`Scenario` in ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        events = scripts.parse(text)
    except (OSError, UnicodeDecodeError) as err:
        raise ScenarioError("%s: %s" % (path, err)) from None
    except scripts.ScriptError as err:
        raise ScenarioError("%s: %s" % (path, err)) from None
    if not events:
        raise ScenarioError("%s: no key events" % path)
    name = os.path.splitext(os.path.basename(path))[0]
    out = Scenario(name=name, path=path, events=events)
    out.settings = {"CSPEED_ATTRACT_S": "0"}
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[1].strip() if "#" in line else ""
        if not body.startswith("hil "):
            continue
        for item in body[4:].split():
            key, sep, value = item.partition("=")
            if not sep:
                raise ScenarioError("%s line %d: %r is not key=value" % (path, number, item))
            try:
                if key == "seed":
                    out.seed = cli.SEED.parse(value, "seed=")
                elif key == "seconds":
                    out.seconds = SECONDS.parse(value, "seconds=")
                elif key.startswith("CSPEED_"):
                    out.settings[key] = value
                else:
                    raise ValueError("unknown setting %r" % key)
            except ValueError as err:
                raise ScenarioError("%s line %d: %s" % (path, number, err)) from None
    if not out.seconds:
        out.seconds = (events[-1][0] + TAIL_MS) / 1000
    out.expected_path = os.path.splitext(path)[0] + ".expected"
    return out
