"""cosydb's SQL on Apache Spark (cosydb.dialects): the rewrites of what sqlglot does not
translate keep DuckDB's results, every model and property translates or fails in one line
naming its file, and a Spark load and report equal DuckDB's on the shared traces with Scalasca's numbers."""

import json
import math
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
import sqlglot
from conftest import SCALASCA_TRACES, TRACES, assert_stored_tables_equal, differing_rows, made_once, real_trace
from cosydb.fixtures.generator import TraceBuilder

from cosydb import catalog, database, dialects, evaluator, spark, sqlviews, tables, templating
from cosydb.errors import CosyError
from cosydb.loading import load, load_runs

#: Models without rows on the constructed hybrid run: profile-only inputs, and results of
#: ``cosydb report`` (none stored after a load).
EMPTY_ON_HYBRID = {
    "critical_path_segments",  # no MPI_Init / MPI_Finalize in the constructed run
    "problem_places",
    "problems",
    "cnode_callpaths",
    "cnode_paths",
    "hpf_summary",
    "sm_summary_input",
    "critical_path_summary",
    "root_cause_summary",
    "report_rows",
    "run_phases",  # like problems, the report's view of property_results (none here)
}


def _objects():
    return sqlviews.ordered(sqlviews.load_objects(), set(tables.stored()) - set(tables.derived()))


def _macros(objects):
    return dialects.scalar_macros({o.name: o.sql for o in objects if o.kind == "macro"})


def _portable_duckdb(sql: str) -> str:
    """``sql`` with cosydb's rewrites applied, rendered back for DuckDB (to run them there)."""
    return dialects.rewritten(sql, "test").sql(dialect="duckdb")


#: ASOF joins whose left key reads one table (rewritten by sorting keys) or two (by intervals).
ASOF_LEFT_SIDES = {
    "one table": ("l", "l.k + 1"),
    "two tables": ("l cross join (select 1 as one) as z", "l.k + z.one"),
}


@pytest.mark.parametrize("op", [">=", ">", "<=", "<"])
@pytest.mark.parametrize("side", ["", "left"])
@pytest.mark.parametrize("form", sorted(ASOF_LEFT_SIDES))
def test_asof_rewrite_matches_duckdb_asof(op, side, form):
    """Random keys with ties, gaps and NULLs: either rewrite gives DuckDB's ASOF rows."""
    rng = random.Random(f"{op}{side}")
    con = duckdb.connect()
    con.execute("create table l (id int, g int, k int)")
    con.execute("create table r (g int, k int, v int)")
    left_rows = [(i, rng.randint(0, 3), rng.randint(0, 40)) for i in range(300)]
    right_rows = [(rng.randint(0, 3), rng.choice([None, *range(0, 40, 3)]), v) for v in range(120)]
    for name, rows in (("l", left_rows), ("r", right_rows)):  # each one statement, not a row at a time
        con.register("batch", pa.table({f"c{i}": column for i, column in enumerate(zip(*rows))}))
        con.execute(f"insert into {name} select * from batch")
        con.unregister("batch")
    # ties: the matched key is unique, not the row DuckDB picks among equal keys
    left, key = ASOF_LEFT_SIDES[form]
    original = f"""
        select l.id, r.k from {left} asof {side} join r on l.g = r.g and {key} {op} r.k
    """
    expected = sorted(con.execute(original).fetchall())
    rewritten = _portable_duckdb(original)
    assert re.search(r"\basof\s", rewritten, re.I) is None
    assert ("cosydb_asof_next" in rewritten or "cosydb_asof_previous" in rewritten) == (form == "two tables")
    assert sorted(con.execute(rewritten).fetchall()) == expected
    assert len(expected) == (300 if side else len(expected)) and expected


def test_asof_rewrite_hides_its_helper_column():
    con = duckdb.connect()
    con.execute("create table l as select 1 as g, 5 as k")
    con.execute("create table r as select 1 as g, 3 as k, 7 as v")
    sql = _portable_duckdb("select *, r.* from l asof join r on l.g = r.g and l.k >= r.k")
    assert con.execute(sql).fetchall() == [(1, 5, 1, 3, 7, 1, 3, 7)]


def test_scalar_macro_inlined_with_its_arguments():
    objects = _objects()
    sql = dialects.translate("select ticks_to_s(t + 1, o, r) as s from x", "spark", "test", _macros(objects))
    assert "ticks_to_s" not in sql.lower() and "t + 1" in sql


def test_list_aggregate_keeps_order_and_nulls():
    """Spark's collect_list drops NULLs and order: the translation sorts structs."""
    sql = dialects.translate("select list(v order by k desc nulls first, v) from t", "spark", "test")
    assert "ARRAY_SORT" in sql and "STRUCT" in sql
    assert dialects.translate("select a[i], a[2], a[2:n]", "spark", "t") == (
        "SELECT ELEMENT_AT(a, CAST(i AS INT)), ELEMENT_AT(a, 2), SLICE(a, 2, CAST(n - 2 + 1 AS INT))"
    )


@pytest.mark.spark
def test_ordered_lists_inside_json_object_keep_order_and_nulls_on_spark(spark_session):
    """A distribution's JSON (templates/asl.sql) nests ordered lists in json_object: on Spark
    they keep their order and their NULLs, as DuckDB's (keys and values stay aligned)."""
    sql = (
        "select g, json_object('n', count(*), 'by', to_json(map(list(l order by l desc), list(v order by l desc))))"
        "::varchar as j from (values (1, 1, 2.5::double), (1, 2, null), (1, 3, 1.5::double), (2, 4, null))"
        " as t(g, l, v) group by g order by g"
    )
    expected = [(g, json.loads(j)) for g, j in duckdb.sql(sql).fetchall()]
    assert list(expected[0][1]["by"]) == ["3", "2", "1"] and expected[1][1]["by"] == {"4": None}
    translated = dialects.translate(sql, "spark", "test")
    assert [(r[0], json.loads(r[1])) for r in spark_session.sql(translated).collect()] == expected
    assert [list(j["by"]) for _, j in expected] == [
        list(json.loads(r[1])["by"]) for r in spark_session.sql(translated).collect()
    ]


