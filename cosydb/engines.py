"""The engines that compute a load's model and a report's catalog, one object per load or
report (``--engine``): DuckDB on this machine, or Apache Spark (``cosydb.spark``) on a
Spark master. Each reads a trace (``read``: Spark decodes an OTF2 trace's locations in
Spark tasks), derives the model of staged experiments (``derive``; None: the load derives
it on DuckDB, a location partition at a time) and keeps the rows of an evaluation of the
catalog (``tables``). ``name`` is what templates test (``engine == 'spark'``) and what a
report's stored evaluation records."""

from __future__ import annotations

from pathlib import Path

import duckdb

from . import spark
from .errors import CosyError
from .evaluator import DuckDBTables

#: The engines by name (``--engine``), the default first.
NAMES = ("duckdb", "spark")


def check(name: str) -> str:
    """``name`` if it names an engine, else a one-line error (before any work is done)."""
    if name not in NAMES:
        raise CosyError("--engine", f"'{name}' is not one of {', '.join(NAMES)}")
    return name


def start(name: str, spark_master: str | None = None):
    """The engine ``name`` ready to work (Spark: its session on ``spark_master``, default local[*])."""
    return SparkEngine(spark_master) if check(name) == "spark" else DuckDBEngine()


class DuckDBEngine:
    name = "duckdb"
    derive = None  # the load derives the model on DuckDB itself (cosydb.loading._derive)

    def read(self, loader, anchor: Path, sink, workers: int | None, options: dict):
        return loader.read(anchor, sink, workers, **options)

    def tables(self, con: duckdb.DuckDBPyConnection, experiments: list[tuple[int, Path]]):
        return DuckDBTables(con)


class SparkEngine:
    name = "spark"

    def __init__(self, spark_master: str | None):
        self.session = spark.session(spark_master or "local[*]")

    def read(self, loader, anchor: Path, sink, workers: int | None, options: dict):
        if loader.FORMAT != "otf2":  # the other readers are sequential
            return loader.read(anchor, sink, workers, **options)
        parallelism = workers or self.session.sparkContext.defaultParallelism
        return loader.read(anchor, sink, parallelism, spark.job_runner(self.session))

    def derive(self, duck, experiments: list[tuple[int, Path]], written: set[str], say) -> dict:
        return spark.derive(self.session, duck, experiments, written, say)

    def release(self) -> None:
        """Free what the session kept for a load (``spark.release``)."""
        spark.release(self.session)

    def tables(self, con: duckdb.DuckDBPyConnection, experiments: list[tuple[int, Path]]):
        return spark.evaluation_tables(self.session, con, experiments)
