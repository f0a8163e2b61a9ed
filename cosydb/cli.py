"""The ``cosydb`` command line: a thin typer layer over the library modules."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sys
from pathlib import Path

import duckdb
import typer
from rich.table import Table
from rich.text import Text

from . import SCHEMA_VERSION, __version__, database, formats, interrupts, names
from .errors import CosyError, close_names, problem_text
from .terminal import err, out, width

try:  # the click that typer runs: its own copy from typer 0.20 on
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - an older typer
    from click import exceptions as click_errors


class _App(typer.Typer):
    """The command line; like coreutils it fails when stdout does not take its output (a full
    disk: one line, exit code 2), and ends quietly when the reader of a pipe is gone (``| head``)."""

    def __call__(self, *args, **kwargs):
        # opened first: a read-only `sql` may no longer open a file for writing when its output fails
        null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
        interrupts.between_handled()
        try:
            code = _exit_code(super().__call__(*args, standalone_mode=False, **kwargs))
        except SystemExit as done:  # typer.Exit / _fail
            code = done.code
        except click_errors.NoArgsIsHelpError as usage:  # the command's help
            usage.show()
            code = usage.exit_code
        except click_errors.UsageError as usage:  # one line, as every other error
            where = usage.ctx.command_path if usage.ctx else "cosydb"
            command = where.partition(" ")[2]
            message = names.printable(usage.format_message())
            err.print(f"cosydb: {command + ': ' if command else ''}{message} (see {where} --help)", soft_wrap=True)
            code = usage.exit_code
        except click_errors.ClickException as error:
            error.show()
            code = error.exit_code
        except typer.Abort:  # Ctrl-C outside a command's body, where typer does not make it exit code 130
            code = 130
        except OSError as error:  # a command's print to stdout failed
            code = _output_failed(error, null)
        signum = interrupts.raised_between()
        if signum:  # outside a command's body (printing its result): one line, as inside it
            error = interrupts.Interrupted(signum)
            err.print(f"cosydb: {error}")
            code = error.exit_code
        try:
            if sys.stdout is not None:
                sys.stdout.flush()
        except OSError as error:
            code = _output_failed(error, null)
        sys.exit(code)


def _exit_code(returned) -> int:
    """The exit code of a command that returned (click's standalone mode off): 0, or click's
    Exit code that a command or --help gave."""
    return returned if isinstance(returned, int) else 0


class _OutputFailed(OSError):
    """A write of a command's result to stdout failed (raised by :func:`_stdout`): ``_App``
    reports it as the output's error, not as the command's."""


@contextlib.contextmanager
def _stdout():
    """A block that writes a command's result to stdout while the command runs (in ``_guard``)."""
    try:
        yield
    except OSError as error:
        raise _OutputFailed(error.errno, error.strerror) from None


def _output_failed(error: OSError, null: int) -> int:
    """Exit code 1 for a pipe whose reader is gone (nothing printed, as click does), else one
    line and 2; stdout is then ``null`` (/dev/null), so that Python's final flush stays quiet."""
    os.dup2(null, sys.stdout.fileno())
    if error.errno == errno.EPIPE:
        return 1
    err.print(f"cosydb: write error: {error.strerror or error}", soft_wrap=True)
    return 2


app = _App(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # help texts as written: pip install 'cosydb[spark]' keeps its brackets
    help="Relational analysis database for MPI/OpenMP performance traces.",
)


def _version(shown: bool) -> None:
    if shown:
        out.print(f"cosydb {__version__} (database schema {SCHEMA_VERSION})")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
):
    """Relational analysis database for MPI/OpenMP performance traces."""


def _fail(message: str, code: int = 2):
    err.print(f"cosydb: {names.printable(message)}", soft_wrap=True)
    raise typer.Exit(code)


def _property_sources(properties_dir: list[Path] | None, asl: list[str] | None) -> list[Path]:
    """The plug-in directories and ASL specifications (files, or built-in names) to load."""
    from .catalog import asl_specification

    return [*(properties_dir or ()), *map(asl_specification, asl or ())]


