"""OTF version 1 (VampirTrace) input: `cosydb load run.otf`.

Traces are written through the OTF library's own writer from constructed scenarios
(fixtures/otf_writer.py, VampirTrace's record forms) and checked against the values the
scenarios construct (1 tick = 1 ns unless the timer says otherwise), the same values as for
the OTF2 archives of the same scenarios."""

import contextlib
from pathlib import Path

import pytest
from conftest import NS, assert_clean_failure, cosydb, evaluate, property_rows, rows
from cosydb.fixtures import otf_writer
from cosydb.fixtures.generator import TraceBuilder
from cosydb.loaders import otf_library

from cosydb import database
from cosydb.loading import load, load_runs
from cosydb.report import choose_experiment, run


def exchange(resolution: int = 1_000_000_000) -> TraceBuilder:
    """Three ranks. Rank 1 waits in MPI_Recv from 100 for rank 0's send at 500 (Late Sender:
    400). They enter an MPI_Barrier at 600, 610, 620 (waits 20 and 10, all leave at 650) and
    an MPI_Allreduce at 660, 670, 700 (waits 40 and 30, all leave at 710); rank 2 computes in
    solve/work in between. Then rank 2's MPI_Ssend (720..780) waits for rank 0 to enter
    MPI_Recv at 750 (Late Receiver: 30)."""
    b = TraceBuilder(3, timer_resolution=resolution)
    for r in range(3):
        with b[r].open("main", 0, 800):
            b[r].region("MPI_Init", 0, 10)
            if r == 0:
                b[r].region("work", 10, 500)
                b[r].mpi_send(500, 520, dst=1, tag=7, nbytes=64)
            elif r == 1:
                b[r].mpi_recv(100, 600, src=0, tag=7, nbytes=64)
            else:
                with b[r].open("solve", 10, 620):
                    b[r].region("work", 20, 300)
                    b[r].region("work", 300, 610)
            b[r].collective("MPI_Barrier", 600 + 10 * r, 650)
            b[r].collective("MPI_Allreduce", (660, 670, 700)[r], 710, sent=8, received=8)
            if r == 0:
                b[r].mpi_recv(750, 780, src=2, tag=9, nbytes=4)
            elif r == 2:
                b[r].mpi_send(720, 780, dst=0, tag=9, nbytes=4, call="MPI_Ssend")
            b[r].region("MPI_Finalize", 780, 800)
    return b


def loaded(tmp_path, builder, **write_options):
    master = otf_writer.write(builder, tmp_path / "run", **write_options)
    load(master, tmp_path / "run.cosydb")
    return tmp_path / "run.cosydb"


