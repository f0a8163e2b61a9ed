"""Apache Spark as an engine for cosydb's model: a session with cosydb's settings and an
experiment's Parquet files as Spark views, on which the Spark SQL of ``sql/``
(``cosydb.dialects``) runs. pyspark is optional (``pip install 'cosydb[spark]'``) and needs Java 17.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import duckdb

from . import database, tables
from .errors import CosyError

#: The engines a load runs on.
ENGINES = ("duckdb", "spark")

#: Spark settings that give DuckDB's semantics where the two differ: ANSI mode off (NULL,
#: not an error, for a failed cast or an index out of range), size(NULL) is NULL, times in UTC.
SETTINGS = {
    "spark.sql.ansi.enabled": "false",
    "spark.sql.legacy.sizeOfNull": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}


def check_engine(engine: str) -> str:
    if engine not in ENGINES:
        raise CosyError("--engine", f"'{engine}' is not one of {', '.join(ENGINES)}")
    return engine


def session(master: str = "local[2]", settings: dict | None = None):
    """A Spark session on ``master`` with ``SETTINGS`` (and ``settings``)."""
    try:
        import sqlglot  # noqa: F401 - the translation of sql/ (cosydb.dialects)
        from pyspark.sql import SparkSession
    except ImportError:
        raise CosyError("--engine spark", "needs pyspark: pip install 'cosydb[spark]'") from None
    builder = SparkSession.builder.master(master).appName("cosydb")
    for key, value in {**SETTINGS, **(settings or {})}.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as error:  # no Java, a master that cannot be reached, ...
        raise CosyError("--engine spark", f"Spark did not start: {_first_line(error)}") from None
    spark.sparkContext.setLogLevel("ERROR")
    # pyspark also logs each failed query with its JVM stack: cosydb reports it in one line
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
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


def _task(payload):
    """One Spark task: ``function(job)``, or the one-line error it raised (a CosyError keeps
    its file), so that the driver reports it as a local load would."""
    function, job = payload
    try:
        return ("ok", function(job))
    except CosyError as error:
        return ("error", (error.path, error.problem))
    except Exception as error:  # noqa: BLE001 - anything else: its type and text, one line
        return ("error", (None, f"{type(error).__name__}: {' '.join(str(error).split())}"))


def job_runner(spark):
    """A ``runner(function, jobs, died)`` for the trace readers: each job a Spark task."""

    def run(function, jobs, died):
        try:
            results = spark.sparkContext.parallelize([(function, j) for j in jobs], len(jobs)).map(_task).collect()
        except Exception as error:  # a task that Spark gave up on (its executor lost, ...)
            if type(error).__module__.startswith(("pyspark", "py4j")):
                raise died(jobs[0], f"Spark: {_first_line(error)}") from None
            raise
        for job, (status, value) in zip(jobs, results):
            if status == "error":
                where, problem = value
                raise CosyError(where or job[0], problem)
        return [value for _, value in results]

    return run


def derive(
    spark, duck: duckdb.DuckDBPyConnection, directory: Path, experiment_id: int, written: set[str], say=lambda _t: None
) -> dict:
    """Compute the tables of ``sql/`` for one staged experiment with Spark SQL and write each
    as Parquet part files in the directory of its file (``tables.StoredTable.files`` reads
    them); the views of ``sql/`` become Spark views. ``duck`` binds each table's SQL for the
    column types a DuckDB load writes: it is left with a view of every table and object of
    ``sql/`` over the experiment's files. Returns the seconds of each table."""
    from . import dialects, sqlviews  # sqlglot is optional: imported only when Spark runs

    register_experiment(spark, directory, experiment_id, written)
    objects = sqlviews.ordered(sqlviews.load_objects(), written)
    macros = dialects.scalar_macros({o.name: o.sql for o in objects if o.kind == "macro"})
    derived = tables.derived()
    seconds = {}
    for name in written:
        database.create_table_view(duck, tables.REGISTRY[name], [(experiment_id, directory)])
    for obj in objects:
        where = f"sql/{obj.name}.sql"
        if not obj.is_table:
            sqlviews.create(duck, obj)
        if obj.kind == "macro":  # scalar ones are inlined; table macros are helpers of the DuckDB shell
            continue
        try:
            frame = spark.sql(dialects.translate(obj.sql, "spark", where, macros))
            if not obj.is_table:  # computed once, when first read (spilling to disk beyond memory)
                frame.cache().createOrReplaceTempView(obj.name)
                continue
            say(f"deriving {obj.name} on Spark")
            started = time.perf_counter()
            types = {row[0]: row[1] for row in duck.execute(f"DESCRIBE {obj.sql}").fetchall()}
            frame = frame.selectExpr(*[f"CAST({c} AS {_spark_type(types[c])}) AS {c}" for c in frame.columns])
            frame.drop("experiment_id").write.parquet(str(derived[obj.name].path(directory)))
        except Exception as error:
            if type(error).__module__.startswith(("pyspark", "py4j")):
                raise CosyError(where, f"Spark failed: {_first_line(error)}") from None
            raise
        register_experiment(spark, directory, experiment_id, {obj.name})
        database.create_table_view(duck, derived[obj.name], [(experiment_id, directory)])
        seconds[f"derive:{obj.name}"] = time.perf_counter() - started
    return seconds


#: The Spark type a DuckDB column type is written as: Spark has no unsigned 64-bit integer
#: (ticks are below 2^63: 292 years of nanoseconds), and DuckDB writes HUGEINT to Parquet as DOUBLE.
_SPARK_TYPES = {
    "UBIGINT": "BIGINT",
    "HUGEINT": "DOUBLE",
    "UINTEGER": "BIGINT",
    "USMALLINT": "INT",
    "VARCHAR": "STRING",
}


def _spark_type(duckdb_type: str) -> str:
    if duckdb_type.endswith("[]"):
        return f"ARRAY<{_spark_type(duckdb_type[:-2])}>"
    if duckdb_type.startswith("STRUCT("):
        raise CosyError("sql/", f"a table column of type {duckdb_type} has no Spark form yet")
    return _SPARK_TYPES.get(duckdb_type, duckdb_type)


def _first_line(error: Exception) -> str:
    return next((line.strip() for line in str(error).splitlines() if line.strip()), type(error).__name__)
