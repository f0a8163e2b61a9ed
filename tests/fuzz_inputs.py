"""Damaged and hostile non-OTF2 inputs through the ``cosydb`` CLI (tests/test_fuzz.py does OTF2).

Kinds: ``otf`` (the demo OTF v1 trace), ``otf-z`` (an OTF v1 trace written by the OTF
library with zlib-compressed ``.z`` files: damaged as stored, or inflated, damaged and
compressed again, so that the damage reaches the library's parser), ``cubex`` (a constructed
CUBE4 profile: the archive, or one member of it), ``json`` and ``csv`` (ASL summary input,
docs/examples), ``asl`` (ASL files: ``cosydb asl check FILE``, and every fourth one also
``cosydb report DB --asl FILE``) and ``sql`` (``cosydb sql DB STATEMENT`` with statements and
Jinja templates). Case ``k`` of a kind is a valid input damaged in one of four ways, chosen by
a generator seeded with (seed, kind, k): bytes flipped, the file cut, junk inserted, or a field
edited (a number, name or value replaced by a hostile one).

Every case runs as a command line in a process forked from one helper interpreter
(tests/cli_process.py), killed after TIMEOUT seconds, and is classified: ``ok`` (exit 0),
``refused`` (exit 2, or 1 for ``asl check``'s list of problems, one line ``cosydb: ...``
naming the input file) or a problem: ``hang``, ``signal``, ``traceback``, ``internal
error``, ``not one line``, ``partial`` (a database left by a failed load, a temporary file
left in the database, the input directory or TMPDIR, or a database ``sql`` changed).

``python tests/fuzz_inputs.py N [SEED]`` runs N cases over the kinds in turn and prints the
counts; tests/test_fuzz.py runs a few per kind.
"""

from __future__ import annotations

import collections
import io
import json
import os
import random
import re
import shutil
import sys
import tarfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import cli_process

ROOT = Path(__file__).resolve().parents[1]
SMALL_TRACE = ROOT.parent / "shared" / "traces" / "scorep-late_sender" / "traces.otf2"
KINDS = ("otf", "otf-z", "cubex", "json", "csv", "asl", "sql")
SEED = 37
TIMEOUT = 30  # seconds; a case takes a fraction of one, a report a few

#: values a field edit puts in place of a number
NUMBERS = (
    "-1",
    "0",
    "-0",
    "2147483648",
    "4294967296",
    "9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "1e308",
    "1e400",
    "-1e400",
    "1" + "0" * 400,
    "NaN",
    "Infinity",
    "0.5",
    "1e-400",
)
#: values a field edit puts in place of a name or string
TEXTS = ("", " ", "\x1b[31m", "é", "\u2028", "a" * 5000, "'", '"', "\\", "{{", "}}", "\x00", "</x>", "&")
#: JSON values a structural edit puts in place of a value
JSON_VALUES = (
    None,
    True,
    [],
    {},
    -1,
    2**64,
    10**400,
    1e308,
    "x",
    "",
    [[[[[]]]]],
    {"a": 1},
    "\x00",
    0.5,
    2**20,
    2**20 + 1,
)
#: statements ``cosydb sql`` runs; the fuzz damages them
STATEMENTS = (
    "SELECT count(*) AS n FROM events",
    "SELECT name, count(*) AS n FROM regions GROUP BY name ORDER BY n DESC LIMIT 5",
    "SELECT * FROM {{ ref('callpaths') }} LIMIT 3",
    "{% set n = 3 %}SELECT {{ n }} AS n, 'x' AS s",
    "WITH x AS (SELECT 1 AS a) SELECT a * 2 AS b FROM x",
    "SELECT location_id, sum(time) AS t FROM events WHERE type = 'ENTER' GROUP BY ALL",
    "SELECT 1.5 AS f, NULL AS n, 'a''b' AS q, DATE '2020-01-01' AS d",
)
#: what a statement edit inserts or puts in place of a word
SQL_WORDS = (
    "COPY",
    "ATTACH",
    "INSTALL",
    "LOAD",
    "PRAGMA",
    "EXPLAIN",
    "EXPLAIN ANALYZE",
    "CREATE TABLE t AS",
    "DROP TABLE events;",
    "CHECKPOINT;",
    "SET threads = 1;",
    ";",
    "'",
    '"',
    "(",
    ")",
    "--",
    "/*",
    "{{",
    "}}",
    "{%",
    "%}",
    "{{ 1/0 }}",
    "{{ ref() }}",
    "{{ ref('nope') }}",
    "{{ ref('x', 1, 2) }}",
    "{{ config }}",
    "{{ 10**400 }}",
    "{% for i in range(3) %}{{ i }}{% endfor %}",
    "\x00",
    "\x1b[31m",
    "read_csv('x')",
    "getenv('HOME')",
    "[1, 2]",
    "{'a': 1}",
    "'\\xff'::BLOB",
    "1e400",
    "9223372036854775808",
)
#: what may stay in TMPDIR: Jinja's and Lark's caches of compiled templates and grammars
CACHES = ("_jinja2-cache-", ".lark_cache_")
FORMATS = ((), ("--format", "csv"), ("--format", "json"), ("--format", "table"))


