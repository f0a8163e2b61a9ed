"""Load an OTF2 archive into Parquet files: definitions, events and metric values.

The events of the locations are read in parallel worker processes (one
Parquet file per worker, locations balanced by event count); definitions are
read once in the calling process.
"""

from __future__ import annotations

import heapq
import os
import time
from pathlib import Path

import _otf2
import otf2

from cosydb.errors import CosyError

from . import LoadResult, processes
from .otf2_definitions import DefinitionError, read_definitions
from .otf2_events import INT64_MAX, LocationError, callback_errors, describe_error, read_locations
from .otf2_native import decoder
from .otf2_records import RECORDS, type_name

FORMAT = "otf2"
IS_TRACE = True
RUN_FILE = "traces.otf2"
RUN_FILE_DOC = "traces.otf2 anchor file"
FILE_DOC = "an OTF2 anchor file"

#: Below this many events a single process is faster than starting workers.
PARALLEL_THRESHOLD = 200_000


def detect(path: Path) -> bool:
    """An anchor file: named ``*.otf2``, or starting with OTF2's magic bytes."""
    if path.suffix == ".otf2":
        return True
    with open(path, "rb") as file:
        return b"OTF2" in file.read(8)


def read(anchor: Path, sink, workers: int | None = None, runner=None) -> LoadResult:
    """Read the archive of the anchor file ``anchor``: definitions here, the events of the
    locations in reader processes, each writing its ``events`` and ``metric_values`` file.
    ``runner(function, jobs, died)``: runs the readers elsewhere (as Spark tasks:
    ``cosydb.spark.job_runner``) instead of in forked processes."""
    from cosydb import interrupts

    with interrupts.deferred():  # OTF2 runs Python callbacks: a signal is acted on between them
        return load_trace(anchor, sink, workers, runner)


def _open_reader(anchor: Path):
    """Open the archive and read its global definitions, turning OTF2 failures into one line
    naming the file at fault: the anchor file or the global definition file beside it."""
    definitions_file = anchor.with_suffix(".def")
    try:  # the anchor file alone
        handle = _otf2.Reader_Open(str(anchor))
        try:
            _otf2.Reader_GetCreator(handle)
            chunk_sizes = _otf2.Reader_GetChunkSize(handle)
        finally:
            _otf2.Reader_Close(handle)
    except (_otf2.Error, UnicodeDecodeError) as error:
        invalid = isinstance(error, _otf2.Error) and error.code.value == _otf2.ERROR_INVALID.value
        why = "not an OTF2 anchor file, or a damaged one" if invalid else describe_error(error)
        raise CosyError(anchor, f"not a readable OTF2 archive ({why})") from None
    low, high = _otf2.CHUNK_SIZE_MIN.value, _otf2.CHUNK_SIZE_MAX.value
    for what, size in zip(("event", "definition"), chunk_sizes):
        if not low <= size <= high:  # else reading the other files fails, blaming them
            raise CosyError(
                anchor, f"not a readable OTF2 archive ({what} chunk size {size} outside OTF2's range {low}-{high})"
            )
    if not definitions_file.is_file():
        raise CosyError(definitions_file, "global definition file is missing")
    with callback_errors() as errors:
        try:
            return otf2.reader.Reader(str(anchor))
        except (_otf2.Error, otf2.error.TraceReaderError) as error:
            why = describe_error(errors[-1] if errors else error)
    raise CosyError(definitions_file, f"corrupt or truncated global definitions ({why})")


def _check_clock(definitions_file: Path, clock) -> None:
    """The clock properties must fit the catalog's signed 64-bit integers (and tick)."""
    if clock.timer_resolution == 0:
        raise CosyError(definitions_file, "corrupt clock properties: timer resolution 0")
    for name in ("timer_resolution", "global_offset", "trace_length"):
        if getattr(clock, name) > INT64_MAX:
            raise CosyError(
                definitions_file,
                f"corrupt clock properties: {name.replace('_', ' ')} "
                f"{getattr(clock, name)} outside the signed 64-bit range",
            )


