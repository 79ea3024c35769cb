"""Screens, displays and buttons: everything a player sees and presses."""
