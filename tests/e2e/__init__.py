"""End-to-end tests: the real bot, as its own process, against the Discord double."""
