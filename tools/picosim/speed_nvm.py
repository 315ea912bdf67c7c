"""An nvm sector whose record chooses Speed, for booting the emulated Pico into Speed.

``speed_nvm()`` returns the 4096 bytes of ``microcontroller.nvm`` that the firmware
would have written after a Speed match was chosen in the menu (``hw.menu.Menu.save``),
for ``tools.picosim.run.run(..., flash={"nvm": ...})``: the device boots with Speed
in its heap, and attract mode plays Speed.
"""


def speed_nvm(size=4096):
    """The nvm bytes of a record with Speed chosen (everything else at its default)."""
    from hw.games import SPEED
    from hw.menu import Menu

    nvm = bytearray(b"\xff" * size)  # erased flash
    menu = Menu(("beginner", "normal", "expert"))
    menu.more[0] = SPEED
    menu.save(nvm)
    return bytes(nvm)
