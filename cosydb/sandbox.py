"""The two guards of ``cosydb sql`` without ``--write``.

``check_reads_only`` judges the statement that runs (an EXPLAIN ANALYZE's inner statement,
the table functions of a SELECT at any depth) on DuckDB's own parse. ``forbid_writes`` has
the operating system agree: from then on this process (and every thread it starts later)
can create, write, truncate, rename or remove no file anywhere but under one private
directory (DuckDB's spill files), whatever SQL it runs. Linux's Landlock (kernel 5.13 or
later) enforces it; elsewhere it returns False and the statement check and DuckDB's
settings (``database.read_only_session``) are the guard.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from .errors import CosyError

_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same number on every Linux architecture
_VERSION = 1  # landlock_create_ruleset flag: ask for the ABI version
_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
# LANDLOCK_ACCESS_FS_*: WRITE_FILE, REMOVE_DIR, REMOVE_FILE, MAKE_CHAR .. MAKE_SYM (ABI 1),
# REFER (ABI 2: linking and renaming across directories), TRUNCATE (ABI 3)
_WRITES_BY_ABI = {1: 0b1_1111_1111_0010, 2: 1 << 13, 3: 1 << 14}


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def forbid_writes(writable: Path) -> bool:
    """Forbid this process from here on to change any file outside ``writable`` (a
    directory); True if the kernel enforces it, False where it cannot (not Linux, no Landlock).
    Threads started before keep their rights: call it before opening DuckDB."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    abi = libc.syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    if abi < 1:
        return False
    handled = sum(bits for version, bits in _WRITES_BY_ABI.items() if version <= abi)
    attr = ctypes.c_uint64(handled)  # struct landlock_ruleset_attr's first field, the one ABI 1 knows
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8), ctypes.c_uint32(0))
    if ruleset < 0:
        return False
    try:
        directory = os.open(writable, os.O_PATH | os.O_DIRECTORY)
        try:
            rule = _PathBeneath(handled, directory)
            if libc.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
                return False
        finally:
            os.close(directory)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            return False
        return libc.syscall(_RESTRICT_SELF, ruleset, ctypes.c_uint32(0)) == 0
    finally:
        os.close(ruleset)


def private_directory() -> Path:
    """This user's private directory in the system's temporary directory (Jinja's, which
    holds its compiled templates): where a read-only query may spill and nothing else."""
    import jinja2

    try:
        return Path(jinja2.FileSystemBytecodeCache().directory)
    except (OSError, RuntimeError):  # none can be made safely: a new one of this process
        import tempfile

        return Path(tempfile.mkdtemp(prefix="cosydb-"))


# --- the statement check: what runs must be one query that reads ---------------------------

#: table functions that only read (anything else, e.g. checkpoint(), enable_logging(),
#: query('...') whose text escapes this check, is refused); the sql/ table macros are added
READING_TABLE_FUNCTIONS = frozenset(
    "range generate_series unnest repeat repeat_row glob sniff_csv read_parquet parquet_scan read_csv "
    "read_csv_auto read_json read_json_auto read_json_objects read_json_objects_auto read_ndjson "
    "read_ndjson_auto read_ndjson_objects read_text read_blob parquet_metadata parquet_schema "
    "parquet_file_metadata parquet_kv_metadata parquet_full_metadata json_each json_tree summary "
    "histogram histogram_values show show_databases show_tables show_tables_expanded table_info "
    "storage_info database_size database_list metadata_info platform user_agent version extension_versions "
    "functions collations icu_calendar_names pg_timezone_names test_all_types test_vector_types".split()
)


def check_reads_only(query: str, allowed_functions: frozenset[str], parser) -> None:
    """Refuse (CosyError, one line) ``query`` unless it is one SELECT, or an EXPLAIN [ANALYZE]
    of one, calling no table function outside READING_TABLE_FUNCTIONS, ``duckdb_*``,
    ``pragma_*`` and ``allowed_functions``. Judged on DuckDB's own parse of the statement that
    runs (``parser``, a DuckDB connection: it only parses, running nothing of it): EXPLAIN
    ANALYZE runs the statement it explains, so that statement is judged."""
    import duckdb

    statements = parser.extract_statements(query)
    if len(statements) != 1:
        raise CosyError("sql", f"give one statement, not {len(statements)}")
    kind = statements[0].type
    if kind == duckdb.StatementType.EXPLAIN:
        explained = _explained(query)
        if explained is None:
            raise CosyError("sql", "an EXPLAIN must explain one SELECT; cosydb sql reads only")
        return check_reads_only(explained, allowed_functions, parser)
    if kind != duckdb.StatementType.SELECT:
        raise CosyError(
            "sql", f"a {kind.name} statement writes; cosydb sql reads only (--write allows it, or use cosydb shell)"
        )
    tree = json.loads(parser.execute("SELECT json_serialize_sql(?)", [query]).fetchone()[0])
    if tree.get("error"):
        raise CosyError("sql", f"cannot check the statement: {tree.get('error_message')}")
    for name in _table_functions(tree):
        reads = name in READING_TABLE_FUNCTIONS or name in allowed_functions or name.startswith(("duckdb_", "pragma_"))
        if not reads:
            raise CosyError(
                "sql",
                f"the table function {name}() is not one that only reads; cosydb sql reads only (--write allows it)",
            )


def _table_functions(node) -> Iterator[str]:
    """The names of the table functions anywhere in a parse tree of json_serialize_sql."""
    if isinstance(node, dict):
        if node.get("type") == "TABLE_FUNCTION":
            yield str(node["function"]["function_name"]).lower()
        for value in node.values():
            yield from _table_functions(value)
    elif isinstance(node, list):
        for value in node:
            yield from _table_functions(value)


def _skip_space(text: str, i: int) -> int:
    """The position after white space and comments (``--``, nested ``/* */``) from ``i``."""
    while i < len(text):
        if text[i].isspace():
            i += 1
        elif text.startswith("--", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end + 1
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while depth and i < len(text):
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        else:
            return i
    return i


def _word(text: str, i: int) -> str:
    match = re.match(r"[A-Za-z_]+", text[i:])
    return match.group(0).upper() if match else ""


def _explained(query: str) -> str | None:
    """The statement ``EXPLAIN [ANALYZE] [(options)] statement`` explains (and with ANALYZE
    runs); None if the text is not of that form."""
    i = _skip_space(query, 0)
    if _word(query, i) != "EXPLAIN":
        return None
    i = _skip_space(query, i + len("EXPLAIN"))
    if _word(query, i) in ("ANALYZE", "ANALYSE"):
        i = _skip_space(query, i + len("ANALYZE"))
    if query.startswith("(", i) and _word(query, _skip_space(query, i + 1)) not in ("SELECT", "WITH", "FROM", "VALUES"):
        depth, quote = 0, None  # an option list: skip to its closing parenthesis
        while i < len(query):
            c = query[i]
            if quote:
                quote = None if c == quote else quote
            elif c in "'\"":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        else:
            return None
        i += 1
    rest = query[i:]
    return rest if rest.strip() else None