#: A window frame from after UNBOUNDED PRECEDING to UNBOUNDED FOLLOWING (in any case).
SHRINKING_FRAME = re.compile(r"between\s+(?!unbounded\s+preceding)[^()]*?\band\s+unbounded\s+following", re.I)


def test_every_model_and_property_translates():
    objects = _objects()
    macros = _macros(objects)
    names = {o.name for o in objects} | set(tables.stored())
    views = {o.name for o in objects if o.kind == "view" and not o.is_table}
    entries = [(o.path, o.sql) for o in objects if o.kind == "view"]
    cat = catalog.load()
    for prop in cat.values():
        if prop.kind != "category":
            where = str(prop.path).split("properties/")[-1]
            # rendered for Spark: the engine's implementation of a dispatched macro
            entries.append((where, evaluator.render(prop, cat, names, views=views, engine_name="spark").sql))
    for language in ("mpi", "hpf", "openmp"):  # every entry compiled from ASL (nested subqueries decorrelated)
        spec = catalog.asl_specification(language)
        compiled = catalog.load([spec])
        for prop in compiled.values():
            if Path(prop.path) == spec and prop.kind != "category":
                rendered = evaluator.render(prop, compiled, names, views=views, engine_name="spark").sql
                entries.append((f"{language}.asl: {prop.name}", rendered))
    for where, sql in entries:
        # each statement Spark runs: the hoisted CTEs', then the query's
        for _, translated in dialects.statements(sql, "spark", where, macros):
            tree = sqlglot.parse_one(translated, read="spark")
            assert not any(j.args.get("method") for j in tree.find_all(sqlglot.exp.Join)), where
            assert not any(c.args.get("materialized") is not None for c in tree.find_all(sqlglot.exp.CTE)), where
            # no WITH names two CTEs alike (Spark: DUPLICATED_CTE_NAMES; sqlglot moves nested CTEs up to it)
            for with_ in tree.find_all(sqlglot.exp.With):
                aliases = [cte.alias for cte in with_.expressions]
                assert len(aliases) == len(set(aliases)), (where, sorted(a for a in aliases if aliases.count(a) > 1))
            # no frame that Spark computes again for every row (test_frame_to_unbounded_following...)
            assert not SHRINKING_FRAME.search(translated), where
    assert len(entries) > 150


def test_dispatched_macro_renders_each_engine_its_implementation():
    """A template macro with one implementation per engine (delay_costs' propagation: Spark
    has no aggregate in a recursive step) renders the engine's, and only that."""
    cat = catalog.load()
    names = database.object_names()
    duck, spark_sql = (evaluator.render(cat["delay_costs"], cat, names, engine_name=e).sql for e in ("duckdb", "spark"))
    assert "sum(p.cost_s * e.factor)" in duck and "group by p.class" in duck
    assert "p.cost_s * e.factor" in spark_sql and "sum(p.cost_s * e.factor)" not in spark_sql


@pytest.mark.parametrize(
    "sql, construct",
    [
        ("select 1 as a union all by name select 2 as a", "UNION ... BY NAME"),
        (
            "select max(x) over (order by t range between unbounded preceding and current row exclude group) from u",
            "EXCLUDE clause is not supported",
        ),
        (  # a subquery reading two tables two levels out, inside a query of no table to carry them
            "select (select 1 + (select max(y) from b where b.k = a.k and b.z = x.z)) from a cross join x",
            "a subquery reads a.k from a query two or more levels out",
        ),
    ],
)
def test_untranslatable_construct_is_one_line_naming_file_and_construct(sql, construct):
    with pytest.raises(CosyError) as raised:
        dialects.translate(sql, "spark", "plugins/mine.sql")
    message = str(raised.value)
    assert message.startswith("plugins/mine.sql: ") and construct in message and "\n" not in message


