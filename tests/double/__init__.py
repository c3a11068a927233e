"""A local stand-in for Discord that the real bot connects to (see server.py)."""

from .bot_process import BotProcess
from .server import DiscordDouble, Interaction, Message, User

__all__ = ["BotProcess", "DiscordDouble", "Interaction", "Message", "User"]