@dataclass
class Case:
    kind: str
    k: int
    what: str  # the damage, for the report
    args: list  # the command line after ``cosydb``
    names: tuple[str, ...]  # a refusal names one of these (file names), or () for sql
    inputs: Path  # the directory that holds the damaged input (must not change but for it)
    db: Path | None = None  # a load's database: none after a failure
    shared_db: Path | None = None  # the database a sql or report runs on


@dataclass
class Stats:
    tried: collections.Counter = field(default_factory=collections.Counter)
    outcomes: collections.Counter = field(default_factory=collections.Counter)  # (kind, outcome)
    failures: list = field(default_factory=list)  # (kind, outcome, description)
    seconds: list = field(default_factory=list)

    def problems(self, outcome: str) -> int:
        return sum(n for (_, o), n in self.outcomes.items() if o == outcome)


# -- damage -----------------------------------------------------------------------------------


def damage_bytes(rng: random.Random, data: bytes, edit) -> tuple[bytes, str]:
    """``data`` damaged one of four ways; ``edit`` does the kind's field edit (or None)."""
    how = rng.choice(("flip", "cut", "junk", "edit", "edit"))
    if not data:
        return b"\x00", "empty file given a NUL byte"
    if how == "flip":
        data = bytearray(data)
        flips = []
        for _ in range(rng.choice((1, 1, 2, 3, 8))):
            i = rng.randrange(len(data))
            old = data[i]
            data[i] = rng.choice((0x00, 0xFF, old ^ (1 << rng.randrange(8)), rng.randrange(256))) or old ^ 0xFF
            flips.append(f"{i}:{old:02x}->{data[i]:02x}")
        return bytes(data), "flipped " + " ".join(flips)
    if how == "cut":
        cut = rng.randrange(len(data))
        return data[:cut], f"cut at {cut} of {len(data)} bytes"
    if how == "junk" or edit is None:
        i = rng.randrange(len(data) + 1)
        junk = rng.choice(
            (
                bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))),
                b"\n" * rng.randrange(1, 5),
                rng.choice(TEXTS).encode(),
                rng.choice(NUMBERS).encode(),
                b"\xef\xbb\xbf",
            )
        )
        return data[:i] + junk + data[i:], f"{len(junk)} junk bytes inserted at {i}"
    return edit(rng, data)


def edit_text_field(rng: random.Random, data: bytes, hexadecimal: bool = False) -> tuple[bytes, str]:
    """A number (hexadecimal: a hex run) or quoted name of a text file replaced by a hostile one."""
    text = data.decode("utf-8", errors="surrogateescape")
    pattern = r"[0-9a-fA-F]+" if hexadecimal else r'-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"[^"\n]*"'
    spots = list(re.finditer(pattern, text))
    if not spots:
        return data + b"0", "0 appended"
    spot = rng.choice(spots)
    if spot.group().startswith('"'):
        new = json.dumps(rng.choice(TEXTS)) if rng.random() < 0.5 else '"' + rng.choice(TEXTS)
    elif hexadecimal:
        new = rng.choice(("0", "ffffffff", "100000000", "ffffffffffffffff", "10000000000000000", "-1", "g"))
    else:
        new = rng.choice(NUMBERS)
    text = text[: spot.start()] + new + text[spot.end() :]
    return text.encode(
        "utf-8", errors="surrogateescape"
    ), f"field {spot.group()[:20]!r} at {spot.start()} -> {new[:20]!r}"