@pytest.fixture(scope="module")
def spark_session():
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java 17 (Debian openjdk-17-jre-headless): not installed")
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install 'cosydb[spark]')")
    # 6 GiB of heap, not half the machine's memory: two workers may each run a JVM
    session = spark.session("local[2]", {"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "6g"})
    yield session
    session.stop()


def hybrid_run() -> TraceBuilder:
    """2 ranks x 2 threads: an OpenMP region with a barrier and a lock, then a late send
    from rank 0 to rank 1, a barrier, an allreduce and a late receiver (every OpenMP and MPI
    model has rows)."""
    b = TraceBuilder(2, threads=2, counters=("PAPI_TOT_INS",))
    for r in range(2):
        master = b[r]
        with master.open("main", 0, 40_000):
            master.region("init", 100, 1000, counters={"PAPI_TOT_INS": 50})
            master.fork(1000, 2)
            for t in range(2):
                thread = b.thread(r, t)
                thread.team_begin(1100 + 200 * t)
                with thread.open("!$omp parallel @a.c:1", 1200 + 200 * t, 6000):
                    thread.region("work", 1210 + 200 * t, 3000 + 1000 * t + 500 * r)
                    thread.acquire_lock(3100 + 1000 * t + 500 * r, 7, 2 * r + t)
                    thread.release_lock(3200 + 1000 * t + 500 * r, 7, 2 * r + t)
                    thread.region("!$omp implicit barrier @a.c:9", 5000, 5900)
                thread.team_end(6100 + 100 * t)
            master.join(6500)
            if r == 0:
                master.region("compute", 7000, 12_000)
                master.mpi_send(12_000, 12_500, 1, 3, 800)
            else:
                master.mpi_recv(7000, 12_600, 0, 3, 800)
            master.collective("MPI_Barrier", 13_000 + 1000 * r, 15_000)
            master.collective("MPI_Allreduce", 16_000, 18_000 + 100 * r, sent=8, received=8)
            if r == 1:  # a late receiver: the send waits from 19000 for the receive at 21000
                master.mpi_send(19_000, 22_000, 0, 4, 1 << 20, call="MPI_Ssend")
            else:
                master.mpi_recv(21_000, 22_100, 1, 4, 1 << 20)
    return b


@pytest.mark.spark
def test_spark_fixed_priority_map_keeps_what_scalascas_map_keeps(spark_session):
    """Spark's implementation of the dispatched fixed_priority_map (aggregate, zip_with),
    translated and run on Spark, holds the hand-worked maps of test_time_maps."""
    from test_time_maps import HAND_WORKED, entries_list

    macro = templating.render(
        "{% import 'templates/scalasca.sql' as scalasca with context %}{{ scalasca.fixed_priority_map('entries') }}",
        "test",
        templating.environment([catalog.builtin_dir()]),
        engine="spark",
    )
    assert "aggregate(" in macro
    for entries, held in HAND_WORKED:
        sql = dialects.translate(f"select {macro} as m from (select {entries_list(entries)} as entries)", "spark", "t")
        (row,) = spark_session.sql(sql, args={"p_time_map_entries": 2}).collect()
        assert dict(zip(row.m.ks, row.m.vs, strict=True)) == pytest.approx(held), entries


@pytest.mark.spark
def test_models_on_spark_equal_duckdb(spark_session, tmp_path):
    """Each model of sql/ computed by Spark SQL from DuckDB's inputs has DuckDB's rows, on a
    constructed MPI+OpenMP run; hashes (an identity per engine) are left out."""
    db = tmp_path / "hybrid.cosydb"
    load(hybrid_run().write(tmp_path / "hybrid"), db)
    con = database.connect(db)
    spark.size_for(spark_session, spark.INTERPRETED_BELOW_EVENTS)  # as for a large trace: compiled
    spark.register_experiments(spark_session, [(1, database.experiment_dirs(Path(db))[0])])
    objects = _objects()
    macros = _macros(objects)
    compared = {}
    for obj in objects:
        if obj.kind != "view":
            continue
        frame = spark.query(spark_session, obj.sql, obj.name, macros, obj.name)
        written = tmp_path / obj.name
        frame.write.parquet(str(written))
        rows = con.execute(f"select count(*) from {obj.name}").fetchone()[0]
        files = f"read_parquet('{written}/*.parquet')"
        assert con.execute(f"select count(*) from {files}").fetchone()[0] == rows, obj.name
        columns = [c for c in frame.columns if not c.endswith("_hash")]  # a hash: an identity per engine
        doubles = {f.name for f in frame.schema.fields if f.dataType.typeName() == "double"}
        assert rows == 0 or differing_rows(con, files, obj.name, columns, doubles) == 0, obj.name
        if not obj.is_table:  # as the DuckDB catalog: the views read Spark's own rows
            spark_session.read.parquet(str(written)).createOrReplaceTempView(obj.name)
        compared[obj.name] = rows
    assert len(compared) >= 40
    empty = {name for name, rows in compared.items() if rows == 0}
    assert empty <= EMPTY_ON_HYBRID, empty


@pytest.mark.spark
def test_division_by_zero_on_spark_is_duckdbs(spark_session):
    """DuckDB divides by IEEE 754 (x / 0 is +-inf, 0 / 0 NaN), Spark gives NULL: the
    translation keeps DuckDB's quotients (the Scalasca imbalance factors are NaN for a
    location with nothing to spread over, and so no value)."""
    rows = "(1, 0), (-2.5, 0), (0, 0), (null, 0), (1, null), (6, 3), (1, 4)"
    sql = f"select a, b, a / (b / 2) as q from (select a::double as a, b::double as b from (values {rows}) as t(a, b))"
    by_hand = {(-2.5, 0): -math.inf, (0, 0): math.nan, (1, 0): math.inf, (1, 4): 0.5, (6, 3): 4.0}
    by_hand |= {(None, 0): None, (1, None): None}

    def quotients(rows):
        return {(a, b): "NaN" if q is not None and math.isnan(q) else q for a, b, q in rows}

    expected = quotients((a, b, q) for (a, b), q in by_hand.items())
    assert quotients(duckdb.sql(sql).fetchall()) == expected
    assert quotients(spark_session.sql(dialects.translate(sql, "spark", "test")).collect()) == expected


def test_a_cte_read_twice_is_computed_once_on_spark():
    """Spark inlines a CTE at every read (DuckDB computes it once): one read more than once
    is a statement of its own, computed first, as one marked MATERIALIZED; one read once stays."""
    sql = """
        with once as (select k from t), twice as (select k from once where k > 0)
        select a.k from twice as a join twice as b using (k)
    """
    steps = dialects.statements(sql, "spark", "test", prefix="p")
    assert [name for name, _ in steps] == ["p__twice", None]
    assert "once AS (SELECT k FROM t)" in steps[0][1] and "FROM t" not in steps[1][1]
    assert steps[1][1] == "SELECT a.k FROM p__twice AS a JOIN p__twice AS b USING (k)"


def test_ctes_of_one_name_in_two_subqueries_read_their_own_rows_in_the_one_with():
    """Spark's SQL holds one WITH: the CTEs of two subqueries (a template used twice) that
    share names are named apart first, and each subquery still reads its own rows."""
    con = duckdb.connect()
    con.execute("create table t as select range as k from range(10)")
    part = "(with c as (select k from t where k {}), d as (select k * {} as v from c) select v from d)"
    sql = f"""
        with c as (select 100 as v)
        select low.v, high.v, c.v from {part.format("< 2", 1)} as low, {part.format(">= 9", 10)} as high, c
    """
    expected = [(0, 90, 100), (1, 90, 100)]
    assert sorted(con.execute(sql).fetchall()) == expected
    tree = dialects.rewritten(sql, "test")
    one_with = sqlglot.transforms.move_ctes_to_top_level(tree.copy()).sql(dialect="duckdb")  # what Spark's SQL does
    assert sorted(con.execute(one_with).fetchall()) == expected
    spark_sql = sqlglot.parse_one(dialects.translate(sql, "spark", "test"), read="spark")
    assert sorted(cte.alias for cte in spark_sql.args["with_"].expressions) == ["c", "c_2", "c_3", "d", "d_2"]


def test_qualify_beside_a_star_selects_each_column_once():
    """``SELECT *, w AS x ... QUALIFY c`` filters an inner query that lists x once (sqlglot's
    own form lists it twice, which Spark finds ambiguous once it is read from a stored view);
    a window function in the condition beside the star is a one-line error."""
    sql = "select *, lag(a) over (order by b) as p from t where k in (1, 2) qualify k = 1"
    assert dialects.translate(sql, "spark", "test") == (
        "SELECT * FROM (SELECT *, LAG(a) OVER (ORDER BY b NULLS LAST) AS p FROM t WHERE k IN (1, 2)) AS _t WHERE k = 1"
    )
    with pytest.raises(CosyError, match="QUALIFY with a window function beside SELECT \\*"):
        dialects.translate("select * from t qualify row_number() over (order by a) = 1", "spark", "test")


@pytest.mark.spark
def test_union_of_stored_views_derived_from_one_another_on_spark(spark_session):
    """Two computed views, one read from the other, in one UNION: Spark 4.3 fails it when
    their columns share ids ("key not found"), which ``spark.kept`` renews."""
    spark.kept(spark_session.sql("select id as a, id * 2 as b, id % 3 as c from range(10)"), "test_v")
    spark.kept(spark_session.sql("select a, c from test_v where c > 0"), "test_w")
    rows = spark_session.sql("select b as x, a as y from test_v union select a, c from test_w").collect()
    # (2a, a) for a in 0..9, and (a, a % 3) for the six a with a % 3 > 0: none of them equal
    assert sorted(tuple(r) for r in rows) == sorted(
        [(2 * a, a) for a in range(10)] + [(a, a % 3) for a in range(10) if a % 3]
    )


@pytest.mark.spark
def test_a_small_traces_views_are_broadcast_to_the_joins_that_read_them(spark_session):
    """A view computed (``kept``) for a trace below ``BROADCAST_VIEWS_BELOW_EVENTS`` is
    broadcast to a join in the plan Spark starts from; for a larger trace the join is
    Spark's own choice, a shuffle (the view's size estimated from its plan's join: 256 MB)."""
    view = "select a.id as k, b.id as v from range(2000) as a join range(2000) as b on a.id = b.id"
    joined = "select count(*) from test_joined as x join test_joined as y on x.k = y.v"
    plans = {}
    for events in (10, spark.BROADCAST_VIEWS_BELOW_EVENTS):
        spark.size_for(spark_session, events)
        spark.kept(spark_session.sql(view), "test_joined")
        frame = spark_session.sql(joined)
        plans[events] = frame._jdf.queryExecution().executedPlan().toString()
        assert frame.collect()[0][0] == 2000
    assert "BroadcastHashJoin" in plans[10] and "SortMergeJoin" not in plans[10]
    assert "SortMergeJoin" in plans[spark.BROADCAST_VIEWS_BELOW_EVENTS]


@pytest.mark.spark
def test_parquet_schema_read_from_footers_is_the_one_spark_infers(spark_session, real_db):
    """The Spark schema of every stored table's files, read from a Parquet footer without a
    Spark job (``spark._parquet_schema``), is the schema Spark infers (unsigned integers widened)."""
    directory = database.experiment_dir(real_db("lulesh_hyb-8x2-small"), 1)
    compared = 0
    for name, table in tables.stored().items():
        files = [str(p) for p in table.files(directory)]
        if files:
            given = spark_session.read.schema(spark._parquet_schema(files[0])).parquet(*files).schema
            assert given.simpleString() == spark_session.read.parquet(*files).schema.simpleString(), name
            compared += 1
    assert compared >= 40  # every table the load and its report wrote


@pytest.mark.parametrize(
    "frame",
    [
        "rows between current row and unbounded following",
        "rows between 2 preceding and unbounded following",
        "rows between 1 following and unbounded following",
        "range between current row and unbounded following",
        "range between 3 following and unbounded following",
        "range between 2 preceding and unbounded following",
    ],
)
@pytest.mark.spark
def test_frame_to_unbounded_following_on_spark_is_duckdbs(spark_session, frame):
    """A frame that ends at UNBOUNDED FOLLOWING, which Spark computes again for every row
    (n^2 in a partition), is translated as the mirrored frame in the reverse order: the
    same aggregates as DuckDB's over keys with NULLs (and ties, where RANGE makes them
    deterministic), descending keys too."""
    generator = random.Random(frame)
    rows = []
    for p in range(3):
        keys = (
            generator.sample(range(40), 25)
            if frame.startswith("rows")
            else [generator.randrange(12) for _ in range(25)]
        )
        keys[generator.randrange(25)] = None
        rows += [(len(rows) + n, p, k, generator.choice([None, *range(-5, 30)])) for n, k in enumerate(keys)]
    listed = ", ".join(f"({i}, {p}, {'null' if k is None else k}, {'null' if v is None else v})" for i, p, k, v in rows)
    aggregates = ", ".join(
        f"{f}(v) over (partition by p order by k {direction} {frame}) as {f}_{direction}"
        for f in ("min", "max", "sum", "count", "bool_or")
        for direction in ("asc", "desc")
    ).replace("bool_or(v)", "bool_or(v > 20)")
    sql = f"select i, {aggregates} from (values {listed}) as t(i, p, k, v) order by i"
    translated = dialects.translate(sql, "spark", "test")
    assert not SHRINKING_FRAME.search(translated)
    expected = duckdb.sql(sql).fetchall()
    assert len({row[1:] for row in expected}) > 10  # frames that differ row to row
    assert [tuple(r) for r in spark_session.sql(translated).collect()] == expected


@pytest.fixture(scope="session")
def loaded_together_on_spark(tmp_path_factory):
    """The shared traces of ``SCALASCA_TRACES`` loaded by one ``load_runs`` on Spark, their
    models derived together by the same Spark statements (as a ``cosydb load A B ...`` of
    small runs), with Spark's expressions interpreted (as for small traces): trace name ->
    (database, its experiment id). Loaded once per test run when a test first asks
    (``made_once``: each worker reports on a copy of its own)."""

    def load_into(db: Path) -> None:
        present = [real_trace(t) for t in SCALASCA_TRACES if (TRACES / t).exists()]
        interpreted, spark.INTERPRETED_BELOW_EVENTS = spark.INTERPRETED_BELOW_EVENTS, 10**12
        try:
            load_runs(present, db, engine="spark", spark_master="local[2]")
        finally:
            spark.INTERPRETED_BELOW_EVENTS = interpreted

    loaded = []

    def get(trace: str) -> tuple[Path, int]:
        real_trace(trace)  # skips the test if the trace is not shared here
        if not loaded:
            loaded.append(made_once(tmp_path_factory, "spark-together", "spark.cosydb", load_into))
        with database.connect(loaded[0]) as con:  # each run is named after its directory
            (experiment_id,) = con.execute("select experiment_id from experiments where name = ?", [trace]).fetchone()
        return loaded[0], experiment_id

    return get


@pytest.mark.spark
@pytest.mark.parametrize(
    "trace, compiled",
    [(trace, trace == "scorep-late_sender") for trace in SCALASCA_TRACES],
    ids=SCALASCA_TRACES,
)
def test_load_and_report_on_spark_equal_duckdb(
    spark_session, real_db, loaded_together_on_spark, trace, compiled, monkeypatch
):
    """``cosydb load --engine spark`` of the seven shared traces at once: the readers run as
    Spark tasks and Spark SQL derives their models together; ``cosydb report --engine spark``
    of each: Spark SQL evaluates the catalog. Every stored table of the trace's experiment
    (the model and the report) has the rows of a DuckDB load of the trace alone and its
    report, with Spark's expressions interpreted (as for these small traces), or the
    report's ``compiled`` as for large ones (on scorep-late_sender; the models compiled:
    test_models_on_spark_equal_duckdb; a run loaded alone on Spark:
    test_cli_load_and_report_on_a_standalone_cluster_equal_duckdb)."""
    from cosydb.report import run

    theirs = real_db(trace)
    ours, experiment_id = loaded_together_on_spark(trace)
    monkeypatch.setattr(spark, "INTERPRETED_BELOW_EVENTS", 0 if compiled else 10**12)
    run(ours, experiment=trace, threshold=0, engine_name="spark", spark_master="local[2]")
    assert spark_session.conf.get("spark.sql.codegen.factoryMode") == ("FALLBACK" if compiled else "NO_CODEGEN")
    run(theirs, threshold=0)
    assert_stored_tables_equal(ours, theirs, experiments=(experiment_id, 1))


def _property_results(db: Path, names: list[str]) -> str:
    """The relation of ``names``' rows of ``property_results`` stored in ``db``."""
    files = tables.stored()["property_results"].files(database.experiment_dirs(db)[0])
    return (
        f"(select * from read_parquet({[str(f) for f in files]})"
        f" where property in ({', '.join(repr(n) for n in names)}))"
    )


def _assert_results_equal(ours: Path, theirs: Path, names: list[str]) -> int:
    """``names``' rows stored in ``ours`` (Spark's) are those in ``theirs`` (DuckDB's); returns
    how many of these hold."""
    con = duckdb.connect()
    ours_rel, theirs_rel = _property_results(ours, names), _property_results(theirs, names)
    columns = ["property", "callpath_id", "region_id", "location_id", "condition_id", "condition", "status"]
    doubles = {"confidence", "severity", "value"}
    assert differing_rows(con, ours_rel, theirs_rel, columns + sorted(doubles), doubles) == 0
    evaluated = con.execute(f"select count(*) from {theirs_rel} where status = 'evaluated'").fetchone()[0]
    assert evaluated > 0
    return con.execute(f"select count(*) from {theirs_rel} where status = 'evaluated' and condition").fetchone()[0]


@pytest.mark.spark
@pytest.mark.parametrize("trace", ["scorep-late_receiver", "minife-8-small", "master_slave", "cache"])
def test_compiled_asl_properties_on_spark_equal_duckdb(spark_session, real_db, tmp_path, trace):
    """``cosydb report --asl mpi --engine spark``: the report's MPI properties compiled from
    ASL give on Spark SQL the rows they give on DuckDB (the metaproperties' quantifiers over
    the processes read the property they are built on joined to each process there; the
    master-slave roles and the cache misses per instance on tests/test_properties_asl.py's
    constructed runs; the late sender and wrong order PATTERNs, whose subqueries nest deeper
    than Spark resolves, decorrelated: test_nested_asl_properties_on_spark_equal_duckdb)."""
    from test_properties_asl import cache_run, master_slave_run

    from cosydb.report import run

    spec = catalog.asl_specification("mpi")
    compiled = catalog.load([spec])
    names = [n for n, p in compiled.items() if Path(p.path) == spec and p.kind == "property"]
    assert len(names) == 40
    constructed = {"master_slave": master_slave_run, "cache": cache_run}
    if trace in constructed:
        load(constructed[trace]().write(tmp_path / "run"), tmp_path / "run.cosydb")
        loaded = tmp_path / "run.cosydb"
    else:
        loaded = real_db(trace)
    ours, theirs = tmp_path / "spark.cosydb", tmp_path / "duckdb.cosydb"
    for copy in (ours, theirs):
        shutil.copytree(loaded, copy)
    run(ours, threshold=0, properties=names, properties_dirs=[spec], engine_name="spark", spark_master="local[2]")
    run(theirs, threshold=0, properties=names, properties_dirs=[spec])
    _assert_results_equal(ours, theirs, names)
    con = duckdb.connect()
    evaluated = f"select count(*) from {_property_results(theirs, names)} where status = 'evaluated'"
    assert con.execute(evaluated).fetchone()[0] > 50


#: The compiled properties whose subqueries read a query two or more levels out (compiled ASL
#: nests its patterns' objects, quantifiers and attributes so), decorrelated for Spark
#: (cosydb.dialects._decorrelated): language, names, and inputs where they hold on some rows.
#: (On Spark: test_nested_asl_properties_on_spark_equal_duckdb.)
NESTED = {
    "late_sender": ("mpi", ["LateSenderPattern", "MessagesInWrongOrder"]),  # scorep-late_sender
    "wrong_order": ("mpi", ["MessagesInWrongOrder"]),  # test_wrong_order_forms.py's Sendrecv and Test
    "openmp": ("openmp", ["irregular_sync_across_instances"]),  # test_asl_appendices.py's variant
    "openmp_variables": (  # test_asl_appendices.py's variables_doc
        "openmp",
        ["remote_access_to_variable", "multiple_transfer_of_same_data", "wrong_page_distribution_for_variable"],
    ),
    "hpf": (  # test_asl_appendices.py's variant, with its baseline
        "hpf",
        ["forall_synchronization_costs", "parallel_organization_costs", "redist_costs", "uneven_work_distribution"],
    ),
}


def _nested_input(case: str, real_db, scratch: Path) -> tuple[Path, str | None]:
    """The database of a case of NESTED, and its baseline experiment."""
    if case == "late_sender":
        return real_db("scorep-late_sender"), None
    if case == "wrong_order":
        from test_wrong_order_forms import sendrecv_and_test_run

        load(sendrecv_and_test_run().write(scratch / "run"), scratch / "run.cosydb")
        return scratch / "run.cosydb", None
    from test_asl_appendices import hpf_variant, openmp_variant, variables_doc
    from test_summary_input import hpf_doc, loaded

    if case == "hpf":
        return loaded(scratch, ("par", hpf_variant()), ("seq", hpf_doc(processors=1, main=25.0, forall=12.0))), "seq"
    return loaded(scratch, ("par", {"openmp": openmp_variant, "openmp_variables": variables_doc}[case]())), None


#: Aggregates that Spark cannot compute where a correlated subquery reads an outer row: an
#: outer column beside the subquery's own in an aggregate (Spark refuses it:
#: AGGREGATE_FUNCTION_MIXED_OUTER_LOCAL_REFERENCES), a correlated subquery in an aggregate of
#: a correlated subquery (Spark fails at run time: "Cannot evaluate expression: outer(k)"),
#: and an outer column that a subquery read two levels out becomes once lifted (hpf.asl's
#: uneven_work_distribution and forall_synchronization_costs are of these forms).
CORRELATED_AGGREGATES = {
    "outer column": "select r.k, (select sum(power(s.x - r.y, 2)) from st as s where s.k = r.k) as v from rt as r",
    "outer columns of a lateral join": (
        "select r.k, (select case when count(*) = 0 then 0 else sum(s.x * n.c - r.y) end from st as s"
        " where s.k = r.k) as v from rt as r"
        " cross join lateral (select count(*) as c from ot as o where o.k = r.k) as n"
    ),
    "subquery": (
        "select r.k, (select max((select max(s.x) from st as s where s.k = o.j)) from ot as o where o.k = r.k) as v"
        " from rt as r"
    ),
    "exists": (
        "select r.k, (select bool_or(exists (select 1 from st as s where s.k = o.j and s.x > 0)) from ot as o"
        " where o.k = r.k) as v from rt as r"
    ),
    "lifted, then carried": (
        "select r.k, (select sum(s.x - (select max(o.j) from ot as o where o.k = r.k)) from st as s where s.k = r.k)"
        " as v from rt as r"
    ),
}


def _correlated_aggregates_sql(form: str) -> str:
    """A query of CORRELATED_AGGREGATES over random rows with NULLs and keys without partner."""
    generator = random.Random(form)

    def values(rows: int, value: int) -> str:
        return ", ".join(
            f"({generator.choice([None, *range(8)])}, {generator.choice([None, *range(-value, value)])})"
            for _ in range(rows)
        ).replace("None", "null")

    tables = f"""with rt as (select * from (values (null, 1), (99, 2), {values(12, 5)}) as t(k, y)),
        ot as (select * from (values {values(20, 8)}) as t(k, j)),
        st as (select * from (values {values(30, 9)}) as t(k, x)) """
    return tables + CORRELATED_AGGREGATES[form]


def _aggregates_reading_outer_rows(sql: str) -> list[str]:
    """The aggregates of correlated subqueries of ``sql`` that read an outer column beside
    their own or hold a subquery."""
    from sqlglot.optimizer.scope import traverse_scope

    found = []
    for scope in traverse_scope(sqlglot.parse_one(sql, read="duckdb")):
        if not scope.external_columns:
            continue
        for aggregate in scope.expression.find_all(sqlglot.exp.AggFunc):
            if aggregate.find_ancestor(sqlglot.exp.Select) is not scope.expression:
                continue
            outer = [
                c
                for c in aggregate.find_all(sqlglot.exp.Column)
                if c.find_ancestor(sqlglot.exp.Select) is scope.expression and c.table not in scope.selected_sources
            ]
            if outer or aggregate.find(sqlglot.exp.Subquery, sqlglot.exp.Exists):
                found.append(aggregate.sql())
    return found


def _sorted_rows(rows) -> list:
    """``rows`` (DuckDB's or Spark's) with their numbers as floats, sorted."""
    return sorted((tuple(None if v is None else float(v) for v in row) for row in rows), key=repr)


@pytest.mark.parametrize("form", sorted(CORRELATED_AGGREGATES))
def test_aggregates_of_correlated_subqueries_decorrelated_give_duckdbs_rows(form):
    """An aggregate of a correlated subquery reads its own rows only once decorrelated (a
    subquery in it lifted into a derived table of the table it reads, an outer column carried
    into the subquery's table) and gives DuckDB's rows as written."""
    sql = _correlated_aggregates_sql(form)
    decorrelated = dialects.decorrelated(sql, "test")
    assert _aggregates_reading_outer_rows(sql) and not _aggregates_reading_outer_rows(decorrelated)
    expected = _sorted_rows(duckdb.sql(sql).fetchall())
    assert len({row[1] for row in expected}) > 2  # values that differ row to row
    assert _sorted_rows(duckdb.sql(decorrelated).fetchall()) == expected


@pytest.mark.spark
def test_aggregates_of_correlated_subqueries_on_spark_are_duckdbs(spark_session):
    """Spark computes the aggregates of CORRELATED_AGGREGATES translated (decorrelated), as DuckDB."""
    for form in sorted(CORRELATED_AGGREGATES):
        sql = _correlated_aggregates_sql(form)
        translated = dialects.translate(sql, "spark", "test")
        assert _sorted_rows(spark_session.sql(translated).collect()) == _sorted_rows(duckdb.sql(sql).fetchall()), form


class _Decorrelated(evaluator.DuckDBTables):
    """DuckDB running each entry's SQL decorrelated as for Spark (dialects.decorrelated)."""

    def create(self, name, sql, params, where, engine_sql=None):
        super().create(name, dialects.decorrelated(sql, where), params, where, None)


@pytest.mark.parametrize("case", sorted(NESTED))
def test_nested_asl_properties_decorrelated_give_duckdbs_rows(real_db, tmp_path, case):
    """The compiled properties whose subqueries nest deeper than Spark resolves, decorrelated
    as Spark runs them (subqueries of the outer row lifted into a derived table of its table,
    outer columns carried in), give on DuckDB the rows of their SQL as compiled; some hold."""
    language, names = NESTED[case]
    db, baseline = _nested_input(case, real_db, tmp_path)
    con = database.connect(db)
    try:
        experiments = dict(con.execute("select name, experiment_id from experiments").fetchall())
        experiment = experiments.get("par", 1)
        entries = catalog.load([catalog.asl_specification(language)])
        evaluations = [
            evaluator.evaluate(con, entries, experiment, {}, names, experiments.get(baseline), tables_on=tables_on)
            for tables_on in (None, _Decorrelated(con))
        ]
        holding = 0
        for name in names:
            assert [e.status[name] for e in evaluations] == ["evaluated"] * 2, name
            compiled, decorrelated = (
                sorted(e.query(f"select * from {{{{ ref('{name}') }}}}").fetchall(), key=repr) for e in evaluations
            )
            assert compiled and decorrelated == compiled, name
            holding += sum(bool(row[4]) for row in compiled)
    finally:
        con.close()
    assert holding > 0


def test_a_column_carried_from_outside_is_added_above_the_rows_own_subqueries(real_db):
    """Decorrelated, MessagesInWrongOrder reads each call path ``r`` of its lateral join in
    the receives' rows: that column is added in a derived table of its own, around the ones
    that add the receives' own subqueries (which read the receive only), so that Spark
    computes those once per receive, not once per receive and call path."""
    decorrelated = {}

    class Captured(evaluator.DuckDBTables):
        def create(self, name, sql, params, where, engine_sql=None):
            decorrelated[name] = dialects.decorrelated(sql, where)
            super().create(name, decorrelated[name], params, where, None)

    con = database.connect(real_db("scorep-late_sender"))
    try:
        entries = catalog.load([catalog.asl_specification("mpi")])
        evaluator.evaluate(con, entries, 1, {}, ["MessagesInWrongOrder"], None, tables_on=Captured(con))
    finally:
        con.close()
    sql = decorrelated["prop_MessagesInWrongOrder"]
    carrying = re.findall(r"\(SELECT (root\.\*(?:(?!\bFROM\b).)*?r\.callpath_id AS cosydb_outer_\d+[^)]*?) FROM", sql)
    assert carrying and all("(SELECT" not in projection.upper() for projection in carrying), carrying
    assert re.search(r"\(SELECT root\.\*, \(SELECT ANY_VALUE", sql)  # the receive's own, below


@pytest.mark.spark
@pytest.mark.parametrize("case", ["hpf", "late_sender", "openmp", "openmp_variables", "wrong_order"])
def test_nested_asl_properties_on_spark_equal_duckdb(spark_session, real_db, tmp_path, case):
    """The compiled properties that Spark runs only decorrelated (the late sender and wrong
    order PATTERNs of mpi.asl, openmp.asl's irregular synchronisation and properties of a
    variable over ASL summary input, hpf.asl's over HPF summary input with a baseline, whose
    correlated subqueries' aggregates read outer rows: CORRELATED_AGGREGATES) give on Spark
    the rows of DuckDB, on inputs where they hold."""
    from cosydb.report import run

    language, names = NESTED[case]
    spec = catalog.asl_specification(language)
    loaded, baseline = _nested_input(case, real_db, tmp_path)
    ours, theirs = tmp_path / "spark.cosydb", tmp_path / "duckdb.cosydb"
    for copy in (ours, theirs):
        shutil.copytree(loaded, copy)
    common = dict(threshold=0, properties=names, properties_dirs=[spec])
    if baseline:
        common |= dict(experiment="par", baseline=baseline)
    run(ours, **common, engine_name="spark", spark_master="local[2]")
    run(theirs, **common)
    assert _assert_results_equal(ours, theirs, names) > 0


@pytest.fixture(scope="module")
def standalone_cluster(tmp_path_factory):
    """A Spark standalone cluster on this machine: a master and one worker (2 cores, 2 GiB),
    each its own JVM started by pyspark's ``spark-class``, so that executors run apart from
    the driver as on a cluster. Yields the master's URL and the worker's directory (one
    directory per application that ran executors on it)."""
    if shutil.which("java") is None:
        pytest.skip("Spark needs Java 17 (Debian openjdk-17-jre-headless): not installed")
    pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install 'cosydb[spark]')")
    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    scratch = tmp_path_factory.mktemp("cluster")
    port, ui_port, worker_ui_port = (_free_port() for _ in range(3))
    url = f"spark://127.0.0.1:{port}"
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1"}
    logs = {name: open(scratch / f"{name}.log", "w") for name in ("master", "worker")}
    started = [
        subprocess.Popen(
            [
                spark_class,
                "org.apache.spark.deploy.master.Master",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--webui-port",
                str(ui_port),
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=logs["master"],
        )
    ]
    try:
        _wait_for(lambda: _master_state(ui_port) is not None, "the master", scratch / "master.log")
        started.append(
            subprocess.Popen(
                [
                    spark_class,
                    "org.apache.spark.deploy.worker.Worker",
                    "--cores",
                    "2",
                    "--memory",
                    "2g",
                    "--work-dir",
                    str(scratch / "work"),
                    "--webui-port",
                    str(worker_ui_port),
                    url,
                ],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=logs["worker"],
            )
        )
        _wait_for(
            lambda: (_master_state(ui_port) or {}).get("aliveworkers", 0) == 1, "the worker", scratch / "worker.log"
        )
        yield url, scratch / "work"
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=60)
        for log in logs.values():
            log.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _master_state(ui_port: int) -> dict | None:
    """The standalone master's state (its web UI's JSON), or None while it does not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{ui_port}/json/", timeout=5) as answer:
            return json.load(answer)
    except OSError:
        return None


def _wait_for(ready, what: str, log: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} of the standalone cluster did not start: {log.read_text()[-2000:]}")
        time.sleep(1)


#: Runs the command line's commands given as JSON lists of arguments, one after the other in
#: this process (as ``cosydb`` would, each in its own); stops at the first that fails.
COMMANDS_IN_ONE_PROCESS = """
import json, sys
from cosydb.cli import app
for arguments in json.loads(sys.argv[1]):
    try:
        app(arguments)
    except SystemExit as done:
        if done.code:
            raise
"""


@pytest.mark.spark
def test_cli_load_and_report_on_a_standalone_cluster_equal_duckdb(standalone_cluster, real_db, tmp_path):
    """The cluster commands of docs/scale-out.md, ``cosydb load/report --engine spark --spark-master
    spark://...``, on a standalone cluster whose executors are JVMs of their own (the
    readers' Python tasks run in the executors' Python workers): every stored table has the
    rows of a DuckDB load and report. Both commands run in one process, one application of
    the cluster: the report's driver and executor are the load's, warm (a cold pair is
    about a minute of JIT compiling)."""
    from cosydb.report import run

    master, worker_dir = standalone_cluster
    theirs = real_db("scorep-late_sender")
    ours = tmp_path / "cluster.cosydb"
    env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
    cluster = ["--engine", "spark", "--spark-master", master]
    commands = [
        ["load", str(real_trace("scorep-late_sender")), "--db", str(ours), *cluster],
        ["report", str(ours), "--threshold", "0", *cluster],
    ]
    done = subprocess.run(
        [sys.executable, "-c", COMMANDS_IN_ONE_PROCESS, json.dumps(commands)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.startswith("loaded 173 events from 4 locations"), done.stdout[:500]
    assert len(list(worker_dir.glob("app-*"))) == 1  # the commands' executor ran on the worker
    run(theirs, threshold=0)
    assert_stored_tables_equal(ours, theirs)


def test_unknown_engine_is_a_one_line_error(tmp_path):
    with pytest.raises(CosyError, match=r"^--engine: 'oracle' is not one of duckdb, spark$"):
        load(real_trace("scorep-late_sender"), tmp_path / "x.cosydb", engine="oracle")
    assert not (tmp_path / "x.cosydb").exists()
