"""Dice Companion: a table referee for real dice."""

__version__ = "0.1.0"
