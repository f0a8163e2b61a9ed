"""Errors a user can cause; the CLI prints them as one line and exits with code 2."""

import difflib


class CosyError(Exception):
    """A problem with the user's input, reported without a traceback."""

    def __init__(self, path, problem):
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")

    def __reduce__(self):  # raised in a reader process, it crosses to the parent by pickle
        return type(self), (self.path, self.problem)


def close_names(name: str, known) -> list[str]:
    """The (up to three) names of ``known`` closest to a mistyped ``name``: "did you mean"."""
    return difflib.get_close_matches(name, sorted(set(known)), n=3, cutoff=0.5)
