{#---
kind: pattern
parent: null
unit: s
on_demand: true
requires: [trace]
columns: {property: VARCHAR, location_id: BIGINT, start_s: DOUBLE, idle_s: DOUBLE, callpath_id: BIGINT, note: VARCHAR}
info: Each Late Sender wait as an interval of the timeline (cosydb export --format perfetto).
description: |
  mpi_latesender on the timeline: a receive waits from the Enter of its call, for its idle
  time (Scalasca: min(E(S), L(R)) - E(R)). One row per wait of mpi_latesender_matches:
  property, location_id, start_s (seconds since the global offset), idle_s, callpath_id,
  note (none).
diagnosis: Not a problem by itself; see mpi_latesender.
---#}
select
    'mpi_latesender' as property,
    w.location_id,
    i.enter_s as start_s,
    w.idle_s,
    w.callpath_id,
    null::varchar as note
from {{ ref('mpi_latesender_matches') }} as w
join {{ ref('region_instances') }} as i
    on w.location_id = i.location_id and w.recv_call_enter_seq = i.enter_seq
