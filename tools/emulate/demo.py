"""A demo match: two ``engine.bot`` players on the keyboard, recorded as frames and a GIF.

The firmware has no attract mode, so the demo plays a match the way two people at
the keyboard would: START twice (title, then the menu's defaults), then each seat's
bot watches the firmware's game and presses its keys through the same keyboard
path as a person (:mod:`.keys`). ``make play`` runs it headless when there is no
display; ``--demo`` runs it in the window too.
"""

import os

from tools.emulate.keys import POSITION_KEYS, key_event

START_TAPS_MS = (500, 1200)  # title -> menu -> match with the menu's defaults
KEY_HOLD_MS = 40


class DemoPlayers:
    """Both seats played by ``engine.bot.Bot`` through keyboard events."""

    def __init__(self, level=1, seed=1):
        self.level = level
        self.seed = seed
        self.bots = None
        self.last_now = None

    def install(self, emu):
        """Schedule the START taps and hook the bots into every emulator turn."""
        import pygame

        for ms in START_TAPS_MS:
            emu.schedule(ms, lambda e: pygame.event.post(key_event("space", True)))
            emu.schedule(ms + KEY_HOLD_MS, lambda e: pygame.event.post(key_event("space", False)))
        emu.every_loop.append(self.turn)

    def turn(self, emu, now):
        """Between two firmware loops: let each bot look and maybe press a key."""
        import pygame
        from engine.bot import Bot
        from hw.app import GAME

        app = emu.app
        if app is None or app.mode != GAME or app.paused:
            self.last_now = None
            return
        game = app.game
        if self.bots is None:
            self.bots = [Bot(game, seat, self.level, self.seed + seat) for seat in range(2)]
        if self.last_now is None:  # a game has just started (or play resumed)
            for bot in self.bots:
                bot.reset(game.clock)
        # The engine has advanced to the previous loop's time: bots look at that.
        seen = game.clock
        for seat, bot in enumerate(self.bots):
            pos = bot.step(seen)
            if 0 <= pos < 8:
                name = POSITION_KEYS[seat][pos]
                pygame.event.post(key_event(name, True))
                emu.schedule(emu.elapsed() + KEY_HOLD_MS,
                             lambda e, n=name: pygame.event.post(key_event(n, False)))
        self.last_now = now


def make_gif(frames, path, scale=1, last_hold_ms=3000):
    """Write an animated GIF of ``frames`` (``[(ms, png path)]``); return ``path``."""
    from PIL import Image

    images, durations = [], []
    for i, (ms, png) in enumerate(frames):
        image = Image.open(png).convert("RGB")
        if scale != 1:
            image = image.resize((image.width * scale, image.height * scale), Image.NEAREST)
        images.append(image)
        nxt = frames[i + 1][0] if i + 1 < len(frames) else ms + last_hold_ms
        durations.append(max(20, nxt - ms))  # GIF viewers clamp shorter delays
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations,
                   loop=0, optimize=False)
    return path
