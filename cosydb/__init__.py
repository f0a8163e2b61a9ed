"""cosydb: a relational analysis database for the performance data of parallel programs."""

__version__ = "0.1.0"

#: Version of the on-disk layout (Parquet columns and catalog views).
SCHEMA_VERSION = 15


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
