"""``cosydb sql --format table|csv|json`` writes every DuckDB type, JSON as RFC 8259 and CSV
that the csv module reads, a batch at a time in bounded memory."""

import base64
import csv
import decimal
import io
import json
import subprocess
import sys

import pytest
from conftest import COSYDB, cosydb, small_db


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    return small_db(tmp_path_factory)


def strict_json(text: str):
    """``text`` parsed as RFC 8259 JSON only (no NaN or Infinity), decimals kept exact."""

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse, parse_float=decimal.Decimal)


VALUES = (
    "SELECT 'nan'::DOUBLE AS nan, '-inf'::DOUBLE AS inf, '\\xAA\\x00'::BLOB AS blob, DATE '2020-01-02' AS day, "
    "TIMESTAMP '2020-01-02 03:04:05' AS ts, 1.50::DECIMAL(10, 2) AS money, "
    "170141183460469231731687303715884105727::HUGEINT AS huge, [1, 2] AS list, {'a': 1, 'b': 'x'} AS struct, "
    "MAP {'k': 2} AS map, 7::UNION(a INTEGER, b VARCHAR) AS u, INTERVAL 3 DAY AS span, "
    "'DUCK'::ENUM('DUCK', 'GOOSE') AS e"
)


def test_json_is_rfc_8259_with_exact_numbers(db):
    result = cosydb("sql", db, VALUES, "--format", "json")
    assert result.returncode == 0, result.stderr
    [row] = strict_json(result.stdout)
    assert row["nan"] is None and row["inf"] is None
    assert base64.b64decode(row["blob"]) == b"\xaa\x00"
    assert row["day"] == "2020-01-02" and row["ts"].startswith("2020-01-02")
    assert row["money"] == decimal.Decimal("1.50")
    assert row["huge"] == 170141183460469231731687303715884105727
    assert row["list"] == [1, 2] and row["struct"] == {"a": 1, "b": "x"} and row["map"] == [["k", 2]]
    assert row["u"] == 7 and row["span"] == {"months": 0, "days": 3, "nanoseconds": 0} and row["e"] == "DUCK"


def test_csv_writes_nested_values_as_json_text(db):
    result = cosydb("sql", db, VALUES, "--format", "csv")
    assert result.returncode == 0, result.stderr
    [header, row] = list(csv.reader(io.StringIO(result.stdout)))
    cells = dict(zip(header, row, strict=True))
    assert json.loads(cells["list"]) == [1, 2] and json.loads(cells["struct"]) == {"a": 1, "b": "x"}
    assert json.loads(cells["map"]) == [["k", 2]] and json.loads(cells["span"])["days"] == 3
    assert base64.b64decode(cells["blob"]) == b"\xaa\x00" and cells["u"] == "7" and cells["e"] == "DUCK"
    assert cells["day"] == "2020-01-02" and decimal.Decimal(cells["money"]) == decimal.Decimal("1.50")


@pytest.mark.parametrize("query", ["SELECT * FROM test_all_types()", "SELECT * FROM duckdb_settings()"])
def test_every_duckdb_type_in_every_format(db, query):
    shown = cosydb("sql", db, query, "--format", "json")
    assert shown.returncode == 0, shown.stderr
    rows = strict_json(shown.stdout)
    header = list(rows[0])
    written = cosydb("sql", db, query, "--format", "csv")
    assert written.returncode == 0, written.stderr
    lines = list(csv.reader(io.StringIO(written.stdout)))
    assert lines[0] == header and len(lines) == len(rows) + 1 and {len(line) for line in lines} == {len(header)}
    table = cosydb("sql", db, query)
    assert table.returncode == 0 and table.stdout.rstrip().endswith(f"({len(rows)} rows)"), table.stderr


def test_table_shows_the_first_rows_and_counts_the_rest(db):
    result = cosydb("sql", db, "SELECT range AS i FROM range(2500)", "--limit", "10")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "(2500 rows, the first 10 shown: --limit)" and len(lines) == 12
    assert [line.strip() for line in lines[1:11]] == [str(i) for i in range(10)]


PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.stderr.strip())
"""


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_large_result_is_written_in_bounded_memory(db, fmt):
    """500,000 rows of 800 characters (400 MB of text): the cosydb process's peak resident
    memory stays below what holding the result would take."""
    query = "SELECT range AS i, repeat('x', 800) AS s FROM range(500000)"
    done = subprocess.run(
        [sys.executable, "-c", PEAK, COSYDB, "sql", str(db), query, "--format", fmt], capture_output=True, text=True
    )
    code, peak_kib, *error = done.stdout.split(maxsplit=2)
    assert code == "0", (done.stdout, done.stderr)
    assert int(peak_kib) < 400_000, f"{fmt}: peak {int(peak_kib) // 1024} MiB"
