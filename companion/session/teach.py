"""Teaching the camera a die's faces from the OLED (MENU > Teach ...), as `calibrate chance-die` does from files.

The screen asks for each face in turn; each settled view of exactly one die in the tray is one example. Once every
face has been seen `shows` times the faces are taught (companion.vision.faces) and handed to `on_done`; BACK
abandons the teaching and changes nothing.
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..ui.controls import Press
from ..ui.screens import Prompt
from ..vision.faces import FaceModel, FaceModelError, die_crop, face_features


class TeachScreen:
    def __init__(self, kind: str, faces: Sequence[str], on_done: Callable[[FaceModel | None], None],
                 shows: int = 3):
        self.kind = kind
        self.faces = tuple(faces)
        self.on_done = on_done
        self.shows = shows
        self.examples: dict[str, list] = {face: [] for face in self.faces}
        self.message = ""

    @property
    def face(self) -> str | None:
        return next((f for f in self.faces if len(self.examples[f]) < self.shows), None)

    def see(self, frame, found) -> None:
        """A settled view with the (centre, size) of each die found: one die is one example of the face asked for.
        A view that cannot be an example (no die, several, a die too small to read) says why and counts for
        nothing, so the player shows the face again."""
        if self.face is None:
            return
        if len(found) != 1:
            self.message = f"show 1 die, not {len(found)}"
            return
        [(center, size)] = found
        crop = die_crop(frame, center, size)
        try:
            face_features(crop)
        except FaceModelError:
            self.message = "die too small: zoom in"
            return
        self.message = ""
        self.examples[self.face].append(crop)
        if self.face is None:
            self.on_done(FaceModel.teach(self.kind, self.examples))

    def press(self, press: Press) -> None:
        if press is Press.BACK:
            self.on_done(None)

    def prompt(self) -> Prompt:
        face = self.face or ""
        seen = len(self.examples.get(face, ()))
        return Prompt(header=f"TEACH  {self.kind}", body=(f"Show face: {face}"[:21], f"view {seen + 1} of "
                                                          f"{self.shows}, move it", "between views"),
                      status=self.message, hints="BACK cancel")
