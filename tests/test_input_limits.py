"""Inputs that hung, overflowed or were misread (issue #37 item 11): ASL summary input (JSON and
CSV), CUBE4 profiles and OTF v1 master files. Each is refused in one line naming the file and
the problem (exit 2, no database), or loads as it should; a load is killed after TIMEOUT
seconds (the ones that hung grew by 250 MB/s)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

import cli_process
import pytest
from conftest import assert_clean_failure
from cosydb.fixtures.profile_builder import write_tar
from test_profiles import solver_profile

from cosydb import database

TIMEOUT = 30  # seconds; each load takes a fraction of one
DEMO_OTF = Path(__file__).resolve().parents[1] / "fixtures" / "demo-otf"


def load(source: Path, db: Path) -> subprocess.CompletedProcess:
    """``cosydb load source --db db`` in a forked process, failing the test if it hangs."""
    with tempfile.TemporaryDirectory(prefix="cosydb-limits-") as scratch:
        out, err = Path(scratch) / "stdout", Path(scratch) / "stderr"
        status, _ = cli_process.shared().run(["load", source, "--db", db], out, err, timeout=TIMEOUT)
        stdout, stderr = out.read_text(), err.read_text()
    assert isinstance(status, int), f"cosydb load {source}: {status}\n{stderr}"
    return subprocess.CompletedProcess(["cosydb", "load"], status, stdout, stderr)


def refused(tmp_path: Path, source: Path, needle: str) -> None:
    """Loading ``source`` is one line '<file>: <needle>', exit 2, and leaves no database."""
    db = tmp_path / "x.cosydb"
    assert_clean_failure(load(source, db), f"{source.name}: {needle}")
    assert not db.exists()


def summary(**changes) -> dict:
    doc = {
        "cosydb_summary": 1,
        "paradigm": "openmp",
        "nr_processors": 2,
        "regions": [{"name": "main", "kind": "Function"}, {"name": "par", "kind": "PRegion", "parent": "main"}],
        "summaries": [
            {"region": "main", "nr_executions": 1, "sums": {"duration": 2.0}},
            {"region": "par", "nr_executions": 3, "sums": {"duration": 1.0}, "thread_sums": [{"thread_no": 1}]},
        ],
    }
    doc.update(changes)
    return doc


def write_json(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "summary.json"
    path.write_text(text, encoding=encoding)
    return path


CSV = "paradigm,nr_processors,region,kind,parent,scope,number,nr_executions,duration\n"


def write_csv(tmp_path: Path, rows: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "summary.csv"
    path.write_text(CSV + rows, encoding=encoding)
    return path


# -- ASL summary input, JSON ------------------------------------------------------------------


def test_nr_processors_beyond_the_limit_is_refused_before_allocating(tmp_path):
    """Was a hang growing by 250 MB/s: one location row is built per processor."""
    path = write_json(tmp_path, json.dumps(summary(nr_processors=10**12)))
    refused(tmp_path, path, "nr_processors: 1000000000000 is out of range (at most 1048576)")


def test_nr_processors_at_the_limit_loads(tmp_path):
    path = write_json(tmp_path, json.dumps(summary(nr_processors=2**20)))
    db = tmp_path / "x.cosydb"
    assert load(path, db).returncode == 0
    con = database.connect(db)
    try:
        got = con.execute("SELECT count(*), max(location_id), max(thread), max(name) FROM locations").fetchone()
    finally:
        con.close()
    assert got == (2**20, (2**20 - 1) << 32, 2**20 - 1, "thread 999999")


def test_number_beyond_a_float_is_refused(tmp_path):
    """Was 'internal error: OverflowError'."""
    text = json.dumps(summary()).replace('"duration": 2.0', '"duration": 1' + "0" * 400)
    refused(
        tmp_path,
        write_json(tmp_path, text),
        "summaries[0].sums.duration: an integer of about 401 digits is out of range (not a finite 64-bit float)",
    )


def test_integer_beyond_64_bits_is_refused(tmp_path):
    """Was 'internal error: OverflowError' when the rows became Arrow columns."""
    doc = summary()
    doc["summaries"][0]["nr_executions"] = 2**70
    refused(
        tmp_path,
        write_json(tmp_path, json.dumps(doc)),
        "summaries[0].nr_executions: 1180591620717411303424 is out of range (at most 9223372036854775807)",
    )


def test_integer_of_more_digits_than_python_converts_is_refused(tmp_path):
    text = json.dumps(summary()).replace('"nr_executions": 1,', '"nr_executions": ' + "9" * 5000 + ",")
    refused(tmp_path, write_json(tmp_path, text), "not readable JSON (a number of more than 4300 digits)")


def test_deeply_nested_json_is_refused(tmp_path):
    """Was 'internal error: RecursionError'."""
    text = json.dumps(summary(system={})).replace('"system": {}', '"system": ' + "[" * 50_000 + "]" * 50_000)
    refused(tmp_path, write_json(tmp_path, text), "not readable JSON (arrays or objects nested too deeply)")


def test_deeply_nested_regions_are_refused(tmp_path):
    """A parent chain of 50,000 regions: the cycle check was quadratic and the call paths'
    names grow with their depth (the load hung)."""
    regions = [{"name": "r0", "kind": "Function"}]
    regions += [{"name": f"r{i}", "kind": "Function", "parent": f"r{i - 1}"} for i in range(1, 50_000)]
    path = write_json(tmp_path, json.dumps(summary(regions=regions, summaries=[])))
    refused(tmp_path, path, "regions[1000].parent: region 'r1000' is nested deeper than 1000 levels")


def test_json_with_a_byte_order_mark_loads(tmp_path):
    """Was 'not valid JSON (... Unexpected UTF-8 BOM ...)'."""
    path = write_json(tmp_path, json.dumps(summary()), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert load(path, tmp_path / "x.cosydb").returncode == 0


# -- ASL summary input, CSV -------------------------------------------------------------------


def test_csv_with_a_byte_order_mark_loads(tmp_path):
    """Was "line 2, column paradigm: 'None' is not one of openmp, hpf" (the BOM was part of
    the first column's name)."""
    path = write_csv(tmp_path, "openmp,2,main,Function,,sums,,1,2.0\n", encoding="utf-8-sig")
    db = tmp_path / "x.cosydb"
    assert load(path, db).returncode == 0
    con = database.connect(db)
    try:
        assert con.execute("SELECT nr_executions, duration FROM sm_sums").fetchall() == [(1, 2.0)]
    finally:
        con.close()


def test_csv_nr_processors_beyond_the_limit_is_refused(tmp_path):
    """Was a hang, as in JSON."""
    path = write_csv(tmp_path, "openmp,1000000000000,main,Function,,sums,,1,2.0\n")
    refused(tmp_path, path, "line 2, column nr_processors: 1000000000000.0 is out of range (at most 1048576)")


def test_csv_integer_beyond_64_bits_is_refused(tmp_path):
    """Was 'internal error: OverflowError'."""
    path = write_csv(tmp_path, "openmp,2,main,Function,,sums,,1e30,2.0\n")
    refused(tmp_path, path, "line 2, column nr_executions: 1e+30 is out of range (at most 9223372036854775807)")


# -- CUBE4 profiles ---------------------------------------------------------------------------


def damaged_profile(tmp_path: Path, old: bytes, new: bytes) -> Path:
    """A constructed profile whose anchor.xml has ``old`` (first occurrence) replaced by ``new``."""
    good = solver_profile().write(tmp_path / "good.cubex")
    with tarfile.open(good) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    anchor = members["anchor.xml"]
    assert old in anchor
    return write_tar(tmp_path / "profile.cubex", {**members, "anchor.xml": anchor.replace(old, new, 1)})


def test_cube_metric_id_beyond_32_bits_is_refused(tmp_path):
    """Was 'internal error: ArrowInvalid'."""
    path = damaged_profile(tmp_path, b'<metric id="1"', b'<metric id="99999999999"')
    refused(tmp_path, path, "id of metric 'time' 99999999999 is out of range (0..2147483647)")


def test_cube_cnode_id_beyond_64_bits_is_refused(tmp_path):
    """Was 'internal error: OverflowError'."""
    path = damaged_profile(tmp_path, b'<cnode id="1"', b'<cnode id="99999999999999999999"')
    refused(tmp_path, path, "cnode id 99999999999999999999 is out of range (0..9223372036854775807)")


def test_cube_undefined_region_is_not_called_a_missing_anchor(tmp_path):
    """A cnode calling a region id that is not defined said 'no anchor.xml in the archive'."""
    path = damaged_profile(tmp_path, b'<region id="1"', b'<region id="99999999999"')
    refused(tmp_path, path, "anchor.xml refers to an id it does not define (1)")


# -- OTF v1 master files ----------------------------------------------------------------------


def test_otf_master_file_without_every_process_is_refused(tmp_path):
    """A master file cut to its first line ('1:1') loaded process 1's stream only, with an
    'unmatched messages' warning: the analysis of part of a run."""
    run = tmp_path / "demo-otf"
    shutil.copytree(DEMO_OTF, run)
    (run / "demo.otf").write_text("1:1\n")
    refused(
        tmp_path,
        run / "demo.otf",
        "the master file maps no event stream to process(es) 2, 3, 4 and does not list "
        "demo.2.events, demo.3.events, demo.4.events (truncated master file?)",
    )


@pytest.mark.parametrize("master", ["1:1,2\n3:3,4\n", "1:1\n2:2\n3:3\n4:4\n"])
def test_otf_master_file_covering_every_process_loads(tmp_path, master):
    run = tmp_path / "demo-otf"
    shutil.copytree(DEMO_OTF, run)
    (run / "demo.otf").write_text(master)
    assert load(run / "demo.otf", tmp_path / "x.cosydb").returncode == 0


def test_cube_visits_beyond_64_bits_are_refused(tmp_path):
    """Found by tests/fuzz_inputs.py (a flipped byte of a visits count): was DuckDB's
    'Conversion Error ... out of range for ... INT64', naming no file."""
    p = solver_profile()
    p.add("prog/main", 0, visits=1.6e19)
    path = p.write(tmp_path / "profile.cubex")
    refused(tmp_path, path, "metric 'visits' holds counts beyond 64 bits (corrupt data?)")


def test_summary_names_with_control_characters_stay_on_one_line(tmp_path):
    """Found by tests/fuzz_inputs.py: a region name with a newline split the error in lines."""
    path = write_csv(tmp_path, 'openmp,2,main,Function,"x\ny\x1b",sums,,1,2.0\n')
    refused(tmp_path, path, "regions[0].parent: region 'x\\ny\\x1b' is not defined in regions")


@pytest.mark.parametrize(
    "old, new, needle",
    [
        ("\nE4\n", "\nEffffffff\n", "corrupt event data: region_id: Integer value 4294967295 not in range"),
        (
            "\n4c4b40\n*3\nL2\n",
            "\n8000000000000000\n*3\nL2\n",
            "corrupt event data: timestamp 9223372036854775808 outside",
        ),
    ],
    ids=["function-id-beyond-32-bits", "timestamp-beyond-63-bits"],
)
def test_otf_event_values_beyond_their_columns_are_refused(tmp_path, old, new, needle):
    """Found by tests/fuzz_inputs.py: a function id 0xffffffff ('internal error: ArrowInvalid')
    and a timestamp beyond 2^63 ('internal error: OverflowError' storing the experiment)."""
    run = tmp_path / "demo-otf"
    shutil.copytree(DEMO_OTF, run)
    stream = run / "demo.3.events"
    assert old in stream.read_text()
    stream.write_text(stream.read_text().replace(old, new, 1))
    refused(tmp_path, run / "demo.otf", needle)


def test_otf_definition_id_beyond_its_column_is_refused(tmp_path):
    """A function defined with id 0xffffffff (the regions' region_id is 32-bit signed) was
    'internal error: ArrowInvalid'."""
    run = tmp_path / "demo-otf"
    shutil.copytree(DEMO_OTF, run)
    definitions = run / "demo.0.def"
    assert '\nDF1G1NM"demo"' in definitions.read_text()
    definitions.write_text(definitions.read_text().replace('\nDF1G1NM"demo"', '\nDFffffffffG1NM"demo"'))
    refused(tmp_path, run / "demo.otf", "corrupt definitions: regions: Value 4294967295 too large")
