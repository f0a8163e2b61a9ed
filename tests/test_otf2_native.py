"""The native OTF2 decoder (compiled callbacks) gives exactly the rows of the Python one.

Both sinks read the same locations through the OTF2 library; every field of every
event and metric value must agree, on every shared trace and on a constructed archive
holding each record type cosydb stores, with edge values (OTF2's undefined ranks,
64-bit sizes and parameters, every metric value type).
"""

from __future__ import annotations

from pathlib import Path

import otf2
import pyarrow.parquet as pq
import pytest
from conftest import TRACES
from cosydb.loaders import otf2_native, otf2_sink_source
from cosydb.loaders.otf2_events import LocationError, read_locations
from otf2.enums import (
    Base,
    CollectiveOp,
    GroupType,
    LocationGroupType,
    LocationType,
    MeasurementMode,
    MetricMode,
    MetricOccurrence,
    MetricType,
    Paradigm,
    RecorderKind,
    RegionRole,
    Type,
)

from cosydb.errors import CosyError

SHARED = sorted(p.parent.name for p in TRACES.glob("*/traces.otf2"))


def test_generated_callbacks_are_current():
    committed = Path(__file__).resolve().parents[1] / "loaders" / "otf2_sink.c"
    assert committed.read_text() == otf2_sink_source.source(), "regenerate: see loaders/otf2_sink_source.py"


def test_the_native_decoder_is_built_and_chosen(monkeypatch):
    monkeypatch.delenv("COSYDB_OTF2_DECODER", raising=False)
    assert otf2_native.decoder() == "native"
    monkeypatch.setenv("COSYDB_OTF2_DECODER", "python")
    assert otf2_native.decoder() == "python"
    monkeypatch.setenv("COSYDB_OTF2_DECODER", "c")
    with pytest.raises(CosyError, match="'c' is neither native nor python"):
        otf2_native.decoder()


def _read_both(anchor: Path, tmp_path: Path, monkeypatch, chunk_events: int) -> dict:
    with otf2.reader.open(str(anchor)) as trace:
        locations = [location._ref for location in trace.definitions.locations]
    out = {}
    for decoder in ("python", "native"):
        monkeypatch.setenv("COSYDB_OTF2_DECODER", decoder)
        events, metrics = tmp_path / f"{decoder}-events.parquet", tmp_path / f"{decoder}-metrics.parquet"
        stats = read_locations(str(anchor), locations, str(events), str(metrics), chunk_events)
        out[decoder] = (
            stats,
            pq.read_table(events),
            pq.read_table(metrics) if metrics.exists() else None,
        )
    return out


def _assert_same(out: dict) -> None:
    (p_stats, p_events, p_metrics), (n_stats, n_events, n_metrics) = out["python"], out["native"]
    assert p_events.num_rows > 0
    assert n_events.equals(p_events)
    assert (n_metrics is None) == (p_metrics is None)
    if p_metrics is not None:
        assert n_metrics.equals(p_metrics)
    assert n_stats == p_stats


@pytest.mark.parametrize("name", SHARED)
def test_every_field_of_every_event_of_the_shared_traces(name, tmp_path, monkeypatch):
    _assert_same(_read_both(TRACES / name / "traces.otf2", tmp_path, monkeypatch, 1 << 18))


