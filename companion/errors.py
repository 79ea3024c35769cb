"""Failures a person can act on. The CLI prints them as one line and exits non-zero; nothing else is shown."""


class CompanionError(Exception):
    """A failure with a one-line message and the exit status the command ends with."""

    exit_code = 1


class ConfigError(CompanionError, ValueError):
    """A configuration file that is missing, unreadable or has a bad key: the message names the file and key."""
