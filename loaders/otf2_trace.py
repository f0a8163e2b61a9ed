"""Load an OTF2 archive into Parquet files: definitions, events and metric values.

The events of the locations are read in parallel worker processes (one
Parquet file per worker, locations balanced by event count); definitions are
read once in the calling process.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import otf2
import _otf2

from cosydb.errors import CosyError

from .otf2_definitions import read_definitions
from .otf2_events import LocationError, read_locations
from .otf2_records import RECORDS, type_name

#: Below this many events a single process is faster than starting workers.
PARALLEL_THRESHOLD = 200_000


def _open_reader(anchor: Path):
    """Open the archive and read its global definitions, turning OTF2 failures into one line."""
    definitions_file = anchor.with_suffix(".def")
    try:
        return otf2.reader.Reader(str(anchor))
    except (_otf2.Error, otf2.error.TraceReaderError) as error:
        if not definitions_file.exists():
            raise CosyError(definitions_file, "global definition file is missing") from None
        raise CosyError(anchor, f"not a readable OTF2 archive ({_reason(error)})") from None


def _reason(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _partition(sizes: dict[int, int], parts: int) -> list[list[int]]:
    """Split locations into ``parts`` lists of similar total event count, each in id order."""
    bins: list[list[int]] = [[] for _ in range(parts)]
    load = [0] * parts
    for location_id, size in sorted(sizes.items(), key=lambda kv: -kv[1]):
        k = load.index(min(load))
        bins[k].append(location_id)
        load[k] += size
    return [sorted(b) for b in bins if b]


def _read_part(args):
    anchor, locations, events_path, metrics_path = args
    try:
        return read_locations(anchor, locations, events_path, metrics_path)
    except LocationError as error:
        raise CosyError(Path(anchor).parent / "traces" / f"{error.location_id}.evt",
                        f"corrupt or truncated event data ({error})") from None
    except (_otf2.Error, ValueError) as error:
        files = ", ".join(f"{location}.evt" for location in locations)
        raise CosyError(Path(anchor).parent / "traces",
                        f"corrupt event data in {files} ({_reason(error)})") from None


def load_trace(anchor: Path, out_dir: Path, workers: int | None = None) -> dict:
    """Read the archive of the anchor file ``anchor`` into Parquet files under ``out_dir``.

    Writes ``events-<k>.parquet`` (and ``metric_values-<k>.parquet`` if the
    trace has Metric records) per reader; returns the experiment metadata, the
    definition tables and record counts, warnings found while reading and the
    wall-clock seconds of the definitions and events phases.
    """
    started = time.perf_counter()
    reader = _open_reader(anchor)
    try:
        defs = reader.definitions
        tables = read_definitions(defs)
        clock = defs.clock_properties
        sizes = {loc._ref: loc.number_of_events for loc in defs.locations}
        meta = dict(
            timer_resolution=clock.timer_resolution,
            global_offset=clock.global_offset,
            trace_length=clock.trace_length,
            creator=_otf2.Reader_GetCreator(reader.handle) or "",
        )
    finally:
        reader.close()
    if not sizes:
        raise CosyError(anchor, "the archive defines no locations")

    phase_seconds = {"definitions": time.perf_counter() - started}
    started = time.perf_counter()
    total = sum(sizes.values())
    if workers is None:
        workers = 1 if total < PARALLEL_THRESHOLD else min(2, os.cpu_count() or 1)
    parts = _partition(sizes, max(1, min(workers, len(sizes))))
    jobs = [(str(anchor), part, str(out_dir / f"events-{k}.parquet"),
             str(out_dir / f"metric_values-{k}.parquet")) for k, part in enumerate(parts)]
    if len(jobs) == 1:
        results = [_read_part(jobs[0])]
    else:
        with ProcessPoolExecutor(len(jobs), mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_read_part, jobs))
    stats = {loc: s for part in results for loc, s in part.items()}

    for location_id, s in stats.items():
        if s["read"] != s["expected"]:
            raise CosyError(anchor.parent / "traces" / f"{location_id}.evt",
                            f"truncated event data: read {s['read']} of {s['expected']} events")

    modelled = {type_name(r) for r in RECORDS} | {"UNKNOWN"}
    record_counts = [dict(location_id=loc, type=t, count=c, has_payload=t in modelled)
                     for loc, s in sorted(stats.items()) for t, c in sorted(s["types"].items())]
    warnings = [dict(check="timestamps_nondecreasing", location_id=loc, count=s["time_decreases"],
                     detail="event timestamp smaller than the previous event's")
                for loc, s in sorted(stats.items()) if s["time_decreases"]]
    unknown = sum(s["types"].get("UNKNOWN", 0) for s in stats.values())
    if unknown:
        warnings.append(dict(check="unknown_records", location_id=None, count=unknown,
                             detail="records the OTF2 library does not know (stored as UNKNOWN)"))
    times = [(s["first_time"], s["last_time"]) for s in stats.values() if s["first_time"] is not None]
    meta.update(
        source_path=str(anchor.resolve()), format="otf2", number_of_events=total,
        number_of_locations=len(sizes),
        first_time=min(t[0] for t in times) if times else None,
        last_time=max(t[1] for t in times) if times else None,
    )
    tables["record_counts"] = record_counts
    phase_seconds["events"] = time.perf_counter() - started
    return dict(meta=meta, tables=tables, warnings=warnings, phase_seconds=phase_seconds)