def _every_record(directory: Path, request: int = 2**63 - 1) -> Path:
    """One location with each record type cosydb stores a payload of, and edge values."""
    with otf2.writer.open(str(directory), timer_resolution=1_000_000_000) as trace:
        defs = trace.definitions
        node = defs.system_tree_node("machine")
        group = defs.location_group(
            "MPI Rank 0", location_group_type=LocationGroupType.PROCESS, system_tree_parent=node
        )
        location = defs.location("Master thread", type=LocationType.CPU_THREAD, group=group)
        defs.group("", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI, members=[location])
        world = defs.comm(
            "MPI_COMM_WORLD", group=defs.group("", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=[0])
        )
        main = defs.region("main", canonical_name="main", region_role=RegionRole.FUNCTION, paradigm=Paradigm.USER)
        members = [
            defs.metric_member(
                name,
                name,
                metric_type=MetricType.PAPI,
                metric_mode=MetricMode.ACCUMULATED_START,
                value_type=value_type,
                base=Base.DECIMAL,
                exponent=0,
                unit="#",
            )
            for name, value_type in (("u", Type.UINT64), ("i", Type.INT64), ("d", Type.DOUBLE))
        ]
        metric = defs.metric_class(
            members, occurrence=MetricOccurrence.SYNCHRONOUS_STRICT, recorder_kind=RecorderKind.CPU
        )
        signed = defs.parameter("i", parameter_type=otf2.ParameterType.INT64)
        unsigned = defs.parameter("u", parameter_type=otf2.ParameterType.UINT64)
        string = defs.parameter("s", parameter_type=otf2.ParameterType.STRING)
        w = trace.event_writer_from_location(location)
        t = iter(range(1000, 10**6, 10))
        w.program_begin(next(t), "prog", [])
        w.enter(next(t), main)
        w.metric(next(t), metric, [2**64 - 1, -(2**63), 1.5e-300])
        w.mpi_send(next(t), 0, world, 2**32 - 1, 2**63 - 1)
        w.mpi_isend(next(t), 0, world, 7, 0, request)
        w.mpi_isend_complete(next(t), request)
        w.mpi_irecv_request(next(t), 5)
        w.mpi_recv(next(t), 0, world, 7, 8)
        w.mpi_irecv(next(t), 0, world, 7, 8, 5)
        w.mpi_request_test(next(t), 6)
        w.mpi_request_cancelled(next(t), 6)
        w.mpi_collective_begin(next(t))
        w.mpi_collective_end(next(t), CollectiveOp.BCAST, world, 0xFFFFFFFF, 1, 2)
        w.omp_fork(next(t), 4)
        w.omp_join(next(t))
        w.omp_acquire_lock(next(t), 3, 1)
        w.omp_release_lock(next(t), 3, 1)
        w.omp_task_create(next(t), 9)
        w.omp_task_switch(next(t), 9)
        w.omp_task_complete(next(t), 9)
        w.thread_fork(next(t), Paradigm.OPENMP, 2)
        w.thread_join(next(t), Paradigm.PTHREAD)
        w.measurement_on_off(next(t), MeasurementMode.OFF)
        w.measurement_on_off(next(t), MeasurementMode.ON)
        w.parameter_int(next(t), signed, -5)
        w.parameter_unsigned_int(next(t), unsigned, 2**63 - 1)
        w.parameter_string(next(t), string, "text")
        w.leave(next(t), main)
        w.program_end(next(t), -1)
    return directory / "traces.otf2"


def test_every_record_type_with_edge_values(tmp_path, monkeypatch):
    out = _read_both(_every_record(tmp_path / "archive"), tmp_path, monkeypatch, 1 << 18)
    _assert_same(out)
    types = set(out["native"][1].column("type").to_pylist())
    assert {"METRIC", "MPI_COLLECTIVE_END", "PARAMETER_UNSIGNED_INT", "MEASUREMENT_ON_OFF", "THREAD_JOIN"} <= types
    assert out["native"][2].num_rows == 3


def test_a_value_too_wide_for_its_column_is_the_same_error(tmp_path, monkeypatch):
    anchor = _every_record(tmp_path / "archive", request=2**64 - 2)
    messages = set()
    for decoder in ("python", "native"):
        monkeypatch.setenv("COSYDB_OTF2_DECODER", decoder)
        with pytest.raises(LocationError) as caught:
            read_locations(str(anchor), [0], str(tmp_path / "e.parquet"), str(tmp_path / "m.parquet"))
        messages.add(str(caught.value))
    assert messages == {"corrupt event data (event 5: request_id 18446744073709551614 is out of range)"}


def test_reads_split_into_small_chunks_agree(tmp_path, monkeypatch):
    """Chunks of 7 events: the arrays are reused across reads and metric values span them."""
    _assert_same(_read_both(TRACES / "ping-pong-otf2-papi" / "traces.otf2", tmp_path, monkeypatch, 7))
