"""The demo: the firmware's own attract mode, recorded as frames and a GIF.

The firmware plays CPU vs CPU by itself once its title screen has been idle for
``hw.app.ATTRACT_MS`` (20 s; ``CSPEED_ATTRACT_S`` in the environment changes it, as
``settings.toml`` does on a board), so the demo only has to wait and watch: no
keys are pressed for it. ``make play`` runs it headless when there is no display
(virtual time: the idle title costs no real time); ``--demo`` runs it in the window
too. It stops 3 s after the first demo match is won. Any key ends the attract mode
(the firmware shows the title again).
"""

import os

GIF_STILL_MAX_MS = 3000  # a still stretch longer than this (the idle title) is cut short


def attract_seconds():
    """The firmware's idle time before attract mode, as it will read it (seconds).

    None if the setting is bad: the firmware stops on its error screen instead.
    """
    from hw.app.attract import ATTRACT_MS
    from hw.board.profiles import ATTRACT_S_MAX, SettingError, setting_int

    try:
        return setting_int("CSPEED_ATTRACT_S", os.environ.get("CSPEED_ATTRACT_S"),
                           ATTRACT_MS // 1000, 0, ATTRACT_S_MAX)
    except SettingError:
        return None


def make_gif(frames, path, scale=1, last_hold_ms=3000, still_max_ms=GIF_STILL_MAX_MS):
    """Write an animated GIF of ``frames`` (``[(ms, png path)]``); return ``path``.

    Each frame lasts until the next one, at most ``still_max_ms`` (so the 20 s idle
    title before the attract mode does not fill the GIF).
    """
    from PIL import Image

    images, durations = [], []
    for i, (ms, png) in enumerate(frames):
        image = Image.open(png).convert("RGB")
        if scale != 1:
            image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
        images.append(image)
        nxt = frames[i + 1][0] if i + 1 < len(frames) else ms + last_hold_ms
        durations.append(min(still_max_ms, max(20, nxt - ms)))  # viewers clamp < 20 ms
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations,
                       loop=0, optimize=False)
    except OSError:
        if os.path.isfile(path):
            os.remove(path)  # no half-written GIF left behind
        raise
    return path
