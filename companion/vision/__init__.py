"""The camera's eyes: find dice in a frame and read their top faces, honestly (a doubtful die reads as None)."""
from .profile import Profile, ProfileError
from .reader import DiceReader, ReadDie

__all__ = ["DiceReader", "Profile", "ProfileError", "ReadDie"]
