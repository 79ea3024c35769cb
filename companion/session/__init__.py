"""The table session: the loop that feeds rolls and presses to a game, the journal, and the service glue."""
