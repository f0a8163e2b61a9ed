{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, on_path_s: DOUBLE, path_s: DOUBLE, local_s: DOUBLE}
info: Per (call path, location) its time on the critical path, the path's time in it, and its own time without waiting.
description: |
  Scalasca 2.6 (CriticalPath.pattern, CRITICALPATH_FINISHED): on_path_s, the
  location's critical_path value (lcp); path_s, the critical path's time in the call
  path over all locations (gcp); local_s, the location's time in the call path less
  its waiting there (mLocalTimeProfile): the sum of its time_increments (but cleared_increments) less
  min(that sum, the wait_s of its synchronisation points in the call path). Rows:
  every location (CPU threads) with every call path on the path, and every call path
  a location spent time in. Scalasca keeps the location's time in a map of 128
  call paths (src/scout/scout_types.h, timemap_t) that drops small entries where a
  location has more; cosydb keeps every call path unless p_time_map_entries asks
  for Scalasca's map (scalasca.fixed_size_time_maps).
params:
  p_time_map_entries: {default: 0, type: BIGINT, doc: "Call paths a time map holds: 0 keeps every one (exact); 128 gives Scalasca 2.6's values."}
diagnosis: Not a problem by itself; the input of the performance-impact metrics.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
with on_path as (
    select callpath_id, location_id, value as on_path_s
    from {{ ref('critical_path') }}
    where location_id is not null
),

path as (
    select callpath_id, sum(on_path_s) as path_s
    from on_path
    group by all
),

-- each location's time per call path over the whole run: Scalasca's time map
-- getRuntimes(Event(), Event())
summed_times as (
    select i.location_id as interval_id, i.callpath_id, sum(i.amount_s) as time_s
    from {{ ref('time_increments') }} as i
    anti join {{ ref('cleared_increments') }} as c using (location_id, pos, callpath_id)
    group by all
),

-- the whole run of each location
whole_runs as (
    select distinct interval_id, interval_id as location_id, 0 as from_index, null::bigint as to_index
    from summed_times
),

times as (
    select interval_id as location_id, callpath_id, time_s
    from {{ scalasca.time_maps('whole_runs', 'summed_times') }}
),

waits as (
    select location_id, callpath_id, sum(wait_s) as wait_s
    from {{ ref('sync_points') }}
    where wait_s > 0
    group by all
),

local as (
    select t.callpath_id, t.location_id, t.time_s - least(t.time_s, coalesce(w.wait_s, 0)) as local_s
    from times as t
    left join waits as w using (location_id, callpath_id)
),

cells as (
    select p.callpath_id, l.location_id
    from path as p
    cross join {{ ref('locations') }} as l
    where l.location_type = 'CPU_THREAD'
    union
    select callpath_id, location_id from local
)

select
    c.callpath_id,
    c.location_id,
    coalesce(o.on_path_s, 0) as on_path_s,
    coalesce(p.path_s, 0) as path_s,
    coalesce(l.local_s, 0) as local_s
from cells as c
left join on_path as o using (callpath_id, location_id)
left join path as p using (callpath_id)
left join local as l using (callpath_id, location_id)
