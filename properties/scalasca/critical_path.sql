{#---
kind: property
parent: null
unit: s
requires: [trace]
problem: false
info: Time on the critical path, the activities that determined the run time (Scalasca's critical_path).
description: |
  Scalasca 2.6 (src/scout/generator/CriticalPath.pattern; Böhme et al., IPDPS 2012):
  per (call path, location), the exclusive time of the call path in the location's
  segments of the critical path (critical_path_segments): the time increments
  (time_increments but cleared_increments) with from_split <= pos < to_split, less, at the segment's
  departure call, that call's waiting time (min(from_wait_s, its time in the
  segment)); over all processes the path's time in the call path. CONDITION value
  > 0, CONFIDENCE 1, SEVERITY value / Duration(RankBasis, e). The sum over all call
  paths and locations is the length of the critical path. A segment's times are
  Scalasca's time map of it where p_time_map_entries asks for one (scalasca.time_maps).
params:
  p_time_map_entries: {default: 0, type: BIGINT, doc: "Call paths a time map holds: 0 keeps every one (exact); 128 gives Scalasca 2.6's values."}
diagnosis: |
  Time on the critical path delays the whole run: shortening it (a faster
  algorithm, less communication) shortens the run, while the same time off the
  path only adds waiting elsewhere.
---#}
{% import 'templates/asl.sql' as asl with context %}
{% import 'templates/scalasca.sql' as scalasca with context %}
{% set on_path %}
with segments as (
    select * from {{ ref('critical_path_segments') }}
),

-- each segment as an interval between two synchronisation points of its location
segment_intervals as (
    select
        s.location_id,
        s.segment,
        f.point_index as from_index,
        a.point_index as to_index,
        row_number() over () as interval_id
    from segments as s
    join {{ ref('sync_points') }} as f on s.location_id = f.location_id and s.from_seq = f.seq
    join {{ ref('sync_points') }} as a on s.location_id = a.location_id and s.to_seq = a.seq
),

-- each segment's exclusive time per call path: the time of the synchronisation
-- intervals from its departure point to its arrival point (sync_interval_times,
-- whose increments exclude cleared_increments)
summed_times as (
    select s.interval_id, t.callpath_id, sum(t.time_s) as time_s
    from (
        select interval_id, location_id, unnest(range(from_index + 1, to_index + 1)) as point_index
        from segment_intervals
    ) as s
    join {{ ref('sync_interval_times') }} as t using (location_id, point_index)
    group by all
),

-- as Scalasca's time map of the segment (getRuntimes(from, m_end_event))
segment_times as (
    select i.location_id, i.segment, t.callpath_id, t.time_s
    from {{ scalasca.time_maps('segment_intervals', 'summed_times') }} as t
    join segment_intervals as i using (interval_id)
),

on_path as (
    select callpath_id, location_id, sum(time_s) as time_s
    from (
        select callpath_id, location_id, time_s from segment_times
        union all
        -- the departure call's waiting time is not on the path
        select s.from_callpath_id, s.location_id, -least(s.from_wait_s, coalesce(t.time_s, 0))
        from segments as s
        left join segment_times as t
            on s.location_id = t.location_id
            and s.segment = t.segment
            and s.from_callpath_id = t.callpath_id
    )
    group by all
    having sum(time_s) != 0
)

select * from on_path
{% endset %}
{{ asl.sum_matches('(' ~ on_path ~ ')', 'time_s') }}
