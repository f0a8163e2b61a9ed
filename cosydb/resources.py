"""The machine resources cosydb's DuckDB work may use: memory and threads.

Each comes from the command line option (``--memory-limit``, ``--threads``), else the
environment (``COSYDB_MEMORY_LIMIT``, ``COSYDB_THREADS``), else the default below. The
memory limit is DuckDB's budget (beyond it DuckDB spills to disk where it can); it is
not a bound on the whole process. A statement that runs out of the default budget (not
one a user gave) runs once more within DuckDB's own default, 80 % of the machine's memory
(``growing``): a user who set no budget wants the result.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TypeVar

import duckdb

from . import partitions
from .errors import CosyError

#: The default budget of DuckDB while a load derives its tables, one location partition at a
#: time for the per-location models (the whole load stays well below 1 GiB).
LOAD_MEMORY_LIMIT = "480MB"
#: The default budget of DuckDB while a report or cube evaluates the catalog: the delay
#: analysis of a trace with many wait states would take gigabytes unbounded (4 GiB on
#: 30M synthetic events); with this budget it spills and the process stays near 1.5 GiB
#: (100M events of 1,024 ranks: 1.5 GiB and 158-172 s; under 640MB 1.0 GiB and 201 s).
REPORT_MEMORY_LIMIT = "1GB"
#: DuckDB variable: true while the connection's budget is a default one that may grow once
_MAY_GROW = "cosydb_budget_may_grow"
_T = TypeVar("_T")
_SIZE = re.compile(r"^\s*\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KIB|MIB|GIB|TIB)\s*$", re.I)


def memory_limit(given: str | None = None, default: str | None = None) -> str | None:
    """The memory limit to use, checked ('640MB', '2GB', '1.5GiB'); None: DuckDB's default."""
    value = given or os.environ.get("COSYDB_MEMORY_LIMIT") or default
    if value is None:
        return None
    if not _SIZE.match(value):
        where = "--memory-limit" if given else "COSYDB_MEMORY_LIMIT"
        raise CosyError(where, f"'{value}' is not a size such as 640MB or 2GB")
    return value.replace(" ", "")


def threads(given: int | None = None) -> int:
    """The number of DuckDB threads to use (default: the cores this process may run on)."""
    if given is not None:
        value, where = str(given), "--threads"
    else:
        value, where = os.environ.get("COSYDB_THREADS") or str(len(os.sched_getaffinity(0))), "COSYDB_THREADS"
    if not value.isdigit() or int(value) < 1:
        raise CosyError(where, f"'{value}' is not a positive number of threads")
    return int(value)


def apply(
    con: duckdb.DuckDBPyConnection,
    memory: str | None = None,
    n_threads: int | None = None,
    default_memory: str | None = None,
) -> None:
    """Set the memory limit (if any) and the thread count of ``con``, and keep DuckDB's
    progress bar (drawn for queries over 2 s) out of cosydb's output."""
    limit = memory_limit(memory, default_memory)
    if limit is not None:
        con.execute(f"SET memory_limit = '{limit}'")
    may_grow = limit is not None and not memory and not os.environ.get("COSYDB_MEMORY_LIMIT")
    con.execute(f"SET VARIABLE {_MAY_GROW} = {str(may_grow).lower()}")
    con.execute(f"SET threads = {threads(n_threads)}")
    con.execute("SET enable_progress_bar = false")


def growing(con: duckdb.DuckDBPyConnection, run: Callable[[], _T], what: object) -> _T:
    """``run()``, a statement on ``con``; where it runs out of a default budget (``apply``),
    ``run()`` once more within DuckDB's own default, said on stderr with ``what`` it computes.
    A budget the user gave, or one grown already, raises DuckDB's error."""
    try:
        return run()
    except duckdb.OutOfMemoryException:
        (may_grow,) = con.execute(f"SELECT coalesce(getvariable('{_MAY_GROW}'), false)").fetchone()
        if not may_grow:
            raise
        (budget,) = con.execute("SELECT current_setting('memory_limit')").fetchone()
        con.execute("RESET memory_limit")  # DuckDB 1.5 names its default, but keeps the old limit in force
        (grown,) = con.execute("SELECT current_setting('memory_limit')").fetchone()
        con.execute(f"SET memory_limit = '{grown}'")
        con.execute(f"SET VARIABLE {_MAY_GROW} = false")
        print(
            f"cosydb: {what} needed more than the default memory budget ({budget}); computed again within "
            f"{grown} (--memory-limit sets a budget of your own)",
            file=sys.stderr,
            flush=True,
        )
        return run()


def describe() -> dict:
    """The settings in force and where each comes from."""
    from_env = bool(os.environ.get("COSYDB_MEMORY_LIMIT"))
    return dict(
        load_memory_limit=memory_limit(None, LOAD_MEMORY_LIMIT),
        report_memory_limit=memory_limit(None, REPORT_MEMORY_LIMIT),
        memory_limit_from="COSYDB_MEMORY_LIMIT" if from_env else "default",
        threads=threads(),
        threads_from="COSYDB_THREADS" if os.environ.get("COSYDB_THREADS") else "cores available",
        partition_events=partitions.events_per_partition(),
        partition_events_from="COSYDB_PARTITION_EVENTS" if os.environ.get("COSYDB_PARTITION_EVENTS") else "default",
        otf2_decoder=_otf2_decoder(),
        otf2_decoder_from="COSYDB_OTF2_DECODER" if os.environ.get("COSYDB_OTF2_DECODER") else "default",
        duckdb=duckdb.__version__,
        cores=os.cpu_count(),
    )


def _otf2_decoder() -> str:
    """native (compiled OTF2 callbacks) or python (the reference, and the fallback)."""
    from .loaders.otf2_native import decoder

    return decoder()


def error_text(error: duckdb.Error) -> str:
    """DuckDB's message as one line; running out of memory names cosydb's way to give it more
    (DuckDB's own advice names ``SET`` statements, which cosydb's commands do not take)."""
    text = str(error)
    if isinstance(error, duckdb.OutOfMemoryException):
        text = (
            text.split("\n\n")[0] + " - give DuckDB more memory with --memory-limit (or COSYDB_MEMORY_LIMIT), "
            "e.g. 4GB, or fewer threads with --threads (COSYDB_THREADS)"
        )
    return " ".join(text.split())
