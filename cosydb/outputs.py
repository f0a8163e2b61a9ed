"""Files that commands write (``export``, ``report --format html``): checked before any work,
and written atomically (a temporary file beside them, renamed into place)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from .errors import CosyError


def checked(output: str | os.PathLike, example: str) -> Path:
    """``output`` as a Path, if it can be written: its directory exists and it is no directory
    (``example``: a file name to suggest, e.g. run.cubex)."""
    output = Path(output)
    if not output.parent.is_dir():
        raise CosyError(output, "directory does not exist")
    if output.is_dir():
        raise CosyError(output, f"is a directory; give the file to write, e.g. {example}")
    return output


@contextlib.contextmanager
def replaced(output: Path) -> Iterator[Path]:
    """The temporary file to write ``output``'s content to; it replaces ``output`` when the
    block ends without an error, and is removed in any case."""
    tmp = output.with_name(f".{output.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, output)
    finally:
        tmp.unlink(missing_ok=True)
