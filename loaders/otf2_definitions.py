"""Global OTF2 definitions as Arrow tables (locations, regions, communicators, metrics, ...).

Definitions are small (thousands of rows at most), so they are read with the
high-level ``otf2`` registry; events use the raw reader in ``otf2_events``.
"""

from __future__ import annotations

import otf2
import pyarrow as pa

from cosydb.tables import schema

UNDEFINED_UINT32 = 0xFFFFFFFF


class DefinitionError(Exception):
    """The global definitions hold a value the catalog cannot store (a damaged file)."""


def _ref(obj):
    return None if obj is None else obj._ref


def _region_path(callpath, known: dict[int, list[int]]) -> list[int]:
    """The regions of an OTF2 CALLPATH definition from the root down, its own last
    (``known``: the paths found so far, by definition id; a walk up stops at one). A parent
    chain that comes back to itself raises :class:`DefinitionError`."""
    chain, seen = [], set()
    node = callpath
    while node is not None and node._ref not in known:
        if node._ref in seen:
            raise DefinitionError(f"callpath {callpath._ref}: its chain of parents is circular")
        seen.add(node._ref)
        chain.append(node)
        node = node.parent
    path = known[node._ref] if node is not None else []
    for node in reversed(chain):
        path = known[node._ref] = [*path, _ref(node.region)]
    return path


def _enum(value):
    """Enum member name, e.g. ``CollectiveOp.BCAST`` -> ``BCAST``; flags joined by ``|``
    (``DYNAMIC|PHASE``); ``CODE_<n>`` for a value OTF2 does not know (see :func:`_unknown_enums`)."""
    if value is None:
        return None
    names, code = type(value)._names, value.value
    if code in names:
        return names[code]
    bits = [1 << i for i in range(code.bit_length()) if code >> i & 1]
    if type(value).__name__.endswith("Flag") and all(b in names for b in bits):
        return "|".join(names[b] for b in bits)
    return f"CODE_{code}"


#: The columns that hold enum names (written by :func:`_enum`).
_ENUM_COLUMNS = {
    "location_type",
    "group_type",
    "role",
    "paradigm",
    "flags",
    "metric_type",
    "metric_mode",
    "value_type",
    "base",
    "occurrence",
    "parameter_type",
}


def _unknown_enums(table: str, rows: list[dict], key: str, warnings: list) -> None:
    """A load warning for every enum value OTF2 does not know (stored as ``CODE_<n>``)."""
    for row in rows:
        for column, value in row.items():
            if column in _ENUM_COLUMNS and isinstance(value, str) and value.startswith("CODE_"):
                warnings.append(
                    dict(
                        check="unknown_enum_values",
                        location_id=None,
                        count=1,
                        detail=f"{column} value unknown to OTF2 ({key} {row[key]} of {table} in the "
                        f"global definitions, stored as {value})",
                    )
                )


