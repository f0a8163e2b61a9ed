"""Errors a user can cause; the CLI prints them as one line and exits with code 2, the Python
API (cosydb.api) raises them."""

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


def problem_text(error: Exception) -> str:
    """The one line a user reads for an error of theirs that is no CosyError: DuckDB's message
    (a table that does not exist, a syntax error, too little memory: ``resources.error_text``),
    an OSError's file and reason (``run.cubex: Permission denied``), else its text."""
    import duckdb

    from .resources import error_text

    if isinstance(error, duckdb.Error):
        return error_text(error)
    if isinstance(error, OSError) and error.filename and error.strerror:
        return f"{error.filename}: {error.strerror}"
    return " ".join(str(error).split())


def user_error(error: Exception, where) -> CosyError:
    """``error`` (DuckDB's, or an OSError) as the CosyError a user of the Python API catches:
    one line naming the file at fault (an OSError's own, else ``where``: the database) and the
    problem (``problem_text``)."""
    if isinstance(error, OSError) and error.filename and error.strerror:
        return CosyError(error.filename, error.strerror)
    return CosyError(where, problem_text(error))
