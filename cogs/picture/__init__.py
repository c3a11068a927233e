"""Pictures the bot draws with Pillow: the table, card faces (no Discord here, only words and cards)."""

from .fonts import draws_language
from .table import FILENAME, CardRow, SeatPlate, TablePicture, draw_table, picture_inputs

__all__ = ["FILENAME", "CardRow", "SeatPlate", "TablePicture", "draw_table", "draws_language", "picture_inputs"]
