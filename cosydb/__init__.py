"""cosydb: a relational analysis database for the performance data of parallel programs."""

from pathlib import Path as _Path

# Installed, loaders/, sql/, properties/ and fixtures/ of the repository are the subpackages
# cosydb.loaders, cosydb.sql, ... (pyproject.toml). Imported straight from a checkout, they are
# found beside this directory: Python started in the repository's root (``python -c``, ``-m``:
# Spark's Python workers, tests' helper processes) imports this directory, not the installed copy.
_checkout = _Path(__file__).resolve().parent.parent
if not (_Path(__file__).parent / "sql").is_dir() and (_checkout / "sql" / "__init__.py").is_file():
    __path__.append(str(_checkout))

__version__ = "0.1.0"

#: Version of the on-disk layout (Parquet columns and catalog views).
SCHEMA_VERSION = 21


def __getattr__(name: str):
    """``cosydb.open``, ``cosydb.load``, ``cosydb.Database`` (and its results ``Report``,
    ``Cube``, ``Diff``): the Python API (cosydb.api), imported when first used so that the
    command line starts without it; ``cosydb.CosyError``: what every error of a user is."""
    if name in ("open", "load", "Database", "Report", "Cube", "Diff"):
        from . import api

        return getattr(api, name)
    if name == "CosyError":
        from .errors import CosyError

        return CosyError
    raise AttributeError(f"module 'cosydb' has no attribute '{name}'")
