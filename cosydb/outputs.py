"""Files that commands write (``export``, ``report --format html``): checked before any work,
and written atomically (a temporary file beside them, renamed into place). Only a regular
file or a new path is written; a symbolic link is written through to the regular file it
names, as ``cp`` does (that file is replaced, the link kept); anything else (a device, a
FIFO, a dangling link) is refused."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from .errors import CosyError

_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
)


def checked(output: str | os.PathLike, example: str) -> Path:
    """``output`` as a Path, if it can be written: its directory exists and it is a regular
    file, a symbolic link to one, or a new path (``example``: a file name to suggest, e.g. run.cubex)."""
    output = Path(output)
    target = _target(output, example)
    if not target.parent.is_dir():
        raise CosyError(output, "directory does not exist")
    return output


def broken_link(path: Path) -> str | None:
    """What is wrong with ``path`` if it is a symbolic link that names nothing: a loop, or a
    dangling link; None otherwise."""
    if not path.is_symlink():
        return None
    try:
        os.stat(path)
    except OSError as error:
        return "symbolic link loop" if error.errno == errno.ELOOP else "symbolic link to nothing (dangling)"
    return None


def _target(output: Path, example: str = "out.json") -> Path:
    """The file that writing ``output`` replaces: ``output``, or the file a symbolic link there names."""
    problem = broken_link(output)
    if problem:
        raise CosyError(output, problem)
    target = Path(os.path.realpath(output)) if output.is_symlink() else output
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    if stat.S_ISDIR(mode):
        raise CosyError(output, f"is a directory; give the file to write, e.g. {example}")
    for test, kind in _KINDS:
        if test(mode):
            raise CosyError(output, f"is {kind}, not a regular file; give the file to write, e.g. {example}")
    return target


@contextlib.contextmanager
def replaced(output: Path) -> Iterator[Path]:
    """The temporary file to write ``output``'s content to; it replaces ``output`` (or the file
    a symbolic link there names) when the block ends without an error, and is removed in any
    case. A failure to write it (a full disk) names ``output``."""
    target = _target(output)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as error:
        if error.filename not in (None, str(tmp)):
            raise
        raise CosyError(output, error.strerror or " ".join(str(error).split())) from None
    finally:
        tmp.unlink(missing_ok=True)
