"""Benchmarks of Trick Table: ``python -m bench engine|tables|start|players|reading|picture|events|rest-budget`` print
figures.

They live beside the product, not inside it: the modules here import ``bot`` (and, to time the
pictures, ``cogs``) from above, and nothing in ``bot`` or ``cogs`` imports them
(``tests/test_imports.py`` checks both). One module a benchmark:

- ``engine``: random matches through the engine contract, deals per second;
- ``tables``: many tables played at once through the table service and the database;
- ``start``: a start over many open tables (seeded straight into the database);
- ``players``: the computer players' decision times and strength (``ismcts``, ``own_ismcts`` and ``baseline``:
  against OpenSpiel's ISMCTS, an ISMCTS of our own over strong's deals, strong as it was);
- ``reading``: how well strong's model of the others' bids and plays (Oh Hell) fits a player's real ones;
- ``picture``: time to draw the end-of-match chart and the table's picture;
- ``events``: a Swiss tournament at full speed, the time of each round change;
- ``rest_budget``: the REST budget shared through Redis, near and 200 ms away: calls served a second;
- ``database``: the fresh databases (a PostgreSQL schema each) the service benchmarks run on.

Tests never time anything; the figures are in the README's benchmark section.
"""
