"""The ``cosydb`` command line: a thin typer layer over the library modules."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Optional

import duckdb
import typer
from rich.console import Console
from rich.table import Table

from . import __version__, database
from .errors import CosyError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Relational analysis database for MPI/OpenMP performance traces.")
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False)


def _fail(message: str, code: int = 2):
    err.print(f"cosydb: {message}", markup=False, soft_wrap=True)
    raise typer.Exit(code)


def _guard(function):
    """Run a command body, turning user errors into one line and exit code 2."""
    try:
        return function()
    except CosyError as error:
        _fail(str(error))
    except duckdb.Error as error:
        _fail(" ".join(str(error).split()))
    except KeyboardInterrupt:
        _fail("interrupted", 130)


@app.command()
def load(
    trace: Path = typer.Argument(..., help="OTF2 anchor file (traces.otf2) or the directory holding it."),
    db: Optional[Path] = typer.Option(None, "--db", help="Database directory (default: ./<run>.cosydb)."),
    name: Optional[str] = typer.Option(None, "--name", help="Experiment name (default: the run directory's name)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Reader processes (default: 2 for large traces)."),
):
    """Load a trace as a new experiment.

    Example: cosydb load run/traces.otf2 --db run.cosydb
    """
    from .load import load as load_experiment

    meta = _guard(lambda: load_experiment(trace, db, name, workers))
    out.print(f"loaded {meta['number_of_events']:,} events from {meta['number_of_locations']} locations "
              f"as experiment {meta['experiment_id']} '{meta['name']}' into {meta['db']}")
    for w in meta["warnings"]:
        where = f" (location {w['location_id']})" if w["location_id"] is not None else ""
        err.print(f"warning: {w['check']}: {w['count']} x {w['detail']}{where}", markup=False)


@app.command()
def info(db: Path = typer.Argument(..., help="Database directory.")):
    """Show experiments, ranks, regions, event counts, time span and warnings.

    Example: cosydb info run.cosydb
    """
    from .info import describe

    def body():
        con = database.connect(db)
        try:
            return describe(con)
        finally:
            con.close()

    for exp in _guard(body):
        out.print(f"[bold]experiment {exp['experiment_id']}: {exp['name']}[/bold]")
        out.print(f"  source     {exp['source_path']} ({exp['format']}, loaded {exp['load_time']}, "
                  f"cosydb {exp['tool_version']}, schema {exp['schema_version']})", markup=False)
        out.print(f"  ranks      {exp['ranks']}   locations {exp['number_of_locations']}   "
                  f"regions {exp['regions']}   events {exp['number_of_events']:,}")
        out.print(f"  time span  {exp['duration_s']:.6f} s   timer resolution "
                  f"{exp['timer_resolution']:,} ticks/s   global offset {exp['global_offset']}")
        table = Table("event type", "count", "payload", box=None, padding=(0, 2))
        for t in exp["event_types"]:
            table.add_row(t["type"], f"{t['count']:,}", "yes" if t["has_payload"] else "stored without payload")
        out.print(table)
        if exp["warnings"]:
            for w in exp["warnings"]:
                out.print(f"  warning: {w['check']}: {w['count']} x {w['detail']} "
                          f"on {w['locations']} location(s)", markup=False)
        else:
            out.print("  no warnings")


@app.command()
def sql(
    db: Path = typer.Argument(..., help="Database directory."),
    query: str = typer.Argument(..., help="SQL over the tables and views (see docs/schema.md)."),
    fmt: str = typer.Option("table", "--format", help="table, csv or json."),
):
    """Run one SQL query and print the result.

    Example: cosydb sql run.cosydb "SELECT region_id, sum(excl_s) FROM region_instances GROUP BY 1 ORDER BY 2 DESC"
    """
    if fmt not in ("table", "csv", "json"):
        _fail(f"--format: '{fmt}' is not one of table, csv, json")

    def body():
        con = database.connect(db)
        try:
            return con.execute(query).to_arrow_table()
        finally:
            con.close()

    result = _guard(body)
    if fmt == "json":
        out.print(json.dumps(result.to_pylist(), default=str, indent=1), markup=False)
    elif fmt == "csv":
        import pyarrow.csv as pacsv
        pacsv.write_csv(result, sys.stdout.buffer)
    else:
        table = Table(*result.column_names, box=None, padding=(0, 2))
        for row in result.to_pylist():
            table.add_row(*("NULL" if v is None else f"{v:.6g}" if isinstance(v, float) else str(v)
                            for v in row.values()))
        out.print(table)
        out.print(f"({result.num_rows} rows)")


@app.command()
def shell(db: Path = typer.Argument(..., help="Database directory.")):
    """Open the DuckDB shell on the database, every table and view ready.

    Example: cosydb shell run.cosydb
    """
    _guard(lambda: database.connect(db).close())  # validates, and re-points a moved database
    binary = shutil.which("duckdb") or str(Path(sys.executable).with_name("duckdb"))
    if not Path(binary).exists():
        _fail("the DuckDB shell is not installed (pip install duckdb-cli)")
    os.execv(binary, [binary, str(Path(db) / database.CATALOG)])


@app.command()
def version():
    """Print the cosydb version."""
    out.print(__version__)
