"""Apache Spark as an engine for cosydb's model: a session with cosydb's settings and an
experiment's Parquet files as Spark views, on which the Spark SQL of ``sql/``
(``cosydb.dialects``) runs. pyspark is optional (``pip install 'cosydb[spark]'``) and needs Java 17.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

from . import database, evaluator, tables
from .errors import CosyError

#: Spark settings that give DuckDB's semantics where the two differ: ANSI mode off (NULL,
#: not an error, for a failed cast or an index out of range), size(NULL) is NULL, times in
#: UTC, recursive CTEs without a limit.
SETTINGS = {
    "spark.sql.ansi.enabled": "false",
    "spark.sql.legacy.sizeOfNull": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.cteRecursionLevelLimit": "-1",  # as DuckDB: a recursion runs until it is done
    "spark.sql.cteRecursionRowLimit": "-1",
    "spark.sql.adaptive.enabled": "true",  # shuffles coalesced to the rows they hold
    # keep the projection that gives a computed view new column ids (``kept``): removed, a
    # self-join of the view is left unresolved ("PLAN_VALIDATION_FAILED_RULE_IN_BATCH", Spark 4.3)
    "spark.sql.optimizer.excludedRules": "org.apache.spark.sql.catalyst.optimizer.RemoveRedundantAliases",
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
}

#: Buffers of a local-mode Spark, whose tasks share the driver's large heap: Spark sizes a
#: sort's or aggregation's memory page from the heap (64 MB with 12 GB for 2 cores) and a
#: broadcast's blocks at 4 MB, each an array that G1 allocates as a "humongous" object (over
#: half a region: 4 MB regions on a 12 GB heap) and that may start a concurrent collection:
#: 116 of them in a load and report of scorep-late_sender, 30 s of collector time
#: (docs/scale-out.md). With 8 MB regions whatever the heap, 2 MB pages and blocks are none;
#: a task can still hold 16 GB of pages (8,192 of them).
LOCAL_BUFFERS = {"spark.buffer.pageSize": "2m", "spark.broadcast.blockSize": "2m"}
LOCAL_JVM_OPTIONS = "-XX:G1HeapRegionSize=8m"

#: The driver's log4j2 configuration: errors only (Spark's default also logs INFO and WARN lines).
LOG_CONFIG = Path(__file__).with_name("spark-log4j2.properties")


def local_memory_mib() -> int:
    """The heap of a local-mode Spark (the driver's JVM, which runs the tasks too): half of
    this machine's memory (``SPARK_DRIVER_MEMORY`` overrides)."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**21


def local_cores(master: str) -> int | None:
    """The cores of a local-mode ``master`` (``local``, ``local[4]``, ``local[*]``,
    ``local[4,2]``); None for a cluster's."""
    match = re.fullmatch(r"local(?:\[(\d+|\*)(?:,\d+)?\])?", master)
    if match is None:
        return None
    return (os.cpu_count() or 1) if match.group(1) == "*" else int(match.group(1) or 1)


def session(master: str = "local[2]", settings: dict | None = None):
    """A Spark session on ``master`` with ``SETTINGS`` (and ``settings``)."""
    try:
        import sqlglot  # noqa: F401 - the translation of sql/ (cosydb.dialects)
        from pyspark.sql import SparkSession
    except ImportError:
        raise CosyError("--engine spark", "needs pyspark: pip install 'cosydb[spark]'") from None
    options = {
        "spark.master": master,
        "spark.app.name": "cosydb",
        "spark.driver.extraJavaOptions": f"-Dlog4j2.configurationFile={LOG_CONFIG.as_uri()}",
    }
    if master.startswith("local") and not os.environ.get("SPARK_DRIVER_MEMORY"):
        # local mode computes in the driver's JVM: Spark's default heap of 1 GiB fails at about 10M events
        options["spark.driver.memory"] = f"{local_memory_mib()}m"
    if cores := local_cores(master):
        # a shuffle in as many partitions as cores, not Spark's 200 (which adaptive execution coalesces)
        options["spark.sql.shuffle.partitions"] = str(cores)
        options |= LOCAL_BUFFERS
        options["spark.driver.extraJavaOptions"] += f" {LOCAL_JVM_OPTIONS}"
    options = {**SETTINGS, **options, **(settings or {})}
    _start_jvm(options)
    builder = SparkSession.builder
    for key, value in options.items():
        builder = builder.config(key, value)
    try:
        spark = builder.getOrCreate()
    except Exception as error:  # a master that cannot be reached, ...
        raise CosyError("--engine spark", f"Spark did not start: {_root_cause(error)}") from None
    spark.sparkContext.setLogLevel("ERROR")
    _python_workers(spark.sparkContext, master)
    # pyspark also logs each failed query with its JVM stack: cosydb reports it in one line
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    return spark


def _start_jvm(options: dict):
    """Start Spark's JVM with ``options`` unless this process runs one: its stdout and stderr
    (the JVM's warnings, log4j's lines, the Python workers' output in local mode) go to a
    temporary file, never to the terminal, where cosydb says what failed in one line."""
    from pyspark import SparkConf, SparkContext
    from pyspark.java_gateway import launch_gateway

    if SparkContext._gateway is not None:
        return
    output = tempfile.TemporaryFile()
    try:
        conf = SparkConf(loadDefaults=False).setAll(options.items())
        gateway = launch_gateway(conf, {"stdout": output, "stderr": output})
    except Exception as error:  # no Java, a master spark-submit refuses, ...
        problem = _jvm_failure(output) or _first_line(error)
        raise CosyError("--engine spark", f"Spark did not start: {problem}") from None
    SparkContext._ensure_initialized(gateway=gateway)


def _jvm_failure(output) -> str | None:
    """Why a JVM ended, from its ``output`` (a file): the innermost exception it printed
    (the last that is no stack frame), else its first line (``spark-class`` finding no Java)."""
    output.seek(0)
    lines = [
        line.removeprefix('Exception in thread "main" ').removeprefix("Caused by: ")
        for line in output.read().decode(errors="replace").splitlines()
        if line.strip() and not line[0].isspace() and not line.startswith("WARNING: Using incubator modules")
    ]
    raised = [line for line in lines if "Exception" in line or "Error" in line]
    return raised[-1] if raised else next(iter(lines), None)


def _python_workers(context, master: str) -> None:
    """Spark's Python workers (the trace readers' tasks) run the interpreter given by the
    user (``PYSPARK_PYTHON``, or ``spark.pyspark.python``, which pyspark alone leaves
    unused), else in local mode the interpreter running cosydb: ``python3`` on PATH may
    lack cosydb (a console script of a virtual environment that is not activated)."""
    if os.environ.get("PYSPARK_PYTHON"):
        return
    if context.getConf().get("spark.pyspark.python"):
        context.pythonExec = context.getConf().get("spark.pyspark.python")
    elif master.startswith("local") and sys.executable:
        context.pythonExec = sys.executable


def register_experiments(
    spark, experiments: list[tuple[int, Path]], names: set[str] | None = None, schemas: dict | None = None
) -> list[str]:
    """Spark views named like the stored tables over the Parquet files of the experiment
    directories of ``experiments`` ((experiment_id, directory), as the DuckDB catalog's
    views); ``names``: only those; ``schemas``: the Spark schema of a table's files where
    known (Spark infers it otherwise, in a job of its own). Returns the names registered
    (a table without files is left out)."""
    registered = []
    for name, table in tables.stored().items():
        if names is not None and name not in names:
            continue
        frames = []
        for experiment_id, directory in experiments:
            files = [str(p.resolve()) for p in table.files(Path(directory))]
            if files:
                schema = (schemas or {}).get(name) or _parquet_schema(files[0])
                reader = spark.read.schema(schema) if schema else spark.read
                frame = reader.parquet(*files)
                frames.append(frame if table.keyed else frame.selectExpr(f"{int(experiment_id)} AS experiment_id", "*"))
        if frames:
            union = frames[0]
            for frame in frames[1:]:
                union = union.unionByName(frame)
            union.createOrReplaceTempView(name)
            registered.append(name)
    return registered


#: The Spark type Spark reads a Parquet column of an Arrow type as (Spark's
#: ParquetToSparkSchemaConverter): unsigned integers widened, UINT64 as DECIMAL(20,0).
_PARQUET_TYPES = {
    "bool": "BOOLEAN",
    "int8": "TINYINT",
    "int16": "SMALLINT",
    "int32": "INT",
    "int64": "BIGINT",
    "uint8": "SMALLINT",
    "uint16": "INT",
    "uint32": "BIGINT",
    "uint64": "DECIMAL(20,0)",
    "float": "FLOAT",
    "double": "DOUBLE",
    "string": "STRING",
    "large_string": "STRING",
}


def _parquet_schema(path: str) -> str | None:
    """The Spark schema (DDL) Spark infers for Parquet file ``path``, read from its footer
    here (Spark infers it in a job of its own); None for a type not listed (Spark infers it)."""

    def spark_type(arrow_type) -> str | None:
        if isinstance(arrow_type, pa.DictionaryType):  # pyarrow's dictionary-encoded strings
            return spark_type(arrow_type.value_type)
        if isinstance(arrow_type, pa.ListType):
            item = spark_type(arrow_type.value_type)
            return item and f"ARRAY<{item}>"
        if isinstance(arrow_type, pa.Decimal128Type):
            return f"DECIMAL({arrow_type.precision},{arrow_type.scale})"
        return _PARQUET_TYPES.get(str(arrow_type))

    columns = [(field.name, spark_type(field.type)) for field in pq.read_schema(path)]
    if any(kind is None for _, kind in columns):
        return None
    return ", ".join(f"`{name}` {kind}" for name, kind in columns)


#: Below this many events Spark evaluates expressions interpreted, without compiling Java
#: for each query: its rows are few, and the JVM spends its cores compiling (javac-like
#: code generation, then the JIT on each generated class). Measured (local[2], load +
#: report): lulesh_hyb-8x2-small (321k events) 10-15 % faster interpreted, a synthetic
#: trace of 3M events 7 % slower (docs/scale-out.md).
INTERPRETED_BELOW_EVENTS = 1_000_000


#: Below this many events, in local mode, every view computed (``kept``) is broadcast to the
#: joins that read it. A computed view keeps its plan's size estimate, which for a join is
#: its inputs' sizes multiplied (up to 10^74 bytes on scorep-barrier's views): Spark plans a
#: shuffle for every join with it, and adaptive execution turns the join into a broadcast
#: only after running that shuffle, a job more per join. A small trace's views are small
#: (lulesh_hyb-8x2-small's, 321k events: 13 MB the largest by Spark's row sizes), and a
#: local broadcast crosses no network. lulesh_hyb-8x2-small, local[2], warm JVM: load +
#: report 110 -> 88 s (docs/scale-out.md).
BROADCAST_VIEWS_BELOW_EVENTS = 1_000_000
BROADCAST_VIEWS = "cosydb.broadcastViews"  # the session's setting that ``kept`` reads


def size_for(spark, events: int) -> None:
    """Set the session for ``events`` events: code generation (interpreted below
    ``INTERPRETED_BELOW_EVENTS``) and, in local mode, whether ``kept`` broadcasts views
    (below ``BROADCAST_VIEWS_BELOW_EVENTS``)."""
    interpreted = events < INTERPRETED_BELOW_EVENTS
    spark.conf.set("spark.sql.codegen.wholeStage", str(not interpreted).lower())
    spark.conf.set("spark.sql.codegen.factoryMode", "NO_CODEGEN" if interpreted else "FALLBACK")
    local = local_cores(spark.sparkContext.master) is not None
    spark.conf.set(BROADCAST_VIEWS, str(local and events < BROADCAST_VIEWS_BELOW_EVENTS).lower())


def _events(experiments: list[tuple[int, Path]]) -> int:
    """The events stored for ``experiments`` ((experiment_id, directory)), from their files' footers."""
    return sum(
        pq.ParquetFile(path).metadata.num_rows
        for _, directory in experiments
        for path in tables.REGISTRY["events"].files(Path(directory))
    )


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
            with described(spark, "cosydb decode"):
                results = spark.sparkContext.parallelize([(function, j) for j in jobs], len(jobs)).map(_task).collect()
        except Exception as error:  # a task that Spark gave up on (its executor lost, ...)
            if _from_spark(error):
                raise died(jobs[0], f"Spark: {_root_cause(error)}") from None
            raise
        for job, (status, value) in zip(jobs, results):
            if status == "error":
                where, problem = value
                raise CosyError(where or job[0], problem)
        return [value for _, value in results]

    return run


@contextlib.contextmanager
def described(spark, text: str):
    """The Spark jobs started inside are described as ``text`` (the job description of Spark's
    UI and event log, by which bench/bench_spark.py sums a model's or an entry's jobs), and
    the jobs after it as nothing."""
    spark.sparkContext.setJobDescription(text)
    try:
        yield
    finally:
        spark.sparkContext.setJobDescription(None)


def derive(
    spark, duck: duckdb.DuckDBPyConnection, experiments: list[tuple[int, Path]], written: set[str], say=lambda _t: None
) -> dict:
    """Compute the tables of ``sql/`` for staged ``experiments`` ((experiment_id, directory))
    with Spark SQL, all of them by the same statements (the model is keyed by
    ``experiment_id``), and write each experiment's rows of a table as Parquet part files in
    the directory of its file there (``tables.StoredTable.files`` reads them); the views of
    ``sql/`` they read become Spark views. ``duck`` binds each table's SQL for the column
    types a DuckDB load writes: it is left with a view of every table and object of ``sql/``
    over the experiments' files. Returns the seconds of each table."""
    from . import sqlviews

    register_experiments(spark, experiments, written)
    size_for(spark, _events(experiments))
    objects = sqlviews.ordered(sqlviews.load_objects(), written)
    # the tables and the views they read: the other views are computed when read, by a report
    read_by_tables = sqlviews.read_by(objects, {obj.name for obj in objects if obj.is_table})
    macros = _scalar_macros()
    derived = tables.derived()
    seconds = {}
    for name in written:
        database.create_table_view(duck, tables.REGISTRY[name], experiments)
    for obj in objects:
        where = obj.path
        if not obj.is_table:
            sqlviews.create(duck, obj)
        if obj.kind == "macro" or obj.name not in read_by_tables:
            continue  # scalar macros are inlined, table macros are helpers of the DuckDB shell
        say(f"deriving {obj.name} on Spark")
        started = time.perf_counter()
        try:
            with described(spark, f"cosydb derive {obj.name}"):
                frame = query(spark, obj.sql, where, macros, obj.name)
                if not obj.is_table:
                    kept(frame, obj.name)
                    seconds[f"derive:{obj.name}"] = time.perf_counter() - started
                    continue
                types = {row[0]: row[1] for row in duck.execute(f"DESCRIBE {obj.sql}").fetchall()}
                stored = _write(_cast(frame, types), derived[obj.name], experiments)
        except Exception as error:
            raise _failed(error, where) from None
        register_experiments(spark, experiments, {obj.name}, {obj.name: stored.schema})
        database.create_table_view(duck, derived[obj.name], experiments)
        seconds[f"derive:{obj.name}"] = time.perf_counter() - started
    return seconds


def _write(frame, table: tables.StoredTable, experiments: list[tuple[int, Path]]):
    """Write ``frame``'s rows of each of ``experiments`` as ``table``'s part files in its
    directory, without ``experiment_id``; returns the frame as written. Several experiments
    are written in one job, partitioned by ``experiment_id`` into a directory beside the
    first's table, whose partitions are then moved into place; an experiment without rows
    gets an empty part file of the table's columns (as Spark writes for one without rows)."""
    stored = frame.drop("experiment_id")
    if len(experiments) == 1:
        stored.write.parquet(str(table.path(experiments[0][1])))
        return stored
    together = table.path(experiments[0][1]).with_name(f".together-{table.stem}")
    frame.write.partitionBy("experiment_id").parquet(str(together))
    empty = None
    for experiment_id, directory in experiments:
        written = together / f"experiment_id={experiment_id}"
        if written.is_dir():
            written.rename(table.path(directory))
            continue
        if empty is None:  # the columns as Spark writes them: from a part written, else an empty write
            parts = sorted(together.glob("experiment_id=*/part-*.parquet"))
            if not parts:
                stored.limit(0).write.parquet(str(together / "empty"))
                parts = sorted((together / "empty").glob("part-*.parquet"))
            empty = pq.read_schema(parts[0]).empty_table()
        table.path(directory).mkdir()
        pq.write_table(empty, table.path(directory) / "part-00000-empty.parquet")
    shutil.rmtree(together)
    return stored


class SparkTables:
    """Where an evaluation of the catalog (``cosydb.evaluator.evaluate``) keeps its rows on Spark:
    each entry's SQL rendered for Spark, translated (``cosydb.dialects``) and computed into a
    view (``kept``). DuckDB binds its DuckDB rendering on ``duck`` (over the stored tables, and an empty table of the
    types of each entry computed) for the columns an entry returns, in DuckDB's order (Spark
    lists ``*`` of a USING join in another) and of DuckDB's types, as a local evaluation."""

    name = "spark"

    def __init__(self, spark, duck: duckdb.DuckDBPyConnection, macros: dict):
        self.spark, self.duck, self.macros = spark, duck, macros

    def create(self, name: str, sql: str, params: dict, where, engine_sql: str | None = None) -> None:
        columns = self._bound(sql, params, where)
        definition = ", ".join(f'"{c}" {t}' for c, t in columns.items())
        self.duck.execute(f"CREATE OR REPLACE TEMP TABLE {name} ({definition})")
        try:
            with described(self.spark, f"cosydb report {name}"):
                frame = _cast(query(self.spark, engine_sql or sql, where, self.macros, name, params), columns)
                kept(frame, name)
        except Exception as error:
            raise _failed(error, where) from None

    def columns(self, name: str) -> dict[str, str]:
        return evaluator.table_columns(self.duck, name)

    def drop(self, name: str) -> None:
        self.duck.execute(f"DROP TABLE IF EXISTS {name}")
        self.spark.catalog.dropTempView(name)

    @contextlib.contextmanager
    def workers(self, events: int):
        """One entry at a time, whatever the ``events``: Spark's jobs keep the cores busy already
        (entries from four or eight threads at once were no faster, docs/scale-out.md)."""
        yield [self]

    def release(self) -> None:
        """Free what the evaluation kept (``release``)."""
        release(self.spark)

    def arrow(self, sql: str, params: dict):
        columns = self._bound(sql, params, "query")
        try:
            with described(self.spark, "cosydb query"):
                return _cast(query(self.spark, sql, "query", self.macros, "query", params), columns).toArrow()
        except Exception as error:
            raise _failed(error, "query") from None

    def _bound(self, sql: str, params: dict, where) -> dict[str, str]:
        try:
            return {r[0]: r[1] for r in self.duck.execute(f"DESCRIBE {sql}", params).fetchall()}
        except duckdb.Error as error:
            raise CosyError(where, f"evaluation failed: {' '.join(str(error).split())}") from None


def release(spark) -> None:
    """Free what a load or an evaluation kept: every temporary view of the session (the next
    one registers the stored tables again), and then the rows checkpointed for them, which
    Spark's cleaner removes once the JVM has collected them. Without it the rows of every
    load and report of a session stay in the driver's memory."""
    for view in spark.sql("SHOW VIEWS").collect():  # (catalog.listTables fails in Spark 4.1)
        if view.isTemporary:
            spark.catalog.dropTempView(view.viewName)
    spark.sparkContext._jvm.System.gc()


def evaluation_tables(spark, duck: duckdb.DuckDBPyConnection, experiments: list[tuple[int, Path]]) -> SparkTables:
    """``SparkTables`` over the stored tables of ``experiments`` ((experiment_id, directory));
    ``duck``: a connection to the database's views file."""
    register_experiments(spark, experiments)
    size_for(spark, _events(experiments))
    return SparkTables(spark, duck, _scalar_macros())


def _scalar_macros() -> dict:
    """The scalar macros of ``sql/``, which the translation inlines (``dialects.scalar_macros``)."""
    from . import dialects, sqlviews

    objects = sqlviews.ordered(sqlviews.load_objects(), database.base_tables())  # rendered
    return dialects.scalar_macros({o.name: o.sql for o in objects if o.kind == "macro"})


def _cast(frame, columns: dict[str, str]):
    """``frame``'s ``columns`` in their order, cast to the Spark types of their DuckDB types."""
    return frame.selectExpr(*[f"CAST(`{c}` AS {_spark_type(t)}) AS `{c}`" for c, t in columns.items()])


def _failed(error: Exception, where) -> Exception:
    """A Spark error as cosydb's one line naming ``where``; any other error as it is."""
    if _from_spark(error):
        return CosyError(where, f"Spark failed: {_root_cause(error)}")
    return error


def _from_spark(error: Exception) -> bool:
    """Whether ``error`` is Spark's: raised by pyspark or py4j, or py4j's socket to a JVM
    that is gone (killed for memory by the system, ...)."""
    return type(error).__module__.startswith(("pyspark", "py4j")) or isinstance(error, ConnectionError)


def _root_cause(error: Exception) -> str:
    """The innermost Java exception of a JVM error (a failed task's own error, not the
    "An error occurred while calling o256.parquet" around it), else the first line; the
    exception a Python worker's traceback ends with; the remedy for a JVM out of memory."""
    text = str(error)
    cause = getattr(error, "java_exception", None)
    try:
        while cause is not None and cause.getCause() is not None:
            cause = cause.getCause()
        if cause is not None:
            text = f"{cause.getClass().getName()}: {cause.getMessage() or ''}".strip().rstrip(":")
    except Exception:  # noqa: BLE001 - the JVM is gone (it ran out of memory, ...): what py4j said
        pass
    if "Traceback (most recent call last)" in text:
        raised = [line.strip() for line in text.splitlines() if line.strip() and not line[0].isspace()]
        hint = " (the workers' Python, PYSPARK_PYTHON, needs cosydb)" if "No module named 'cosydb'" in text else ""
        return f"a Python worker failed: {raised[-1]}{hint}"
    if isinstance(error, ConnectionError):
        text = f"its JVM is gone (killed by the system for memory?): {text}"
    if "OutOfMemoryError" in text:
        text += " (give Spark more memory: SPARK_DRIVER_MEMORY=16g in local mode, else spark.executor.memory)"
    return _first_line(Exception(text))


def query(spark, sql: str, where, macros: dict, prefix: str, args: dict | None = None):
    """The DataFrame of ``sql`` (DuckDB's dialect) translated for Spark, bound to ``args``;
    each CTE the SQL marks ``MATERIALIZED`` is computed first, once (``kept``), as a view
    named ``<prefix>__<cte>``."""
    from . import dialects

    key = (sql, str(where), prefix)  # macros: those of sql/, the same in every call
    if key not in _TRANSLATED:
        _TRANSLATED[key] = dialects.statements(sql, "spark", where, macros, prefix)
    *hoisted, (_, final) = _TRANSLATED[key]
    for name, statement in hoisted:
        kept(spark.sql(statement, args=args), name)
    return spark.sql(final, args=args)


#: ``query``'s translations in this process (a test run loads and reports many traces)
_TRANSLATED: dict[tuple, list] = {}


def kept(frame, name: str):
    """``frame`` computed now into the executors' storage (memory, then disk) as view ``name``:
    later plans read its rows, not its plan (Spark does not reuse a cached plan inside a
    recursive CTE, and analyses a stack of views again for every query); broadcast to the
    joins that read it where the session says so (``size_for``)."""
    frame = frame.localCheckpoint(eager=True)
    # new column ids: the checkpoint keeps its plan's, and Spark (4.3) fails a UNION of two views
    # whose columns share ids ("key not found: a#0L"), as two views derived from a third can
    frame = frame.toDF(*frame.columns)
    if frame.sparkSession.conf.get(BROADCAST_VIEWS, "false") == "true":
        frame = frame.hint("broadcast")
    frame.createOrReplaceTempView(name)
    return frame


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


def _duckdb_type(spark_type: str) -> str:
    """The DuckDB type of a Spark column's type (``simpleString``): integers as integers
    (a DECIMAL(20,0) is DuckDB's UBIGINT), a NULL literal's type as DuckDB's "NULL"."""
    if spark_type.startswith("array<") and spark_type.endswith(">"):
        return _duckdb_type(spark_type[6:-1]) + "[]"
    if re.fullmatch(r"decimal\(\d+,0\)", spark_type):
        return "HUGEINT"
    return _DUCKDB_TYPES.get(spark_type, spark_type.upper())


_DUCKDB_TYPES = {
    "bigint": "BIGINT",
    "int": "INTEGER",
    "smallint": "SMALLINT",
    "tinyint": "TINYINT",
    "string": "VARCHAR",
    "void": '"NULL"',
}


def _first_line(error: Exception) -> str:
    return next((line.strip() for line in str(error).splitlines() if line.strip()), type(error).__name__)