def edit_json(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """One value of the document replaced, a key removed or an unknown key added."""
    doc = json.loads(data)
    spots = []

    def walk(node, path):
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            spots.append((node, key, f"{path}/{key}"))
            walk(value, f"{path}/{key}")

    walk(doc, "")
    parent, key, where = rng.choice(spots)
    how = rng.random()
    if how < 0.15 and isinstance(parent, dict):
        del parent[key]
        what = f"{where} removed"
    elif how < 0.25 and isinstance(parent, (dict, list)):
        (parent.__setitem__("zz", 1) if isinstance(parent, dict) else parent.append(parent[key]))
        what = f"{where}: a field or item added beside it"
    else:
        parent[key] = rng.choice(JSON_VALUES)
        what = f"{where} -> {json.dumps(parent[key])[:30]}"
    return json.dumps(doc).encode(), what


def edit_csv(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """One cell replaced (a number, a name or a separator), or a row repeated or dropped."""
    lines = data.decode().splitlines()
    i = rng.randrange(len(lines))
    if rng.random() < 0.2:
        del lines[i]
        return ("\n".join(lines) + "\n").encode(), f"line {i + 1} removed"
    cells = lines[i].split(",")
    j = rng.randrange(len(cells))
    cells[j] = rng.choice(NUMBERS + TEXTS + (",", '"a,b"', "openmp", "hpf", "thread", "instance", "1000000000000"))
    lines[i] = ",".join(cells)
    return ("\n".join(lines) + "\n").encode(), f"line {i + 1} cell {j} -> {cells[j][:20]!r}"


def edit_asl(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """A word, number or operator of an ASL file replaced by another one of the file or a hostile one."""
    text = data.decode(errors="surrogateescape")
    tokens = list(re.finditer(r"\w+|[^\w\s]+", text))
    spot = rng.choice(tokens)
    new = rng.choice(
        [t.group() for t in rng.sample(tokens, 5)]
        + list(NUMBERS[:8])
        + ["", "{", "}", "(", ")", ";", "WITH", "IN", "LET", "PROPERTY", "UNIQUE({", "/ 0", "\x00", "é"]
    )
    text = text[: spot.start()] + new + text[spot.end() :]
    return text.encode(errors="surrogateescape"), f"token {spot.group()[:20]!r} at {spot.start()} -> {new[:20]!r}"


def edit_otf_z(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """A ``.z`` file inflated, damaged as text and compressed again (the library parses the damage)."""
    text = zlib.decompressobj().decompress(data)
    damaged, what = damage_bytes(rng, text, lambda r, d: edit_text_field(r, d, hexadecimal=True))
    return zlib.compress(damaged), f"inflated, {what}, compressed"


def edit_cubex(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """One member of the archive damaged (anchor.xml: its fields as text), the archive rewritten."""
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers()}
    name = rng.choice(sorted(members) + ["anchor.xml"] * 3)
    if name == "anchor.xml" and rng.random() < 0.5:
        members[name], what = edit_text_field(rng, members[name])
    else:
        members[name], what = damage_bytes(rng, members[name], edit_text_field if name == "anchor.xml" else None)
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for member, content in members.items():
            info = tarfile.TarInfo(member)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return out.getvalue(), f"member {name}: {what}"


# -- the valid inputs -------------------------------------------------------------------------


def make_seeds(directory: Path) -> dict:
    """The valid inputs the cases damage, and the database sql and report run on."""
    from cosydb.fixtures import otf_writer
    from cosydb.fixtures.generator import TraceBuilder
    from cosydb.fixtures.profile_builder import ProfileBuilder

    directory.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "fixtures" / "demo-otf", directory / "otf")
    b = TraceBuilder(3)
    for r in range(3):
        with b[r].open("main", 0, 900):
            b[r].region("work", 10, 100 + 50 * r)
            if r == 0:
                b[r].mpi_send(300, 320, dst=1, tag=7, nbytes=64)
            elif r == 1:
                b[r].mpi_recv(200, 400, src=0, tag=7, nbytes=64)
            b[r].collective("MPI_Allreduce", 500 + 10 * r, 600, sent=8, received=8)
    otf_writer.write(b, directory / "otf-z", compression=6, collective_records="begin_end", short_leaves=True)
    p = ProfileBuilder(2, counters=("PAPI_TOT_CYC",))
    for r in range(2):
        p.add("prog", r, visits=1)
        p.add("prog/main", r, visits=1, time=1.0 + r, PAPI_TOT_CYC=1000)
        p.add("prog/main/MPI_Barrier", r, visits=1, time=0.5 - 0.4 * r)
    p.write(directory / "cubex" / "profile.cubex")
    for kind, sources in (
        ("json", ["openmp-summary.json", "hpf-summary.json"]),
        ("csv", ["openmp-summary.csv"]),
        ("asl", ["mpi_call_heavy_on_some_processes.asl"]),
    ):
        (directory / kind).mkdir()
        for name in sources:
            shutil.copyfile(ROOT / "docs" / "examples" / name, directory / kind / name)
    shutil.copyfile(ROOT / "properties" / "asl" / "mpi.asl", directory / "asl" / "mpi.asl")
    from cosydb.loading import load

    db = directory / "shared.cosydb"
    load(SMALL_TRACE, db)
    return {"dir": directory, "db": db}


# -- cases ------------------------------------------------------------------------------------


def make_case(kind: str, k: int, seed: int, seeds: dict, work: Path) -> Case:
    """Case ``k`` of ``kind``: its damaged input written under ``work``."""
    rng = random.Random(f"{seed}-{kind}-{k}")
    source = seeds["dir"] / ("otf" if kind == "otf" else kind)
    inputs = work / f"{kind}-{k}"
    if kind == "sql":
        inputs.mkdir(parents=True)
        statement = rng.choice(STATEMENTS)
        how = rng.random()
        if how < 0.6:
            words = re.split(r"(\s+)", statement)
            i = rng.randrange(len(words) + 1)
            word = rng.choice(SQL_WORDS)
            if rng.random() < 0.5 and i < len(words):
                words[i] = word
            else:
                words.insert(i, " " + word + " ")
            statement, what = "".join(words), f"word {i} -> {word!r}"
        else:
            data, what = damage_bytes(rng, statement.encode(), None)
            statement = data.decode("utf-8", errors="replace").replace("\x00", "\\0")
        return Case(
            kind, k, what, ["sql", seeds["db"], statement, *rng.choice(FORMATS)], (), inputs, shared_db=seeds["db"]
        )
    shutil.copytree(source, inputs)
    files = sorted(p for p in inputs.iterdir() if p.is_file())
    if kind == "otf-z":
        files = [p for p in files if p.suffix == ".z"] + [p for p in files if p.suffix != ".z"][:1]
    target = files[k % len(files)] if kind not in ("json",) else rng.choice(files)
    edit = {
        "otf": lambda r, d: edit_text_field(r, d, hexadecimal=True),
        "otf-z": edit_otf_z if target.suffix == ".z" and rng.random() < 0.6 else None,
        "cubex": edit_cubex,
        "json": edit_json,
        "csv": edit_csv,
        "asl": edit_asl,
    }[kind]
    data = target.read_bytes()
    if kind in ("otf-z", "cubex") and edit is not None:
        damaged, what = edit(rng, data)
    else:
        damaged, what = damage_bytes(rng, data, edit)
    target.write_bytes(damaged)
    what = f"{target.name}: {what}"
    names = tuple(p.name for p in inputs.iterdir())
    if kind in ("otf", "otf-z"):
        master = next(inputs.glob("*.otf"))
        return Case(
            kind,
            k,
            what,
            ["load", master, "--db", work / f"{kind}-{k}.cosydb"],
            names,
            inputs,
            work / f"{kind}-{k}.cosydb",
        )
    if kind == "asl":
        if k % 4 == 3:
            args = ["report", seeds["db"], "--asl", target, "--property", "MpiCallHeavyOnSomeProcesses"]
            return Case(kind, k, what, args, (*names, "--property"), inputs, shared_db=seeds["db"])
        return Case(kind, k, what, ["asl", "check", target], names, inputs)
    return Case(
        kind, k, what, ["load", target, "--db", work / f"{kind}-{k}.cosydb"], names, inputs, work / f"{kind}-{k}.cosydb"
    )


def listing(directory: Path) -> dict:
    """Every file under ``directory``: (size, mtime) by relative path."""
    if not directory.exists():
        return {}
    return {
        p.relative_to(directory).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in directory.rglob("*")
        if p.is_file()
    }


def run_case(helper, case: Case, scratch: Path, tmp: Path) -> tuple[str, float, str]:
    """(outcome, seconds, stderr) of one case: 'ok', 'refused' or the problem."""
    inputs_before = set(listing(case.inputs))
    db_before = listing(case.shared_db) if case.kind == "sql" else None
    out, err = scratch / "stdout", scratch / "stderr"
    status, seconds = helper.run(case.args, out, err, cwd=case.inputs, timeout=TIMEOUT)
    stdout, stderr = out.read_text(errors="replace"), err.read_text(errors="replace")
    lines = stderr.strip().splitlines()
    left = [f"TMPDIR/{p.name}" for p in tmp.iterdir() if not p.name.startswith(CACHES)]
    left += sorted(set(listing(case.inputs)) - inputs_before)
    if case.shared_db:
        left += [n for n in listing(case.shared_db) if n.endswith(".tmp") or ".tmp." in n]
    if status == "hang":
        outcome = "hang"
    elif not isinstance(status, int):
        outcome = "signal"
    elif "Traceback" in stderr + stdout:
        outcome = "traceback"
    elif "internal error" in stderr:
        outcome = "internal error"
    elif status != 0 and case.db is not None and case.db.exists():
        outcome = "partial"
    elif left:
        outcome = "partial"
        stderr += f"\nleft behind: {left[:5]}"
    elif db_before is not None and listing(case.shared_db) != db_before:
        outcome = "partial"
        stderr += "\nthe database was changed"
    elif status == 0 and case.db is not None and not (case.db / "cosydb.duckdb").is_file():
        outcome = "partial"
        stderr += "\nno database after a successful load"
    elif status == 0:
        outcome = "ok"
    elif case.args[:2] == ["asl", "check"] and status == 1 and not lines and stdout.strip():
        outcome = "refused"  # asl check lists the problems on stdout
    elif status not in (1, 2) or len(lines) != 1 or not lines[0].startswith("cosydb: "):
        outcome = "not one line"
    elif case.names and not any(name in lines[0] for name in case.names):
        outcome = "not naming the file"
    else:
        outcome = "refused"
    for p in tmp.iterdir():
        if not p.name.startswith(CACHES):
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    return outcome, seconds, stderr


def cases(n: int) -> list[tuple[str, int]]:
    """``n`` (kind, k) in turn over the kinds."""
    return [(KINDS[i % len(KINDS)], i // len(KINDS)) for i in range(n)]


def fuzz(n: int, directory: Path, seed: int = SEED, kinds=None) -> Stats:
    """Run ``n`` cases (over ``kinds``, default all) in ``directory``; their statistics."""
    tmp = directory / "tmp"
    tmp.mkdir(parents=True)
    seeds = make_seeds(directory / "seeds")
    pristine = directory / "pristine.cosydb"
    shutil.copytree(seeds["db"], pristine)
    previous = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(tmp)  # the helper and its children put temporary files there
    helper = cli_process.Helper()
    stats = Stats()
    try:
        for kind, k in cases(n) if kinds is None else [(kinds[i % len(kinds)], i // len(kinds)) for i in range(n)]:
            case = make_case(kind, k, seed, seeds, directory / "work")
            outcome, seconds, stderr = run_case(helper, case, directory, tmp)
            stats.tried[kind] += 1
            stats.outcomes[(kind, outcome)] += 1
            stats.seconds.append(seconds)
            if outcome not in ("ok", "refused"):
                shown = " ".join(map(str, case.args[:1])) + (f" {case.args[2]!r}" if kind == "sql" else "")
                stats.failures.append(
                    (
                        kind,
                        outcome,
                        f"{kind} {k} ({case.what}) [{shown}]: {outcome}\n    "
                        + "\n    ".join(stderr.strip().splitlines()[-4:]),
                    )
                )
            if case.shared_db and listing(case.shared_db) != listing(pristine) and kind == "sql":
                shutil.rmtree(case.shared_db)
                shutil.copytree(pristine, case.shared_db)
            shutil.rmtree(case.inputs, ignore_errors=True)
            if case.db:
                shutil.rmtree(case.db, ignore_errors=True)
    finally:
        helper.close()
        if previous is None:
            del os.environ["TMPDIR"]
        else:
            os.environ["TMPDIR"] = previous
    return stats


def summary(stats: Stats, seconds: float) -> str:
    problems = ("traceback", "hang", "partial", "signal", "internal error", "not one line", "not naming the file")
    lines = [f"{sum(stats.tried.values())} cases in {seconds:.0f} s (slowest {max(stats.seconds):.1f} s)"]
    for kind in KINDS:
        if stats.tried[kind]:
            counts = {o: n for (k, o), n in sorted(stats.outcomes.items()) if k == kind}
            lines.append(f"  {kind:6} tried {stats.tried[kind]:4}: {counts}")
    lines.append(
        "  "
        + ", ".join(
            f"{p}s: {stats.problems(p)}" if p in ("traceback", "hang") else f"{p}: {stats.problems(p)}"
            for p in problems
        )
    )
    lines.append(f"  loaded or ran: {stats.problems('ok')}, refused in one line: {stats.problems('refused')}")
    return "\n".join(lines + [f[2] for f in stats.failures])


if __name__ == "__main__":
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 70
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else SEED
    kinds = sys.argv[3].split(",") if len(sys.argv) > 3 else None
    with tempfile.TemporaryDirectory(prefix="cosydb-fuzz-") as scratch:
        started = time.perf_counter()
        stats = fuzz(n, Path(scratch), seed, kinds)
        print(summary(stats, time.perf_counter() - started))