def _guard(function):
    """Run a command body: user errors (bad input, SQL, the file system) become one line and
    exit code 2, a signal (SIGINT, SIGTERM, SIGHUP: ``interrupts.handled``) one line and exit
    code 128 + signal, anything else one line with exit code 1 and a request to report it
    (COSYDB_DEBUG=1 shows the traceback)."""
    try:
        with interrupts.handled():
            return function()
    except _OutputFailed:
        raise
    except CosyError as error:
        _fail(str(error))
    except (duckdb.Error, OSError) as error:  # the same line as the Python API's CosyError
        _fail(problem_text(error))
    except KeyboardInterrupt as error:  # cosydb.interrupts.Interrupted, or Ctrl-C where it is not handled
        _fail(str(error) or "interrupted", getattr(error, "exit_code", 130))
    except Exception as error:  # noqa: BLE001 - the last resort of a command line
        if os.environ.get("COSYDB_DEBUG"):
            raise
        _fail(
            f"internal error: {type(error).__name__}: {' '.join(str(error).split())} - please report it "
            "with the command that caused it (COSYDB_DEBUG=1 shows the traceback)",
            1,
        )


_ASL = typer.Option(
    None,
    "--asl",
    help="ASL specification whose properties to evaluate too: a file, or mpi, hpf, openmp for the "
    "report's MPI, HPF, OpenMP properties (repeatable; see cosydb asl).",
)
_SPARK_MASTER = typer.Option(
    None, "--spark-master", help="With --engine spark: the Spark master URL (default local[*])."
)


