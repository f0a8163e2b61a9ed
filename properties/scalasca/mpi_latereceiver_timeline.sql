{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
info: Each Late Receiver wait as an interval of the timeline (cosydb export --format perfetto).
description: |
  mpi_latereceiver on the timeline: a send waits from the Enter of the call that completes
  it, for its idle time. One row per wait of mpi_latereceiver_matches: property,
  location_id, start_s (seconds since the global offset), idle_s, callpath_id, note (none).
diagnosis: Not a problem by itself; see mpi_latereceiver.
---#}
select
    'mpi_latereceiver' as property,
    w.location_id,
    i.enter_s as start_s,
    w.idle_s,
    w.callpath_id,
    null::varchar as note
from {{ ref('mpi_latereceiver_matches') }} as w
join {{ ref('region_instances') }} as i
    on w.location_id = i.location_id and w.send_complete_call_enter_seq = i.enter_seq
