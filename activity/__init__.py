"""The Activity: the card table as a web page inside Discord (or in a browser alone, in local mode).

A second presentation beside ``cogs/``: an aiohttp server in the bot's own process (the built
page, sign-in, a WebSocket per screen) over the same table service. It imports neither ``cogs``
nor the database; what both presentations need lives below them (``bot.tables``,
``bot.games.shown``, ``bot.catalogues``).
"""
