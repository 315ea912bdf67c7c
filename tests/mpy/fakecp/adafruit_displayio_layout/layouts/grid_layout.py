"""Fake ``GridLayout``: places each content in its cell by its anchor, once (set-up)."""

from displayio import Group


class GridLayout(Group):
    def __init__(self, x, y, width, height, grid_size, cell_padding=0):
        super().__init__(x=x, y=y)
        self.size = (width, height)
        self.grid_size = grid_size
        self.cell_padding = cell_padding
        self.cells = []

    def add_content(self, cell_content, grid_position, cell_size, cell_anchor_point=(0, 0),
                    layout_cells=True):
        self.cells.append((cell_content, grid_position, cell_anchor_point))
        if layout_cells:
            self.layout_cells()

    def layout_cells(self):
        cell_w = self.size[0] // self.grid_size[0]
        cell_h = self.size[1] // self.grid_size[1]
        for content, (column, row), (ax, ay) in self.cells:
            content.x = column * cell_w + int((cell_w - content.width) * ax)
            content.y = row * cell_h + int((cell_h - content.height) * ay)
            if content not in self:
                self.append(content)
