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
  paths and locations is the length of the critical path.
diagnosis: |
  Time on the critical path delays the whole run: shortening it (a faster
  algorithm, less communication) shortens the run, while the same time off the
  path only adds waiting elsewhere.
---#}
{% import 'templates/asl.sql' as asl with context %}
{% set on_path %}
with segments as (
    select * from {{ ref('critical_path_segments') }}
),

-- each segment's exclusive time per call path: the increments from its departure
-- on (the latest segment starting at or before them) up to its arrival; a location
-- is on the path once at a time, so its segments do not overlap
segment_times as (
    select s.location_id, s.segment, i.callpath_id, sum(i.amount_s) as time_s
    from {{ ref('time_increments') }} as i
    anti join {{ ref('cleared_increments') }} as c using (location_id, pos, callpath_id)
    asof join segments as s
        on i.location_id = s.location_id
        and i.pos >= s.from_split
    where i.pos < s.to_split
    group by all
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