def _reason(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _partition(sizes: dict[int, int], parts: int) -> list[list[int]]:
    """Split locations into ``parts`` lists of similar total event count, each in id order:
    the largest location first into the least loaded list (the first of equal ones), a
    heap of the lists' loads (10^5 locations into 10^3 lists on a cluster)."""
    bins: list[list[int]] = [[] for _ in range(parts)]
    loads = [(0, k) for k in range(parts)]
    for location_id, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        load, k = heapq.heappop(loads)
        bins[k].append(location_id)
        heapq.heappush(loads, (load + size, k))
    return [sorted(b) for b in bins if b]


def _read_part(args):
    anchor, locations, events_path, metrics_path = args
    try:
        return read_locations(anchor, locations, events_path, metrics_path)
    except LocationError as error:  # traces/<location>.evt or .def
        path = Path(anchor).with_suffix("") / f"{error.location_id}.{error.file}"
        what = {"evt": "event", "def": "local definition"}[error.file]
        raise CosyError(path, str(error) if path.is_file() else f"{what} file is missing") from None
    except (_otf2.Error, ValueError) as error:
        files = ", ".join(f"{location}.evt" for location in locations)
        raise CosyError(Path(anchor).with_suffix(""), f"corrupt event data in {files} ({_reason(error)})") from None


def _reader_died(job, how: str) -> CosyError:
    anchor, locations = job[0], job[1]
    files = ", ".join(f"{location}.evt" for location in locations)
    return CosyError(Path(anchor).with_suffix(""), f"the process reading {files} ended without a result ({how})")


def load_trace(anchor: Path, sink, workers: int | None = None, runner=None) -> LoadResult:
    """Read the archive of the anchor file ``anchor`` into the tables of ``sink``: the
    definitions, the events and metric values (one file per reader, written by the
    reader), and the record counts; returns the clock, warnings found while reading and
    the wall-clock seconds of the definitions and events phases."""
    started = time.perf_counter()
    reader = _open_reader(anchor)
    try:
        defs = reader.definitions
        definition_warnings = []
        try:
            tables = read_definitions(defs, definition_warnings)
        except DefinitionError as error:
            raise CosyError(anchor.with_suffix(".def"), f"corrupt global definitions ({error})") from None
        clock = defs.clock_properties
        _check_clock(anchor.with_suffix(".def"), clock)
        resolution, offset, length = clock.timer_resolution, clock.global_offset, clock.trace_length
        sizes = {loc._ref: loc.number_of_events for loc in defs.locations}
        creator = _otf2.Reader_GetCreator(reader.handle) or ""
    finally:
        reader.close()
    if not sizes:
        raise CosyError(anchor, "the archive defines no locations")

    phase_seconds = {"definitions": time.perf_counter() - started}
    started = time.perf_counter()
    decoder()  # a bad COSYDB_OTF2_DECODER fails here, before any reader starts
    total = sum(sizes.values())
    if workers is None:
        workers = 1 if total < PARALLEL_THRESHOLD else min(2, os.cpu_count() or 1)
    parts = _partition(sizes, max(1, min(workers, len(sizes))))
    jobs = [
        (str(anchor), part, str(sink.path("events", k)), str(sink.path("metric_values", k)))
        for k, part in enumerate(parts)
    ]
    if runner is not None:
        results = runner(_read_part, jobs, _reader_died)
    elif len(jobs) == 1 and total < PARALLEL_THRESHOLD:
        results = [_read_part(jobs[0])]
    else:  # processes that a signal stops at once and that never outlive this one
        results = processes.run(_read_part, jobs, _reader_died)
    stats = {loc: s for part in results for loc, s in part.items()}

    for location_id, s in stats.items():
        if s["read"] != s["expected"]:
            raise CosyError(
                anchor.with_suffix("") / f"{location_id}.evt",
                f"truncated event data: read {s['read']} of the {s['expected']} events "
                f"{anchor.with_suffix('.def').name} announces",
            )

    modelled = {type_name(r) for r in RECORDS} | {"UNKNOWN"}
    record_counts = [
        dict(location_id=loc, type=t, count=c, has_payload=t in modelled)
        for loc, s in sorted(stats.items())
        for t, c in sorted(s["types"].items())
    ]
    warnings = definition_warnings + [
        dict(
            check="timestamps_nondecreasing",
            location_id=loc,
            count=s["time_decreases"],
            detail="event timestamp smaller than the previous event's",
        )
        for loc, s in sorted(stats.items())
        if s["time_decreases"]
    ]
    warnings += [
        dict(
            check="unknown_enum_values",
            location_id=loc,
            count=u["count"],
            detail=f"{column} value unknown to OTF2 (first {u['value']} at event {u['seq']} "
            f"of {anchor.with_suffix('').name}/{loc}.evt, stored as CODE_{u['value']})",
        )
        for loc, s in sorted(stats.items())
        for column, u in sorted(s["unknown_enums"].items())
    ]
    unknown = sum(s["types"].get("UNKNOWN", 0) for s in stats.values())
    if unknown:
        warnings.append(
            dict(
                check="unknown_records",
                location_id=None,
                count=unknown,
                detail="records the OTF2 library does not know (stored as UNKNOWN)",
            )
        )
    times = [(s["first_time"], s["last_time"]) for s in stats.values() if s["first_time"] is not None]
    tables["record_counts"] = record_counts
    for name, rows in tables.items():
        sink.write(name, rows)
    phase_seconds["events"] = time.perf_counter() - started
    return LoadResult(
        source_path=str(anchor.resolve()),
        number_of_locations=len(sizes),
        loaded=f"{total:,} events",
        creator=creator,
        number_of_events=total,
        timer_resolution=resolution,
        global_offset=offset,
        trace_length=length,
        first_time=min(t[0] for t in times) if times else None,
        last_time=max(t[1] for t in times) if times else None,
        warnings=warnings,
        phase_seconds=phase_seconds,
    )
