"""The schema of every table a loader writes (``database.RAW_TABLES``).

A source that lacks a table (a profile has no events, a trace no call-tree
nodes, only summary input has ASL region summaries) gets it written empty with this schema, so every experiment of a
database has every table and the catalog's views span them all.
"""

from __future__ import annotations

import pyarrow as pa

from .cube_profile import CNODES, PROFILE_METRICS, PROFILE_VALUES
from .otf2_definitions import (COMMUNICATOR_MEMBERS, COMMUNICATORS, GROUP_MEMBERS, GROUPS, LOCATION_GROUPS,
                               LOCATIONS, METRICS, PARAMETERS, REGIONS, STRINGS, SYSTEM_TREE)
from .otf2_events import EVENT_SCHEMA, METRIC_SCHEMA
from .summary_input import HPF_DECLS, HPF_SUMS, SM_SUMS, SUMMARY_REGIONS, SYSTEM_CONSTANTS, VARIABLE_ACCESSES

#: ``experiment.parquet``: one row per experiment.
EXPERIMENT = pa.schema([
    ("experiment_id", pa.int64()), ("name", pa.string()), ("load_time", pa.string()),
    ("tool_version", pa.string()), ("schema_version", pa.int64()), ("is_profile", pa.bool_()),
    ("timer_resolution", pa.int64()), ("global_offset", pa.int64()), ("trace_length", pa.int64()),
    ("creator", pa.string()), ("source_path", pa.string()), ("format", pa.string()),
    ("number_of_events", pa.int64()), ("number_of_locations", pa.int64()),
    ("first_time", pa.int64()), ("last_time", pa.int64()),
])
RECORD_COUNTS = pa.schema([("location_id", pa.int64()), ("type", pa.string()),
                           ("count", pa.int64()), ("has_payload", pa.bool_())])
LOAD_WARNINGS = pa.schema([("check", pa.string()), ("location_id", pa.int64()),
                           ("count", pa.int64()), ("detail", pa.string())])

SCHEMAS = {
    "events": EVENT_SCHEMA, "metric_values": METRIC_SCHEMA,
    "locations": LOCATIONS, "location_groups": LOCATION_GROUPS, "system_tree": SYSTEM_TREE,
    "regions": REGIONS, "groups": GROUPS, "group_members": GROUP_MEMBERS,
    "communicators": COMMUNICATORS, "communicator_members": COMMUNICATOR_MEMBERS,
    "metrics": METRICS, "parameters": PARAMETERS, "strings": STRINGS,
    "record_counts": RECORD_COUNTS, "load_warnings": LOAD_WARNINGS,
    "cnodes": CNODES, "profile_metrics": PROFILE_METRICS, "profile_values": PROFILE_VALUES,
    "summary_regions": SUMMARY_REGIONS, "sm_sums": SM_SUMS, "variable_accesses": VARIABLE_ACCESSES,
    "hpf_sums": HPF_SUMS, "hpf_decls": HPF_DECLS, "system_constants": SYSTEM_CONSTANTS,
}
