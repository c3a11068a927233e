"""The Discord presentation: slash commands, the public table, ephemeral hands.

Nothing here touches the database or an engine's state: it calls the table
service and renders the plain views it returns.
"""