@pytest.fixture(
    scope="module",
    params=[
        dict(),
        dict(
            collective_records="begin_end",
            short_leaves=True,
            compression=6,
            streams=1,
            first_function=0,
            local_definitions=True,
        ),
    ],
    ids=["vt5-single-records", "begin-end-short-leaves-compressed-one-stream-local-defs"],
)
def exchange_db(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("otf")
    db = loaded(folder, exchange(), **request.param)
    if request.param.get("local_definitions"):  # the functions are in stream 1's own file
        assert (folder / "run" / "run.1.def.z").stat().st_size > 0
    return db


@pytest.fixture(scope="module")
def otf_runs(tmp_path_factory) -> Path:
    """The runs that tests only read, written and loaded together into one database, an
    experiment each: ``exchange`` at 20 MHz, ``counter_run``, ``koi8_names``,
    ``stray_leave``, ``file_io`` in either record form."""
    from test_counters import counter_run

    folder = tmp_path_factory.mktemp("otf")
    sources = {
        "20mhz": otf_writer.write(exchange(resolution=20_000_000), folder / "20mhz"),
        "counters": otf_writer.write(counter_run(), folder / "counters"),
        "koi8-r": otf_writer.write(koi8_names(), folder / "koi8-r", encoding="koi8-r"),
        "stray-leave": stray_leave(folder / "stray-leave"),
        **{f"file-io-{records}": file_io_otf(folder / records, records) for records in FILE_RECORDS},
    }
    load_runs(list(sources.values()), folder / "runs.cosydb", list(sources))
    return folder / "runs.cosydb"


@contextlib.contextmanager
def reading(db: Path, name: str):
    """A connection to ``db`` on which the stored tables hold only experiment ``name``'s rows
    (``database.experiments_only``)."""
    con = database.connect(db)
    try:
        with database.experiments_only(con, [choose_experiment(con, db, name)["experiment_id"]]):
            yield con
    finally:
        con.close()


def test_regions_and_call_paths_are_the_constructed_ones(exchange_db):
    b = exchange()
    con = database.connect(exchange_db)
    got = {
        (r["path"], r["rank"]): r
        for r in rows(
            con,
            """SELECT c.path, l.rank, count(*) AS visits, sum(i.incl_s) AS incl_s, sum(i.excl_s) AS excl_s
               FROM region_instances i JOIN callpaths c USING (experiment_id, callpath_id)
               JOIN locations l USING (experiment_id, location_id) GROUP BY ALL""",
        )
    }
    expected = b.expected_paths()
    assert set(got) == set(expected)
    for key, exp in expected.items():
        assert got[key]["visits"] == exp["visits"], key
        assert got[key]["incl_s"] == pytest.approx(exp["incl_ticks"] * NS, abs=1e-15), key
        assert got[key]["excl_s"] == pytest.approx(exp["excl_ticks"] * NS, abs=1e-15), key
    assert got[("prog/main/solve/work", 2)]["visits"] == 2  # by hand: 280 + 310 ns
    assert got[("prog/main/solve/work", 2)]["incl_s"] == pytest.approx(590 * NS)


def test_messages_and_collectives_become_wait_states(exchange_db):
    con = database.connect(exchange_db)
    messages = rows(con, "SELECT * FROM messages ORDER BY send_time")
    assert [(m["tag"], m["send_bytes"], m["recv_bytes"]) for m in messages] == [(7, 64, 64), (9, 4, 4)]
    result = evaluate(
        exchange_db, "mpi_latesender", "mpi_barrier_wait", "mpi_latereceiver", "mpi_wait_nxn", "delay_latesender"
    )
    assert property_rows(result, "mpi_latesender", all_processes=False) == {
        ("prog/main/MPI_Recv", 1): pytest.approx(400 * NS)
    }
    assert property_rows(result, "mpi_barrier_wait", all_processes=False) == {
        ("prog/main/MPI_Barrier", 0): pytest.approx(20 * NS),
        ("prog/main/MPI_Barrier", 1): pytest.approx(10 * NS),
    }
    assert property_rows(result, "mpi_latereceiver", all_processes=False) == {
        ("prog/main/MPI_Ssend", 2): pytest.approx(30 * NS)
    }
    assert property_rows(result, "mpi_wait_nxn", all_processes=False) == {
        ("prog/main/MPI_Allreduce", 0): pytest.approx(40 * NS),
        ("prog/main/MPI_Allreduce", 1): pytest.approx(30 * NS),
    }
    # the delay behind the Late Sender: rank 0's work (490 ns) against rank 1's none before
    # its receive (it entered MPI_Recv at 100 after MPI_Init): 400 ns of it caused the wait
    assert sum(property_rows(result, "delay_latesender").values()) == pytest.approx(400 * NS)


@pytest.fixture(scope="module")
def otf2_results(tmp_path_factory):
    """The report (threshold 0) on the OTF2 archive of the same program."""
    folder = tmp_path_factory.mktemp("otf2")
    load(exchange().write(folder / "run"), folder / "run.cosydb")
    return results(run(folder / "run.cosydb", threshold=0))


def results(report: dict) -> dict:
    """{(property, call path, rank, status): value} of every row of a report."""
    return {(r["property"], r["callpath"], r["rank"], r["status"]): r["value"] for r in report["results"]}


def assert_same_results(ours: dict, theirs: dict) -> None:
    """The same rows (keys, statuses), the evaluated values within 1e-9 relative."""
    assert set(ours) == set(theirs)
    evaluated = [key for key in ours if key[3] == "evaluated"]
    assert len(evaluated) > 100
    for key in evaluated:
        assert ours[key] == pytest.approx(theirs[key], rel=1e-9, abs=1e-18), key


def test_the_otf2_archive_of_the_same_program_gives_the_same_results(exchange_db, otf2_results):
    assert_same_results(results(run(exchange_db, threshold=0)), otf2_results)


def test_a_timer_of_20_mhz(otf_runs):
    """The same ticks at 20 MHz: every second is 50 ns * the tick count."""
    result = evaluate(otf_runs, "mpi_latesender", experiment="20mhz")
    assert property_rows(result, "mpi_latesender") == {"prog/main/MPI_Recv": pytest.approx(400 / 20e6)}


def test_counters_are_the_constructed_deltas(otf_runs):
    """test_counters' hand-built increments (``counter_run``), written as VampirTrace does:
    each counter value right after its Enter / Leave, not before as in OTF2."""
    from test_counters import EXPECTED, cosydb_counter_deltas

    with reading(otf_runs, "counters") as con:
        assert cosydb_counter_deltas(con) == EXPECTED
        assert con.execute("SELECT DISTINCT metric_mode FROM metrics").fetchall() == [("ACCUMULATED_START",)]


def test_a_compressed_stream_beyond_100_kb(tmp_path):
    """Two ranks exchange 30,000 messages: each zlib-compressed event stream is larger than
    the 20 KB that Debian's OTF library reads by itself."""
    n = 30_000
    b = TraceBuilder(2)
    for r in range(2):
        with b[r].open("main", 0, 10 * n + 100):
            for k in range(n):
                if r == 0:
                    b[r].mpi_send(10 * k, 10 * k + 2, dst=1, tag=k % 5, nbytes=k)
                else:
                    b[r].mpi_recv(10 * k, 10 * k + 5, src=0, tag=k % 5, nbytes=k)
    master = otf_writer.write(b, tmp_path / "run", compression=9)
    streams = sorted(master.parent.glob("run.*.events.z"))
    assert len(streams) == 2 and all(p.stat().st_size > 100_000 for p in streams)
    load(master, tmp_path / "run.cosydb")
    con = database.connect(tmp_path / "run.cosydb")
    assert con.execute("SELECT count(*), sum(send_bytes) FROM messages").fetchone() == (n, n * (n - 1) // 2)


def koi8_names() -> TraceBuilder:
    """One rank: main calling "рас" and "сар" (written in KOI8-R by ``otf_runs``)."""
    b = TraceBuilder(1)
    with b[0].open("main", 0, 100):
        b[0].region("рас", 10, 40)  # KOI8-R bytes d2 c1 d3
        b[0].region("сар", 50, 90)  # d3 c1 d2
    return b


def test_names_in_another_encoding_are_read_with_their_bytes_escaped(otf_runs):
    """KOI8-R bytes are no UTF-8: each such byte reads as its escape, so that "рас" and "сар"
    (replaced, both would read as three U+FFFD) stay two names."""
    with reading(otf_runs, "koi8-r") as con:
        names = {name for (name,) in con.execute("SELECT name FROM regions").fetchall()}
        assert names - {"main", "prog"} == {r"\xd2\xc1\xd3", r"\xd3\xc1\xd2"}
        assert con.execute("SELECT count(*) FROM region_instances").fetchone() == (4,)


def test_names_read_in_the_encoding_given(tmp_path):
    """``cosydb load --encoding koi8-r`` reads KOI8-R names as written; an encoding Python
    does not know, or one given for a format that says its own, is a one-line error."""
    b = TraceBuilder(1)
    with b[0].open("main", 0, 100):
        b[0].region("расчёт", 10, 90)
    master, db = otf_writer.write(b, tmp_path / "run", encoding="koi8-r"), tmp_path / "run.cosydb"
    done = cosydb("load", master, "--db", db, "--encoding", "koi8-r")
    assert done.returncode == 0, done.stderr
    names = {name for (name,) in database.connect(db).execute("SELECT name FROM regions").fetchall()}
    assert "расчёт" in names
    bad = cosydb("load", master, "--db", tmp_path / "x", "--encoding", "klingon")
    assert_clean_failure(bad, "--encoding: 'klingon' is no encoding Python knows")
    otf2 = b.write(tmp_path / "otf2")
    wrong = cosydb("load", otf2, "--db", tmp_path / "y", "--encoding", "koi8-r")
    assert_clean_failure(wrong, "--encoding: an OTF2 anchor file says how its names are encoded")
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def stray_leave(directory: Path) -> Path:
    """test_a_stray_leave_and_a_process_without_events's trace, written by hand into
    ``directory``; its master file."""
    directory.mkdir()
    lib = otf_library.library()
    manager = lib.OTF_FileManager_open(10)
    writer = lib.OTF_Writer_open(str(directory / "odd").encode(), 1, manager)
    lib.OTF_Writer_writeDefTimerResolution(writer, 0, 1_000_000_000)
    for pid in (1, 2):
        lib.OTF_Writer_writeDefProcess(writer, 0, pid, f"Process {pid - 1}".encode(), 0)
    lib.OTF_Writer_writeDefFunction(writer, 0, 1, b"main", 0, 0)
    lib.OTF_Writer_writeDefFile(writer, 0, 1, b"out.dat", 0)
    lib.OTF_Writer_writeLeave(writer, 5, 1, 1, 0)
    lib.OTF_Writer_writeEnter(writer, 10, 1, 1, 0)
    lib.OTF_Writer_writeFileOperation(writer, 20, 1, 1, 7, 3, 4096, 10, 0)  # OTF_FILEOP_WRITE
    lib.OTF_Writer_writeBeginFileOperation(writer, 30, 1, 99, 0)  # never ended
    lib.OTF_Writer_writeLeave(writer, 50, 1, 1, 0)
    lib.OTF_Writer_close(writer)
    lib.OTF_FileManager_close(manager)
    return directory / "odd.otf"


def test_a_stray_leave_and_a_process_without_events(otf_runs):
    """Written by hand (``stray_leave``): process 1 leaves a region it never entered, then
    runs main 10..50 and writes a file in it, then begins a file operation it never ends;
    process 2 is defined but has no events. The stray Leave and the unended operation are
    dropped with a warning each; the file operation is stored."""
    with reading(otf_runs, "stray-leave") as con:
        assert con.execute("SELECT location_id, rank, number_of_events FROM locations ORDER BY 1").fetchall() == [
            (1, 0, 2),
            (2, 1, 0),
        ]
        assert con.execute("SELECT incl_s FROM region_instances").fetchall() == [(pytest.approx(40 * NS),)]
        (warning,) = rows(con, "SELECT * FROM load_warnings WHERE \"check\" = 'unbalanced_regions' AND location_id = 1")
        assert warning["count"] == 1
        (warning,) = rows(con, "SELECT * FROM load_warnings WHERE \"check\" = 'unmatched_file_operations'")
        assert (warning["location_id"], warning["count"]) == (1, 1)
        assert con.execute("SELECT count, has_payload FROM record_counts WHERE type = 'FILE_OPERATION'").fetchall() == [
            (1, True)
        ]
        assert con.execute("SELECT * EXCLUDE (experiment_id) FROM file_operations").fetchall() == [
            (1, 20, 10, "out.dat", 7, "write", False, 4096)
        ]


#: The record forms of a file operation (otf_writer.write's ``file_records``).
FILE_RECORDS = ["single", "begin_end"]


def file_io() -> tuple[TraceBuilder, dict, dict]:
    """test_file_io_is_io_time_and_its_operations_are_stored's run: its builder, rank -> ns
    in fwrite, and rank -> file operations (start, duration, file, operation, bytes, failed)."""
    writes = {r: 50 + 30 * r for r in range(3)}
    b = TraceBuilder(3)
    operations = {}
    for r in range(3):
        with b[r].open("main", 0, 1000):
            b[r].region("fwrite", 100, 100 + writes[r])
            b[r].region("work", 300, 400)
        operations[r] = [(100, writes[r] - 5, "out.dat", "write", 4096 * (r + 1), False)]
    operations[1].append((500, 20, "in.dat", "read", 10, True))
    return b, writes, operations


def file_io_otf(directory: Path, records: str) -> Path:
    """``file_io``'s run written into ``directory``, its file operations as ``records``; its master file."""
    b, _, operations = file_io()
    return otf_writer.write(b, directory, file_operations=operations, file_records=records)


@pytest.mark.parametrize("records", FILE_RECORDS)
def test_file_io_is_io_time_and_its_operations_are_stored(otf_runs, records):
    """VampirTrace's I/O function group are file I/O regions and its file operations rows of
    their own. Rank r writes in fwrite at 100 for 50 + 30r ns (a FileOperation inside it);
    rank 1 also reads 10 bytes at 500 for 20 ns in main itself, outside any I/O call, and
    that read failed. io_cost at each call path is the constructed I/O time under it: fwrite's
    time, and the read outside an I/O call at main's."""
    _, writes, operations = file_io()
    with reading(otf_runs, f"file-io-{records}") as con:
        stored = con.execute(
            "SELECT location_id - 1, time, duration, file, operation, bytes, failed FROM file_operations ORDER BY 1, 2"
        ).fetchall()
        assert stored == [
            (r, start, duration, file, operation, nbytes, failed)
            for r in range(3)
            for start, duration, file, operation, nbytes, failed in operations[r]
        ]
        assert con.execute("SELECT role, paradigm FROM regions WHERE name = 'fwrite'").fetchall() == [("FILE_IO", "IO")]
    under = {  # I/O time under each call path, over the ranks
        "prog/main/fwrite": sum(writes.values()),
        "prog/main": sum(writes.values()) + 20,
        "prog": sum(writes.values()) + 20,
    }
    result = evaluate(otf_runs, "io_cost", experiment=f"file-io-{records}")
    assert property_rows(result, "io_cost") == {path: pytest.approx(ns * NS) for path, ns in under.items()}


def test_without_the_library_one_line_names_the_package(tmp_path, monkeypatch):
    master = otf_writer.write(exchange(), tmp_path / "run")
    monkeypatch.setenv("COSYDB_OTF_LIBRARY", "libopen-trace-format-absent.so")
    result = cosydb("load", master, "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "apt-get install libopen-trace-format1")
    assert not (tmp_path / "x.cosydb").exists()


def test_damaged_files_fail_in_one_line(tmp_path):
    """A master file that is no OTF, and an event stream of garbage: one line naming the
    trace, exit code 2, no database left."""
    from conftest import cosydb

    garbage = tmp_path / "x.otf"
    garbage.write_text("garbage\n")
    result = cosydb("load", garbage, "--db", tmp_path / "x.cosydb")
    assert_clean_failure(result, "x.otf: the OTF library cannot read its definitions")
    master = otf_writer.write(exchange(), tmp_path / "run")
    (master.parent / "run.1.events").write_bytes(b"Zgarbage\x00\xff\xfe records\n")
    result = cosydb("load", master, "--db", tmp_path / "y.cosydb")
    assert_clean_failure(result, "run.otf: the OTF library cannot read its event streams")
    assert not (tmp_path / "x.cosydb").exists() and not (tmp_path / "y.cosydb").exists()


def test_a_run_directory_with_one_master_file(tmp_path):
    """`cosydb load run/` finds run/NAME.otf (the experiment is named after the directory);
    with two master files it asks for one."""
    from conftest import cosydb

    master = otf_writer.write(exchange(), tmp_path / "run", name="app")
    result = cosydb("load", master.parent, "--db", tmp_path / "a.cosydb")
    assert result.returncode == 0 and "experiment 1 'run'" in result.stdout, result
    otf_writer.write(exchange(), tmp_path / "run", name="other")
    result = cosydb("load", master.parent, "--db", tmp_path / "b.cosydb")
    assert_clean_failure(result, "directory holds 2 files *.otf (app.otf, other.otf): name the one to load")


def test_events_written_in_parts_give_the_same_results(tmp_path, monkeypatch, otf2_results):
    """With a flush every 5 events (FLUSH_EVENTS bounds the reader's memory) the events go to
    many files, and counters still move before their event across a flush."""
    from cosydb.loaders import otf_trace
    from test_counters import EXPECTED, cosydb_counter_deltas, counter_run

    monkeypatch.setattr(otf_trace, "FLUSH_EVENTS", 5)
    db = loaded(tmp_path / "a", exchange(), collective_records="single")
    assert len(list((db / "experiments" / "1").glob("events*.parquet"))) > 5
    assert_same_results(results(run(db, threshold=0)), otf2_results)
    con = database.connect(loaded(tmp_path / "b", counter_run()))
    assert cosydb_counter_deltas(con) == EXPECTED


def test_the_shipped_otf_demo_is_the_otf2_demo(tmp_path):
    """fixtures/demo-otf (make_demo --otf) and fixtures/demo, the same program in both formats."""
    fixtures = Path(otf_writer.__file__).parent
    load(fixtures / "demo-otf" / "demo.otf", tmp_path / "otf.cosydb")
    load(fixtures / "demo", tmp_path / "otf2.cosydb")
    ours, theirs = (results(run(tmp_path / f"{name}.cosydb", threshold=0)) for name in ("otf", "otf2"))
    assert_same_results(ours, theirs)
