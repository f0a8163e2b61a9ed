"""The catalog entries a property compiles to: the property, and for a property of an
event also the pattern of its rows per event, which the property's rows summarise."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .problems import position

if TYPE_CHECKING:
    from .declarations import PropertyDef
    from .properties import Compiled

#: The rows of a property of an event (an Exit: a region instance), per event.
INSTANCE_COLUMNS = {
    "callpath_id": "BIGINT",
    "region_id": "BIGINT",
    "location_id": "BIGINT",
    "condition_id": "VARCHAR",
    "condition": "BOOLEAN",
    "confidence": "DOUBLE",
    "severity": "DOUBLE",
    "value": "DOUBLE",
    "details": "VARCHAR",
    "event_key": "VARCHAR",
}


@dataclass
class Entry:
    """A compiled property: its name, SQL (Jinja: ref() to catalog objects), ASL text,
    the line it starts on, and the unit of its value."""

    name: str
    sql: str
    asl: str
    line: int
    unit: str
    params: dict = field(default_factory=dict)  # catalog parameters: p_name -> {default, type, doc}
    kind: str = "property"  # or pattern: the rows per instance of a property of an event
    columns: dict = field(default_factory=dict)  # a pattern's columns
    info: str = ""  # its one line, where the comment above the property is another's
    requires: list = field(default_factory=list)  # what the experiment must have (catalog.REQUIREMENTS)


def entries(prop: PropertyDef, compiled: Compiled) -> list[Entry]:
    """The entries of a compiled property: itself, or for a property of an event its rows per
    event (a pattern) and per call path and location the most severe event's."""
    line, params, requires = position(prop.node)[0], dict(compiled.params), list(compiled.requires)
    if not compiled.of_event:
        return [Entry(prop.name, compiled.sql, prop.source, line, compiled.unit, params, requires=requires)]
    per_event = instances(prop.name)
    info = f"{prop.name} at each event (a region instance), before its most severe per call path and location."
    unit = compiled.unit
    return [
        Entry(per_event, compiled.sql, prop.source, line, unit, params, "pattern", INSTANCE_COLUMNS, info, requires),
        Entry(prop.name, most_severe(per_event), prop.source, line, unit, params, requires=requires),
    ]


def instances(name: str) -> str:
    """The name of the pattern holding a property of an event's rows per event."""
    return f"{name}Instances"


def most_severe(instances: str) -> str:
    """A property of an event per call path and location (the result row names no event),
    where it has a value at one of the events (a cache miss count: the instance has counter
    records): it holds where it holds at one of them; confidence, severity and value are
    the most severe event's where it holds (else of all), details how many events there are
    and hold."""
    return jinja(
        "select\n"
        "    callpath_id,\n"
        "    region_id,\n"
        "    location_id,\n"
        "    null::varchar as condition_id,\n"
        "    bool_or(coalesce(condition, false)) as condition,\n"
        "    coalesce(max(confidence) filter (where condition), max(confidence)) as confidence,\n"
        "    coalesce(max(severity) filter (where condition), max(severity)) as severity,\n"
        "    coalesce(arg_max(value, severity) filter (where condition), arg_max(value, severity)) as value,\n"
        "    json_object('events', count(*), 'holding', count(*) filter (where condition))::varchar as details\n"
        f"from {{ref:{instances}}}\n"
        "group by callpath_id, region_id, location_id\n"
        "having count(value) > 0"
    )


def jinja(sql: str) -> str:
    """{ref:name} placeholders as the catalog's ref() calls, {baseline:name} as baseline_ref()."""
    sql = re.sub(r"\{baseline:(\w+)\}", lambda m: "{{ baseline_ref('" + m.group(1) + "') }}", sql)
    return re.sub(r"\{ref:(\w+)\}", lambda m: "{{ ref('" + m.group(1) + "') }}", sql)
