"""The writers of ``cosydb sql``'s result: CSV, JSON and a text table, each of every DuckDB
type, each reading the result one record batch at a time (memory bounded by the batch, not
the result).

JSON is RFC 8259: one array of row objects; a number that is not finite is null, a blob is
its base64 text, a date or time its ISO 8601 text, a decimal or an integer of any size an
exact number, an interval ``{"months", "days", "nanoseconds"}``, a map an array of
``[key, value]`` pairs. CSV writes a nested, interval or blob value as the same JSON text.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import io
import json
import math
import uuid
from collections.abc import Callable
from typing import BinaryIO, TextIO

import pyarrow as pa
import pyarrow.csv as pacsv


def json_text(value) -> str:
    """``value`` (a Python value of an Arrow scalar) as RFC 8259 JSON text."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else "null"
    if isinstance(value, decimal.Decimal):
        return str(value) if value.is_finite() else "null"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bytes):
        return json.dumps(base64.b64encode(value).decode())
    if isinstance(value, (dt.date, dt.time)):  # datetime is a date
        return json.dumps(value.isoformat())
    if isinstance(value, dt.timedelta):
        return json.dumps(_duration(value))
    if isinstance(value, pa.MonthDayNano):
        return f'{{"months": {value.months}, "days": {value.days}, "nanoseconds": {value.nanoseconds}}}'
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))}: {json_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(json_text, value)) + "]"
    if isinstance(value, uuid.UUID):
        return json.dumps(str(value))
    return json.dumps(str(value))


def _duration(value: dt.timedelta) -> str:
    """A duration as ISO 8601 (``P1DT2.5S``)."""
    seconds = value.seconds + value.microseconds / 1e6
    return f"{'-' if value < dt.timedelta(0) else ''}P{abs(value.days)}DT{seconds:g}S"


def _dates_as_text(kind: pa.DataType) -> pa.DataType:
    """``kind`` with every date and timestamp in it (at any depth) a string: Arrow writes any
    of them as ISO 8601 text, Python's types hold only years 1 to 9999."""
    if pa.types.is_date(kind) or pa.types.is_timestamp(kind):
        return pa.string()
    if pa.types.is_map(kind):
        return pa.map_(_dates_as_text(kind.key_type), _dates_as_text(kind.item_type))
    if pa.types.is_struct(kind):
        return pa.struct([kind.field(i).with_type(_dates_as_text(kind.field(i).type)) for i in range(kind.num_fields)])
    if pa.types.is_fixed_size_list(kind):
        return pa.list_(kind.value_field.with_type(_dates_as_text(kind.value_type)), kind.list_size)
    if pa.types.is_list(kind):
        return pa.list_(kind.value_field.with_type(_dates_as_text(kind.value_type)))
    if pa.types.is_large_list(kind):
        return pa.large_list(kind.value_field.with_type(_dates_as_text(kind.value_type)))
    return kind


def python_values(column: pa.Array) -> list:
    """The values of ``column`` as Python values, dates and timestamps as their ISO 8601 text."""
    target = _dates_as_text(column.type)
    return (column if target == column.type else column.cast(target)).to_pylist()


def write_json(batches: pa.RecordBatchReader, out: TextIO) -> None:
    """The rows as one JSON array of objects, written a batch at a time."""
    keys = [json.dumps(name) + ": " for name in batches.schema.names]
    out.write("[")
    first = True
    for batch in batches:
        columns = [python_values(column) for column in batch.columns]
        for row in zip(*columns, strict=True):
            out.write(("\n " if first else ",\n ") + "{" + ", ".join(k + json_text(v) for k, v in zip(keys, row)) + "}")
            first = False
    out.write("\n]\n" if not first else "]\n")


def _csv_type(kind: pa.DataType) -> pa.DataType:
    """The type a column is written as: its own where Arrow's CSV writer writes it as text,
    an ENUM's labels', else a string (JSON text, a time's ISO text)."""
    if pa.types.is_dictionary(kind):
        return _csv_type(kind.value_type)
    plain = (
        pa.types.is_integer(kind)
        or pa.types.is_floating(kind)
        or pa.types.is_boolean(kind)
        or pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or pa.types.is_date(kind)
        or pa.types.is_timestamp(kind)
        or pa.types.is_decimal(kind)
        or pa.types.is_null(kind)
    )
    return kind if plain else pa.string()


def _csv_column(column: pa.Array, kind: pa.DataType) -> pa.Array:
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if column.type == kind:
        return column
    return pa.array([None if v is None else _plain(v) for v in python_values(column)], kind)


def _plain(value) -> str:
    """A value's JSON text, a string's (and a time's, a blob's base64) without quotes."""
    text = json_text(value)
    return json.loads(text) if text.startswith('"') else text


def write_csv(batches: pa.RecordBatchReader, out: BinaryIO) -> None:
    """The rows as CSV with a header line, written a batch at a time. Each batch's text is
    made in memory and written by Python, whose write to a full pipe a signal interrupts
    (Arrow's own write to ``out`` waited on the pipe whatever signal came)."""
    schema = pa.schema([pa.field(f.name, _csv_type(f.type)) for f in batches.schema])
    text = io.BytesIO()

    def flush() -> None:
        out.write(text.getvalue())
        text.seek(0)
        text.truncate()

    with pacsv.CSVWriter(text, schema) as writer:
        for batch in batches:
            writer.write_batch(
                pa.RecordBatch.from_arrays(
                    [_csv_column(c, f.type) for c, f in zip(batch.columns, schema)], schema=schema
                )
            )
            flush()
    flush()  # the header of no rows, or what closing the writer wrote


def cell_text(value) -> str:
    """The text of one cell of the text table: the one place a value is formatted for it."""
    if value is None:
        return "NULL"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (dict, list, tuple, bytes, pa.MonthDayNano)):
        return _plain(value)
    return str(value)


def write_table(batches: pa.RecordBatchReader, show: Callable[[list[str], list[list[str]], int], None], limit: int):
    """The first ``limit`` rows as cell texts, given to ``show(header, rows, total)`` with the
    count of all rows (the rest counted a batch at a time, not kept)."""
    rows: list[list[str]] = []
    total = 0
    for batch in batches:
        if len(rows) < limit:
            head = batch.slice(0, limit - len(rows))
            rows.extend([cell_text(v) for v in row] for row in zip(*map(python_values, head.columns), strict=True))
        total += batch.num_rows
    show(batches.schema.names, rows, total)
