"""cosydb: a relational analysis database for the performance data of parallel programs."""

__version__ = "0.1.0"

#: Version of the on-disk layout (Parquet columns and catalog views).
SCHEMA_VERSION = 13


def __getattr__(name: str):
    """``cosydb.open``, ``cosydb.load``, ``cosydb.Database``: the Python API (cosydb.api),
    imported when first used so that the command line starts without it."""
    if name in ("open", "load", "Database", "Report"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'cosydb' has no attribute '{name}'")