def _check_ranges(table: str, rows: list[dict], schema: pa.Schema) -> None:
    """Every integer must fit its column (OTF2 stores unsigned 32/64-bit values)."""
    limits = {
        name: (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
        for name, bits in ((f.name, f.type.bit_width) for f in schema if pa.types.is_integer(f.type))
    }
    for row in rows:
        for column, (low, high) in limits.items():
            value = row.get(column)
            if value is not None and not low <= value <= high:
                first = next(iter(row.items()))
                raise DefinitionError(f"{table} {first[0]} {first[1]}: {column} {value} is out of range")


def _location_ranks(defs) -> dict[int, int]:
    """Map location group id -> MPI rank, from the MPI ``COMM_LOCATIONS`` group.

    Without MPI the rank is the position of the location group.
    """
    for group in defs.groups:
        if group.group_type == otf2.GroupType.COMM_LOCATIONS and group.paradigm == otf2.Paradigm.MPI:
            return {loc.group._ref: rank for rank, loc in enumerate(group.members)}
    return {lg._ref: i for i, lg in enumerate(defs.location_groups)}


def _metric_rows(defs) -> list[dict]:
    rows = []
    for metric in defs.metrics:  # metric classes and instances share one id space
        if isinstance(metric, otf2.definitions.MetricInstance):
            kind, members, occurrence = "instance", metric.metric_class.members, metric.metric_class.occurrence
        else:
            kind, members, occurrence = "class", metric.members, metric.occurrence
        for i, m in enumerate(members):
            rows.append(
                dict(
                    metric_id=metric._ref,
                    metric_kind=kind,
                    member_index=i,
                    member_id=m._ref,
                    name=m.name,
                    description=m.description,
                    metric_type=_enum(m.metric_type),
                    metric_mode=_enum(m.metric_mode),
                    value_type=_enum(m.value_type),
                    base=_enum(m.base),
                    exponent=m.exponent,
                    unit=m.unit,
                    occurrence=_enum(occurrence),
                )
            )
    return rows


def read_definitions(defs, warnings: list | None = None) -> dict[str, list[dict]]:
    """Convert an ``otf2`` definition registry into the rows of the catalog's definition tables.

    Enum values OTF2 does not know become load warnings appended to ``warnings``; a value
    that does not fit its column raises :class:`DefinitionError`.
    """
    ranks = _location_ranks(defs)
    thread_index: dict[int, int] = {}
    locations = []
    for loc in sorted(defs.locations, key=lambda x: x._ref):
        group = _ref(loc.group)
        thread = thread_index.get(group, 0)
        thread_index[group] = thread + 1
        locations.append(
            dict(
                location_id=loc._ref,
                name=loc.name,
                location_type=_enum(loc.type),
                location_group_id=group,
                rank=ranks.get(group),
                thread=thread,
                number_of_events=loc.number_of_events,
            )
        )
    location_groups = [
        dict(
            location_group_id=lg._ref,
            name=lg.name,
            group_type=_enum(lg.location_group_type),
            system_tree_node_id=_ref(lg.system_tree_parent),
            rank=ranks.get(lg._ref),
        )
        for lg in defs.location_groups
    ]
    system_tree = [
        dict(system_tree_node_id=n._ref, name=n.name, class_name=n.class_name, parent_id=_ref(n.parent))
        for n in defs.system_tree_nodes
    ]
    regions = [
        dict(
            region_id=r._ref,
            name=r.name,
            canonical_name=r.canonical_name,
            description=r.description,
            role=_enum(r.region_role),
            paradigm=_enum(r.paradigm),
            flags=_enum(r.region_flags),
            source_file=r.source_file,
            begin_line=r.begin_line_number,
            end_line=r.end_line_number,
        )
        for r in defs.regions
    ]
    region_paths: dict[int, list[int]] = {}
    callpath_definitions = [
        dict(
            callpath_def_id=c._ref,
            parent_def_id=_ref(c.parent),
            region_id=_ref(c.region),
            region_ids=_region_path(c, region_paths),
        )
        for c in defs.callpaths
    ]
    groups, group_members = [], []
    for g in defs.groups:
        members = g.members or ()
        groups.append(
            dict(
                group_id=g._ref,
                name=g.name,
                group_type=_enum(g.group_type),
                paradigm=_enum(g.paradigm),
                size=len(members),
            )
        )
        group_members += [dict(group_id=g._ref, position=i, member_id=m._ref) for i, m in enumerate(members)]
    communicators, comm_members = [], []
    for c in defs.comms:
        group = c.group
        is_self = group is not None and group.group_type == otf2.GroupType.COMM_SELF
        members = () if group is None or is_self else group.members
        communicators.append(
            dict(
                comm_id=c._ref,
                name=c.name,
                group_id=_ref(group),
                parent_id=_ref(c.parent),
                paradigm=_enum(group.paradigm) if group is not None else None,
                size=1 if is_self else len(members),
                is_self=is_self,
            )
        )
        # COMM_GROUP members are resolved to locations in communicator rank order.
        comm_members += [dict(comm_id=c._ref, comm_rank=i, location_id=m._ref) for i, m in enumerate(members)]
    parameters = [
        dict(parameter_id=p._ref, name=p.name, parameter_type=_enum(p.parameter_type)) for p in defs.parameters
    ]
    strings = [dict(string_id=s._ref, text=s.name) for s in defs.strings]
    tables = {
        "locations": locations,
        "location_groups": location_groups,
        "system_tree": system_tree,
        "regions": regions,
        "callpath_definitions": callpath_definitions,
        "groups": groups,
        "group_members": group_members,
        "communicators": communicators,
        "communicator_members": comm_members,
        "metrics": _metric_rows(defs),
        "parameters": parameters,
        "strings": strings,
    }
    for table, rows in tables.items():
        _check_ranges(table, rows, schema(table))
        if warnings is not None:
            _unknown_enums(table, rows, schema(table).names[0], warnings)
    return tables
