"""Tournaments and duplicate nights, as pure logic (standard library only).

- :mod:`.standings`: points from table places (ties share), the standings and their written tie-breaks
- :mod:`.swiss`: a Swiss round's tables of *n* (similar standings together, repeat tablemates avoided,
  computers or byes when the count does not divide)
- :mod:`.knockout`: knockout by tables (the top *k* of each table go on)
- :mod:`.duplicate`: the seed of a duplicate round and the per-deal comparison scoring

The service (``bot.tables.tournaments``) stores what happened and calls these; nothing here knows a
database, a table or Discord.
"""
