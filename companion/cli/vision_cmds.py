"""Subcommands (filled in by their issue)."""


def register(sub):
    pass
