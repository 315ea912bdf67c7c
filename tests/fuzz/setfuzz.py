"""settings.toml values drawn at random, and what the firmware must make of them.

Every setting the firmware reads gets, per case, a value or none: good values in
each form ``os.getenv`` may return (plain, quoted, blanks around, a trailing
comment, an int from CircuitPython before 10.2) and bad ones (words, decimals,
exponents, signs, underscores, hex, Arabic-Indic and full-width digits, NBSP and
U+3000 around, huge numbers, out of range; pins the board lacks, pins used twice,
too few key pins, profiles that do not exist or need a display the board lacks).
The contract (:func:`check`): ``hw.main.run`` either starts the firmware or stops
on the error screen with a message naming a setting that was given (or a pin used
twice); never another exception; a number setting the rule refuses always stops it
with its own name (:func:`number_ok` is the rule, written out independently).
"""

import random

NUMBER_SETTINGS = {"CSPEED_ATTRACT_S": (0, 3600), "CSPEED_DIAG": (0, 2)}
PINS = ["GP%d" % i for i in range(16)] + ["GP22"]
BLANKS = " \t\n\r\x0b\x0c"


def number_ok(value, low, high):
    """The settings' number rule, independently: ASCII digits (quotes, a comment and
    ASCII blanks around allowed), 1-9 of them, in range; ``None`` is unset."""
    if value is None:
        return True
    if isinstance(value, int):
        return low <= value <= high
    text = value.strip(BLANKS)
    if text.startswith('"'):
        end = text.find('"', 1)
        text = (text[1:end] if end > 0 else text[1:]).strip(BLANKS)
    elif "#" in text:
        text = text.split("#", 1)[0].strip(BLANKS)
    digits = "0123456789"
    return 0 < len(text) <= 9 and all(c in digits for c in text) and low <= int(text) <= high


def number_value(rnd, low, high):
    n = rnd.randint(low, high)
    good = [str(n), '"%d"' % n, " %d " % n, "%d # seconds" % n, "\t%d" % n, n, "0" * 3 + str(n)]
    base = rnd.choice((0x0660, 0xFF10, 0x06F0))
    bad = ["abc", "3.5", "1e3", "-1", "+5", "3_0", "0x10", "yes", "on", "true", "",
           "".join(chr(base + ord(c) - 48) for c in str(n)), "\u00a0%d" % n, "%d\u3000" % n,
           str(high + 1 + rnd.randint(0, 10 ** 6)), "9" * rnd.randint(10, 60), "%d %d" % (n, n),
           '"%d' % n, "%d.0" % n, -1 - rnd.randint(0, 99), "\u2028%d" % n]
    return rnd.choice(good if rnd.random() < 0.5 else bad)


def pin_list(rnd):
    pins = list(PINS)
    pick = rnd.random()
    if pick < 0.3:
        return ",".join(pins)
    if pick < 0.45:
        pins[rnd.randrange(17)] = rnd.choice(("GP99", "D99", "gp0", "\uff27\uff30\uff10", "GP 1"))
    elif pick < 0.6:
        pins.pop(rnd.randrange(17))
    elif pick < 0.75:
        pins[rnd.randrange(17)] = pins[rnd.randrange(17)]
    elif pick < 0.85:
        pins[rnd.randrange(17)] = ""
    else:
        rnd.shuffle(pins)
    return ",".join(pins)


def case(rnd):
    """``{setting: value}`` for one case (a few settings, each maybe absent)."""
    env = {}
    for key, (low, high) in NUMBER_SETTINGS.items():
        if rnd.random() < 0.6:
            env[key] = number_value(rnd, low, high)
    if rnd.random() < 0.3:
        env["CSPEED_ROTATION"] = rnd.choice(("0", "90", "180", "270", '"180"', "45", "180.0",
                                             "\u0661\u0668\u0660", "-90", ""))
    if rnd.random() < 0.2:
        env["CSPEED_PROFILE"] = rnd.choice(("pico_ili9341", "pico_st7789_240", "pico_st7789_135",
                                            "builtin", "feather_esp32s3_tft", "nothing", "",
                                            '"pico_ili9341"', "PICO_ILI9341"))
    if rnd.random() < 0.25:
        env["CSPEED_PIEZO"] = rnd.choice(("GP28", "none", "GP99", "GP3", "", "GP22"))
    if rnd.random() < 0.25:
        env["CSPEED_FRAM"] = rnd.choice(("none", "GP27,GP26", "GP99,GP98", "GP27", "GP0,GP1",
                                         "GP27,GP27", "GP27,GP26,GP25"))
    if rnd.random() < 0.25:
        env["CSPEED_KEY_PINS"] = pin_list(rnd)
    return env


def check(env, outcome, message, view):
    """Judge one case: ``outcome`` is ``started`` or ``stopped`` (``message``, ``view``)."""
    numbers_bad = [k for k, (low, high) in NUMBER_SETTINGS.items()
                   if k in env and not number_ok(env[k], low, high)]
    if outcome == "started":
        assert not numbers_bad, "started with %s" % numbers_bad
        return
    assert view is not None, "stopped without the error screen: %s" % message
    named = [k for k in env if message.startswith(k + "=") or (k + "=") in message]
    assert named or " is used twice" in message, "the message names no setting given: %r" % message
    if numbers_bad and not any(k in env for k in ("CSPEED_PROFILE", "CSPEED_ROTATION",
                                                   "CSPEED_KEY_PINS", "CSPEED_FRAM",
                                                   "CSPEED_PIEZO")):
        assert any(message.startswith(k + "=") for k in numbers_bad), message
