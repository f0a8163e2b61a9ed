"""Apache Spark as an engine for cosydb's model: a session with cosydb's settings and an
experiment's Parquet files as Spark views, on which the Spark SQL of ``sql/``
(``cosydb.dialects``) runs. pyspark is optional (``pip install 'cosydb[spark]'``) and needs Java 17.
"""

from __future__ import annotations

from pathlib import Path

from . import tables
from .errors import CosyError

#: Spark settings that give DuckDB's semantics where the two differ: ANSI mode off (NULL,
#: not an error, for a failed cast or an index out of range), size(NULL) is NULL, times in UTC.
SETTINGS = {
    "spark.sql.ansi.enabled": "false",
    "spark.sql.legacy.sizeOfNull": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}


def session(master: str = "local[2]", settings: dict | None = None):
    """A Spark session on ``master`` with ``SETTINGS`` (and ``settings``)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        raise CosyError("--engine spark", "needs pyspark: pip install 'cosydb[spark]'") from None
    builder = SparkSession.builder.master(master).appName("cosydb")
    for key, value in {**SETTINGS, **(settings or {})}.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def register_experiment(spark, directory: Path, experiment_id: int, names: set[str] | None = None) -> list[str]:
    """Spark views named like the stored tables over the Parquet files of one experiment
    directory, with its ``experiment_id`` (as the DuckDB catalog's views); ``names``: only
    those. Returns the names registered (a table without files is left out)."""
    registered = []
    for name, table in tables.stored().items():
        files = [str(p.resolve()) for p in table.files(Path(directory))]
        if not files or (names is not None and name not in names):
            continue
        frame = spark.read.parquet(*files)
        if not table.keyed:
            frame = frame.selectExpr(f"{int(experiment_id)} AS experiment_id", "*")
        frame.createOrReplaceTempView(name)
        registered.append(name)
    return registered