@app.command()
def load(
    ctx: typer.Context,
    traces: list[Path] = typer.Argument(
        ...,
        metavar="TRACE...",
        help="OTF2 anchor file (traces.otf2), OTF master file (NAME.otf), CUBE4 profile (profile.cubex) "
        "or a run directory holding one (a trace first); several: one experiment each, committed together.",
    ),
    db: Path | None = typer.Option(None, "--db", help="Database directory (default: ./<first run>.cosydb)."),
    name: str | None = typer.Option(
        None, "--name", help="Experiment name, with one trace (default: the run directory's name)."
    ),
    workers: int | None = typer.Option(
        None, "--workers", min=1, help="Reader processes (default: 2 for large traces)."
    ),
    memory_limit: str | None = typer.Option(
        None,
        "--memory-limit",
        help="DuckDB's memory budget while deriving, e.g. 2GB (env COSYDB_MEMORY_LIMIT; default 480MB).",
    ),
    threads: int | None = typer.Option(
        None, "--threads", help="DuckDB threads while deriving (env COSYDB_THREADS; default: the cores available)."
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress line (there is none when stderr is no terminal)."),
    engine: str = typer.Option(
        "duckdb", "--engine", help="duckdb, or spark: decode and derive on Apache Spark (pip install 'cosydb[spark]')."
    ),
    spark_master: str | None = _SPARK_MASTER,
    encoding: str | None = typer.Option(
        None,
        "--encoding",
        help="Encoding of an OTF (version 1) trace's names, e.g. koi8-r (default utf-8; "
        "a byte that is not of it is shown escaped: \\xd2).",
    ),
    then_report: bool = typer.Option(
        False,
        "--report",
        help="Then report on the (last) experiment loaded, in this process: `cosydb report DB "
        "--experiment NAME` with its defaults (and --memory-limit, --threads, --engine).",
    ),
):
    """Load traces or profiles as new experiments (several: derived together, all committed or none).

    Example: cosydb load run/traces.otf2 --db run.cosydb; cosydb load run/profile.cubex --db run.cosydb;
    cosydb load run-8 run-16 run-32 --db scaling.cosydb; cosydb load run --report
    """
    from .loading import load_runs

    def run_load(progress=None):
        if name is not None and len(traces) > 1:
            raise CosyError("--name", f"names one experiment: give it with one trace, not {len(traces)}")
        return load_runs(
            traces,
            db,
            [name] * len(traces),
            workers,
            memory_limit=memory_limit,
            threads=threads,
            progress=progress,
            engine=engine,
            spark_master=spark_master,
            encoding=encoding,
        )

    if quiet or not err.is_terminal:
        metas = _guard(run_load)
    else:  # one line on the terminal that follows the phases, gone when the load ends
        with err.status("cosydb load") as status:
            metas = _guard(lambda: run_load(lambda text: status.update(f"cosydb load: {text}")))
    for meta in metas:
        out.print(
            names.printable(
                f"loaded {meta['loaded']} from {meta['number_of_locations']} locations "
                f"as experiment {meta['experiment_id']} '{meta['name']}' into {meta['db']}"
            )
        )
        if meta["warnings"]:
            _print_warnings(meta)
    if then_report:  # the report command itself, on these arguments
        args = [str(metas[-1]["db"]), f"--experiment={metas[-1]['name']}", f"--engine={engine}"]
        for option, value in (
            ("--memory-limit", memory_limit),
            ("--threads", threads),
            ("--spark-master", spark_master),
        ):
            if value is not None:
                args.append(f"{option}={value}")
        command = ctx.parent.command.commands["report"]
        with command.make_context("report", args, parent=ctx.parent) as report_ctx:
            command.invoke(report_ctx)


def _print_warnings(meta: dict) -> None:
    """The load warnings of a loaded experiment (``meta``: ``load``'s row), one line per kind."""
    from .info import warning_text, warnings

    def grouped():
        con = database.connect(meta["db"])
        try:
            return warnings(con, meta["experiment_id"])
        finally:
            con.close()

    for w in _guard(grouped):
        err.print(f"warning: {names.printable(warning_text(w))} (cosydb info for details)", soft_wrap=True)


@app.command()
def info(
    db: Path | None = typer.Argument(None, help="Database directory."),
    system: bool = typer.Option(
        False, "--system", help="Show the resources cosydb uses here (memory, threads) and where they come from."
    ),
):
    """Show experiments, ranks, regions, event counts, time span and warnings.

    Example: cosydb info run.cosydb; cosydb info --system
    """
    from .info import describe, warning_text

    if system:
        from .resources import describe as resources

        for key, value in _guard(resources).items():
            out.print(f"{key:<22}{value}")
        if db is None:
            return
    if db is None:
        _fail("info: give a database directory (or --system)")

    def body():
        con = database.connect(db)
        try:
            return describe(con)
        finally:
            con.close()

    for exp in names.printable(_guard(body)):
        out.print(f"experiment {exp['experiment_id']}: {exp['name']}", style="bold")
        out.print(
            f"  source     {exp['source_path']} ({exp['format']}, loaded {exp['load_time']}, "
            f"cosydb {exp['tool_version']}, schema {exp['schema_version']})"
        )
        if exp["is_profile"]:
            kind = "a profile" if exp["format"] == "cube4" else exp["creator"] + " input"
            out.print(
                f"  ranks      {exp['ranks']}   locations {exp['number_of_locations']}   "
                f"regions {exp['regions']}   call paths {exp['callpaths']}   ({kind}: no events)"
            )
            if exp["profile_metrics"]:
                out.print(
                    f"  run time   {exp['duration_s']:.6f} s (longest location)   "
                    f"metrics {', '.join(exp['profile_metrics'])}"
                )
        else:
            out.print(
                f"  ranks      {exp['ranks']}   locations {exp['number_of_locations']}   "
                f"regions {exp['regions']}   call paths {exp['callpaths']}   events {exp['number_of_events']:,}"
            )
            out.print(
                f"  time span  {exp['duration_s']:.6f} s   timer resolution "
                f"{exp['timer_resolution']:,} ticks/s   global offset {exp['global_offset']}"
            )
        table = Table("event type", "count", "payload", box=None, padding=(0, 2))
        for t in exp["event_types"]:
            table.add_row(t["type"], f"{t['count']:,}", "yes" if t["has_payload"] else "stored without payload")
        if exp["event_types"]:
            out.print(table)
        if exp["warnings"]:
            for w in exp["warnings"]:
                out.print(f"  warning: {warning_text(w)}")
        else:
            out.print("  no warnings")


@app.command()
def sql(
    db: Path = typer.Argument(..., help="Database directory."),
    query: str = typer.Argument(..., help="SQL over the tables and views (see docs/schema.md)."),
    fmt: str = typer.Option("table", "--format", help=f"{', '.join(formats.SQL)}."),
    experiment: str | None = typer.Option(
        None, "--experiment", help="Experiment that {{ ref('...') }} reads (default: the latest trace)."
    ),
    limit: int = typer.Option(1000, "--limit", help="Rows the table format shows (the rest are counted)."),
    write: bool = typer.Option(
        False,
        "--write",
        help="Allow statements that write (COPY ... TO, ATTACH, CREATE, ...) and files outside the database.",
    ),
):
    """Run one SQL query and print the result. {{ ref('pattern') }} in the query evaluates a
    pattern or property of the catalog on one experiment and reads its rows.

    Without --write the query reads only: one SELECT (or an EXPLAIN [ANALYZE] of one) calling
    no table function that writes, no file outside the database directory, and (on Linux) a
    process that can change no file. The table format shows the first --limit rows.

    Example: cosydb sql run.cosydb "SELECT region_id, sum(excl_s) FROM region_instances GROUP BY 1 ORDER BY 2 DESC"
    Example: cosydb sql run.cosydb "SELECT * FROM {{ ref('late_sender_matches') }} LIMIT 5"
    """
    show = _guard(lambda: formats.chosen(formats.SQL, fmt))
    if limit < 0:
        _fail(f"--limit: {limit} is not a number of rows")
    _guard(lambda: _run_sql(db, query, show, experiment, write, limit))


def _run_sql(db: Path, query: str, show, experiment: str | None, write: bool, limit: int) -> None:
    """Run the query and write its result as it streams; without ``write`` this process
    changes no file from here on (``sandbox.forbid_writes``, where the system can)."""
    from . import sandbox
    from .api import BATCH_ROWS, statement

    database.connect(db).close()  # validates, and rewrites the views file of a moved database first
    if not write:
        sandbox.forbid_writes(sandbox.private_directory())
    with statement(db, query, None, experiment, write, BATCH_ROWS) as batches, _stdout():
        show(batches, limit)


@app.command()
def shell(db: Path = typer.Argument(..., help="Database directory.")):
    """Open the DuckDB shell on the database, every table and view ready.

    Example: cosydb shell run.cosydb
    """
    _guard(lambda: database.connect(db).close())  # validates, and re-points a moved database
    binary = shutil.which("duckdb") or str(Path(sys.executable).with_name("duckdb"))
    if not Path(binary).exists():
        _fail("the DuckDB shell is not installed (pip install duckdb-cli)")
    os.execv(binary, [binary, str(Path(db) / database.VIEWS_FILE)])


@app.command()
def report(
    db: Path = typer.Argument(..., help="Database directory."),
    experiment: str | None = typer.Option(
        None, "--experiment", help="Experiment name or id (default: the latest trace)."
    ),
    fmt: str = typer.Option(
        "table", "--format", help=f"{', '.join(formats.REPORT)} (a file of its own, html, needs -o)."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="The file to write (html: one self-contained page; required)."
    ),
    threshold: float = typer.Option(
        0.001,
        "--threshold",
        min=0,
        help="Severity (share of the rank basis's time) above which a property is a problem; "
        "0 lists every row whose condition holds.",
    ),
    rank_basis: str | None = typer.Option(
        None, "--rank-basis", help="Region whose duration severities are relative to (default: the whole run)."
    ),
    region: str | None = typer.Option(
        None, "--region", help="Focus region r of the patterns (region-stack constraint); mangled or demangled name."
    ),
    prop: list[str] | None = typer.Option(
        None,
        "--property",
        help="Evaluate only this property (repeatable); its stored rows are replaced, the others' kept.",
    ),
    properties_dir: list[Path] | None = typer.Option(
        None, "--properties-dir", help="Directory of plug-in property files (repeatable)."
    ),
    asl: list[str] | None = _ASL,
    param: list[str] | None = typer.Option(None, "--param", help="Property parameter p_name=value (repeatable)."),
    baseline: str | None = typer.Option(
        None,
        "--baseline",
        help="Sequential experiment (name or id) for the properties that compare a parallel run with it.",
    ),
    top: int = typer.Option(10, "--top", min=1, help="Table: the most severe problems shown."),
    tree: bool = typer.Option(
        False,
        "--tree",
        help="Table: every row in the property hierarchy, aggregates (total_cost, comm_cost, ...) included.",
    ),
    per_location: bool = typer.Option(False, "--per-location", help="With --tree: also the rows of single locations."),
    show_all: bool = typer.Option(
        False, "--all", help="Table: list the properties that could not be evaluated, with the reason."
    ),
    wide: bool = typer.Option(
        False, "--wide", help="Table: full call paths and demangled signatures, lines not fitted to the terminal."
    ),
    no_demangle: bool = typer.Option(
        False, "--no-demangle", help="Table: region names as recorded (C++ names mangled)."
    ),
    memory_limit: str | None = typer.Option(
        None,
        "--memory-limit",
        help="DuckDB's memory budget, e.g. 2GB (env COSYDB_MEMORY_LIMIT; default 1GB; it spills beyond).",
    ),
    threads: int | None = typer.Option(
        None, "--threads", help="DuckDB threads (env COSYDB_THREADS; default: the cores available)."
    ),
    engine: str = typer.Option(
        "duckdb",
        "--engine",
        help="duckdb, or spark: evaluate the catalog on Apache Spark (pip install 'cosydb[spark]').",
    ),
    spark_master: str | None = _SPARK_MASTER,
    fresh: bool = typer.Option(
        False,
        "--fresh",
        help="Evaluate the catalog again. Without it, the results stored by the last evaluation with "
        "the same catalog files, parameters (--param, --rank-basis, --region, --baseline), engine and "
        "experiment are read: another --threshold, --top, --tree, --format or -o costs no evaluation.",
    ),
):
    """Evaluate the property catalog and rank the problems found.

    The table lists one row per problem, most severe first: the property, its value summed
    over the call paths where it holds (most specific first), its share of the rank basis's
    time, the ranks most affected and the call path where most of it sits; then the
    bottleneck, what could not be evaluated and the load warnings. Asked again with the same
    catalog, parameters and experiment, it reads the results stored (--fresh: evaluates again).

    Example: cosydb report run.cosydb --threshold 0.01 --rank-basis main --property late_sender;
    cosydb report run.cosydb --format html -o report.html
    """
    from .report import run

    form = _guard(lambda: formats.chosen(formats.REPORT, fmt))
    if formats.writes_a_file(form) and output is None:
        _fail(f"report: --format {fmt} needs -o FILE")
    if output is not None:  # before the evaluation, not after it
        from .outputs import checked

        _guard(lambda: checked(output, f"report.{form.SUFFIX}"))
    params = {}
    for item in param or []:
        name, sep, value = item.partition("=")
        if not sep or not name.startswith("p_"):
            _fail(f"--param: '{item}' is not p_name=value")
        params[name] = value
    view = formats.ReportView(width(), top, tree, per_location, show_all, wide, not no_demangle, tuple(prop or ()))
    result = _guard(
        lambda: run(
            db,
            experiment,
            threshold,
            rank_basis,
            region,
            prop,
            _property_sources(properties_dir, asl),
            params,
            baseline,
            memory_limit,
            threads,
            engine,
            spark_master,
            fresh,
            cube=getattr(form, "NEEDS_CUBE", False),
            rows=getattr(form, "needs_rows", lambda _view: True)(view),
        )
    )
    if formats.writes_a_file(form):
        out.print(_guard(lambda: form.write(db, result, output, view)))
    elif output is None:
        sys.stdout.write(form.text(result, view))
    else:
        _guard(lambda: _write_text(output, form.text(result, view)))
        out.print(f"wrote {output}")
    if result["experiment"]["not_stored"]:
        err.print(f"cosydb: results not stored in the database ({result['experiment']['not_stored']})", soft_wrap=True)


def _write_text(output: Path, text: str) -> None:
    """``text`` written to file ``output`` atomically (it replaces the file when complete)."""
    from . import outputs

    with outputs.replaced(output) as tmp:
        tmp.write_text(text)


@app.command()
def diff(
    db: Path = typer.Argument(..., metavar="DB", help="Database directory (of both experiments, or of the first)."),
    second: str = typer.Argument(
        ..., metavar="A|DB_B", help="The first experiment of DB (name or id), or a second database."
    ),
    third: str | None = typer.Argument(None, metavar="B", help="The second experiment of DB (name or id)."),
    a_name: str | None = typer.Option(
        None, "--a", help="Two databases: the experiment of DB (name or id; default: its latest trace)."
    ),
    b_name: str | None = typer.Option(
        None, "--b", help="Two databases: the experiment of DB_B (name or id; default: its latest trace)."
    ),
    fmt: str = typer.Option("table", "--format", help=f"{', '.join(formats.DIFF)}."),
    prop: list[str] | None = typer.Option(None, "--property", help="Compare only this property (repeatable)."),
    properties_dir: list[Path] | None = typer.Option(
        None, "--properties-dir", help="Directory of plug-in property files (repeatable)."
    ),
    top: int = typer.Option(30, "--top", min=1, help="Table: the rows with the largest changes."),
):
    """Compare two experiments, of one database (DB A B) or of two (DB_A DB_B, each one's
    latest trace unless --a / --b name others): each property's value per call path in
    both, change and relative change, largest change first.

    Each change is listed once: a call path's row is its own value, as in Scalasca's cube
    (a row that only sums its callees' rows, e.g. total_cost at main, is left out, they are
    listed), and a property with the values of a sub-property or of its declared twin at
    the same call path is named on that row (=). Names are demangled (json and csv in
    full, as recorded beside: mangled_place, mangled_callpath, mangled_region).

    Example: cosydb diff run.cosydb before after --property mpi_latesender;
    cosydb diff old.cosydb new.cosydb
    """
    from .report import diff as diff_experiments

    show = _guard(lambda: formats.chosen(formats.DIFF, fmt))
    if third is not None:
        if a_name is not None or b_name is not None:
            _fail("diff: --a and --b name the experiments of two databases; DB A B names both already")
        compared = dict(a=second, b=third)
    elif database.is_database(Path(second)):
        compared = dict(a=a_name, b=b_name, db_b=Path(second))
    else:
        _fail(
            f"diff: '{second}' is no database: give two experiments of {db} (cosydb diff DB A B) "
            "or two databases (cosydb diff DB_A DB_B)"
        )
    result = _guard(lambda: diff_experiments(db, properties=prop, properties_dirs=properties_dir or (), **compared))
    show(result, top)


@app.command()
def cube(
    db: Path = typer.Argument(..., metavar="DB", help="The cosydb database."),
    experiment: str | None = typer.Option(None, "--experiment", help="Experiment name or id (default: the latest)."),
    fmt: str = typer.Option("table", "--format", help=f"{', '.join(formats.CUBE)}."),
):
    """Compute the severity cube (metric, call path, location), store it as table severity_cube,
    and show the metric hierarchy with inclusive and exclusive totals.

    Example: cosydb cube run.cosydb
    """
    from .report import cube as compute_cube

    show = _guard(lambda: formats.chosen(formats.CUBE, fmt))
    result = _guard(lambda: compute_cube(db, experiment))
    show(result)


@app.command()
def export(
    db: Path = typer.Argument(..., metavar="DB", help="The cosydb database."),
    output: Path = typer.Option(..., "-o", "--output", help="File to write, e.g. run.cubex or run.json."),
    fmt: str = typer.Option(
        "cube",
        "--format",
        help="cube (CUBE4 .cubex, opened by the Cube tools) or perfetto (trace-event JSON, "
        "opened by ui.perfetto.dev and chrome://tracing).",
    ),
    experiment: str | None = typer.Option(None, "--experiment", help="Experiment name or id (default: the latest)."),
    start: float | None = typer.Option(None, "--from", help="perfetto: from this time on (seconds)."),
    end: float | None = typer.Option(None, "--to", help="perfetto: up to this time (seconds)."),
    locations: str | None = typer.Option(
        None, "--locations", help="perfetto: these ranks or rank:thread, comma-separated (e.g. 0,3:1)."
    ),
    properties_dir: list[Path] | None = typer.Option(
        None, "--properties-dir", help="Directory of plug-in property files (repeatable)."
    ),
    asl: list[str] | None = _ASL,
):
    """Export the severity cube (metric, call path, location) or the timeline of an experiment.

    Example: cosydb export run.cosydb --format cube -o run.cubex;
    cosydb export run.cosydb --format perfetto -o run.json --from 1.5 --to 2 --locations 0,1
    """
    wanted = [item.strip() for item in locations.split(",") if item.strip()] if locations else None
    form = _guard(lambda: formats.chosen(formats.EXPORT, fmt))
    sources = _property_sources(properties_dir, asl)
    written = _guard(lambda: form.export(db, output, experiment, start, end, wanted, sources))
    out.print(f"wrote {output}: {form.summary(written)}")


@app.command()
def properties(
    properties_dir: list[Path] | None = typer.Option(
        None, "--properties-dir", help="Directory of plug-in property files (repeatable)."
    ),
    fmt: str = typer.Option(
        "table",
        "--format",
        help=f"{', '.join(formats.PROPERTIES)} (markdown: the catalog document, docs/properties.md).",
    ),
    asl: list[str] | None = _ASL,
):
    """List the property catalog: name, family (its folder), kind, unit, one-line description, as a tree.

    Example: cosydb properties; cosydb properties --format markdown > docs/properties.md
    """
    from .catalog import load as load_catalog

    show = _guard(lambda: formats.chosen(formats.PROPERTIES, fmt))
    show(_guard(lambda: load_catalog(_property_sources(properties_dir, asl))))


@app.command()
def schema(
    fmt: str = typer.Option(
        "markdown", "--format", help=f"{', '.join(formats.SCHEMA)} (the schema document, docs/schema.md)."
    ),
):
    """Describe every stored table, column and object of the enhanced model.

    Example: cosydb schema > docs/schema.md
    """
    show = _guard(lambda: formats.chosen(formats.SCHEMA, fmt))
    _guard(show)


@app.command()
def explain(
    name: str = typer.Argument(..., help="Property or pattern name."),
    properties_dir: list[Path] | None = typer.Option(
        None, "--properties-dir", help="Directory of plug-in property files (repeatable)."
    ),
    asl: list[str] | None = _ASL,
):
    """Show a property's definition, its parameters and the SQL it renders to.

    Example: cosydb explain late_sender
    """
    from .catalog import load as load_catalog
    from .evaluator import render

    def body():
        catalog = load_catalog(_property_sources(properties_dir, asl))
        if name not in catalog:
            close = close_names(name, catalog)
            hint = f"did you mean {', '.join(close)}?" if close else "see `cosydb properties`"
            raise CosyError(name, f"no such property ({hint})")
        prop = catalog[name]
        sql = render(prop, catalog, database.object_names(), entry_rows=str).sql if prop.body.strip() else ""
        return prop, sql

    prop, sql = _guard(body)
    shown = names.printable  # the property file's text, its control characters escaped
    out.print(
        Text.assemble(
            (shown(prop.name), "bold"),
            shown(f" ({prop.kind}, unit {prop.unit}, parent {prop.parent or '-'}) {prop.path}"),
        )
    )
    for label, text in (
        ("info", prop.info),
        ("definition", prop.description),
        ("diagnosis", prop.diagnosis),
        ("confidence", prop.confidence),
    ):
        out.print(Text.assemble((f"{label}:", "bold"), f" {shown(str(text), lines=True)}"))
    for pname, spec in prop.params.items():
        out.print(
            Text.assemble(
                ("parameter", "bold"),
                shown(
                    f" {pname} ({spec.get('type', 'VARCHAR')}, default {spec.get('default')}): {spec.get('doc', '')}"
                ),
            )
        )
    if sql:
        out.print(
            Text.assemble(
                ("SQL", "bold"), " (ref() resolved: an entry's name stands for its rows; $p_* are bound parameters):"
            )
        )
        out.print(shown(sql, lines=True))


asl_app = typer.Typer(no_args_is_help=True, help="The APART Specification Language: check and compile ASL properties.")
app.add_typer(asl_app, name="asl")


@asl_app.command("check")
def asl_check(
    files: list[Path] = typer.Argument(..., help="ASL specification(s), or built-in ones: mpi, hpf, openmp."),
):
    """Parse and type-check ASL against the data model, one line per problem.

    Each problem reads file:line:column: problem; the exit code is 1 if there is one. Every
    file sees the report's global definitions (Summary, Duration, ...) and the functions and
    templates of the files before it. Where a file is read as the ASL report writes it rather
    than as its grammar (an untyped RankBasis, max_wait for MaxWait, an unquoted MPI_Barrier),
    a line file:line:column: says how; those are no problems.

    Example: cosydb asl check my_properties.asl
    """
    from .asl.compiler import checked
    from .asl.parser import read
    from .catalog import asl_specification

    files = [asl_specification(f) for f in files]  # a built-in one by its name (hpf)

    def body():  # a file uses the functions and templates of those before it
        return [checked(path, read(path), [(f, read(f)) for f in files[:n]]) for n, path in enumerate(files)]

    results = _guard(body)
    errors = [error for found, _ in results for error in found]
    readings = [reading for _, read_as in results for reading in read_as]
    for line in [*errors, *readings]:
        out.print(str(line))
    if errors:
        raise typer.Exit(1)
    read_as = f"; {len(readings)} place(s) read as the ASL report writes them (above)" if readings else ""
    out.print(f"{len(files)} file(s): no problems{read_as}")


@asl_app.command("compile")
def asl_compile(
    file: Path = typer.Argument(..., help="ASL specification."),
    output: Path = typer.Option(..., "-o", "--output", help="Directory to write one property file per property to."),
):
    """Compile ASL properties to property files of the catalog.

    Run them with cosydb report --properties-dir DIR.

    Example: cosydb asl compile my_properties.asl -o my_properties/
    """
    from .asl.files import write_properties

    written = _guard(lambda: write_properties(file, output))
    for path in written:
        out.print(str(path))


@app.command()
def version():
    """Print the cosydb version."""
    out.print(__version__)
