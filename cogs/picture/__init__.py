"""Pictures the bot draws with Pillow: the table, card faces (no Discord here, only words and cards)."""

from .fonts import distinct
from .table import FILENAME, CardRow, SeatPlate, TablePicture, draw_table, picture_inputs

__all__ = ["FILENAME", "CardRow", "SeatPlate", "TablePicture", "distinct", "draw_table", "picture_inputs"]
