"""cosydb: a relational analysis database for the performance data of parallel programs."""

__version__ = "0.1.0"

#: Version of the on-disk layout (Parquet columns and catalog views).
SCHEMA_VERSION = 13
