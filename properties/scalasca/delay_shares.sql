{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, point_index: BIGINT, delayer_location_id: BIGINT, callpath_id: BIGINT,
          delay_s: DOUBLE}
info: Per wait state the delay of each call path on its delayer, the excess time that made the delayer late.
description: |
  Scalasca 2.6 (src/scout/DelayOps.cpp: PruneDelayTimemap, CalculateDiff;
  Delay.MPI.pattern; MpiDelayOps.cpp, CalculateCollectiveDelay; OmpDelayOps.cpp).
  The time map of an interval (from_index, to_index] between two synchronisation
  points of a location (the intervals delay_resolutions names: the delayer's group
  interval and its interval since it synchronised with the waiting rank, the
  waiting location's since it synchronised with the delayer): per call path its
  time (sync_interval_times over the interval) less the waits of the points
  strictly inside the interval at that call path, kept where > 0; then the call of
  the interval's first point keeps only its completion time, max(time - total_s +
  completion_s, 0) (no first point from the start of the trace, from_index 0).
  Per resolution (the wait at location_id / point_index) and call path c of the
  delayer's group interval: delay_s = max(delayer's time in c - the waiting
  location's time in c, 0), a missing time counting 0. Rows with delay_s > 0.
  Scalasca keeps each time map in 128 call paths (src/scout/scout_types.h,
  timemap_t) and drops small entries where an interval has more; cosydb keeps
  every call path unless p_time_map_entries asks for Scalasca's map
  (scalasca.time_maps).
params:
  p_time_map_entries: {default: 0, type: BIGINT, doc: "Call paths a time map holds: 0 keeps every one (exact); 128 gives Scalasca 2.6's values."}
diagnosis: Not a problem by itself; the input of the delay costs.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}

{#- The synchronisation points as the first point of an interval: its call, that call's
    time and its completion time. The columns named: in delay_shares DuckDB 1.5 would
    read all 20 of sync_points (EXPLAIN). -#}
{% macro first_points() -%}
(select location_id, point_index, callpath_id, total_s, completion_s from {{ ref('sync_points') }})
{%- endmacro %}

{#- Time `time_s` of call path `callpath_id` in an interval whose first point's call is
    `first`.first_callpath_id (its time first_total_s, its completion time
    first_completion_s): that call keeps only its completion time. -#}
{% macro first_call_kept(callpath_id, time_s, first) -%}
case
    when {{ callpath_id }} = {{ first }}.first_callpath_id
        then greatest({{ time_s }} - {{ first }}.first_total_s + {{ first }}.first_completion_s, 0)
    else {{ time_s }}
end
{%- endmacro %}

{#- The intervals of `bounds` (location_id, from_index, to_index), each once and
    numbered, with the call of its first point, that call's time and its
    completion time (none from the start of the trace, from_index 0). -#}
{% macro numbered(bounds) -%}
(
    select
        n.location_id,
        n.from_index,
        n.to_index,
        row_number() over () as interval_id,
        f.callpath_id as first_callpath_id,
        f.total_s as first_total_s,
        f.completion_s as first_completion_s
    from ({{ bounds }}) as n
    left join {{ first_points() }} as f on n.location_id = f.location_id and n.from_index = f.point_index
)
{%- endmacro %}

{#- The time map of each interval of `intervals` (see numbered): Scalasca's
    time per call path less the waits inside, the first point's call keeping only
    its completion time. Yields (interval_id, callpath_id, time_s). -#}
{% macro interval_times(intervals) -%}
(
    -- every interval with the indexes of the points closing its parts
    with spans as (
        select interval_id, location_id, to_index, unnest(range(from_index + 1, to_index + 1)) as point_index
        from {{ intervals }}
        where to_index > from_index
    ),

    -- an interval's time per call path: its parts' summed (one part: its own, exactly),
    -- in one join with sync_interval_times (a second join for the intervals of one part
    -- built its hash table on all of sync_interval_times: 18.6 s of 102 at 100M events)
    summed_times as (
        select s.interval_id, t.callpath_id, sum(t.time_s) as time_s
        from spans as s
        join {{ ref('sync_interval_times') }} as t using (location_id, point_index)
        group by all
    ),

    -- the waits at the points inside an interval of several parts
    waits as (
        select s.interval_id, p.callpath_id, sum(p.wait_s) as wait_s
        from spans as s
        join {{ ref('sync_points') }} as p using (location_id, point_index)
        where s.point_index < s.to_index and p.wait_s > 0
        group by all
    ),

    -- Scalasca's time map of each interval, less the waits inside
    pruned as (
        select r.interval_id, r.callpath_id, r.time_s - coalesce(w.wait_s, 0) as time_s
        from {{ scalasca.time_maps(intervals, 'summed_times') }} as r
        left join waits as w using (interval_id, callpath_id)
        where r.time_s - coalesce(w.wait_s, 0) > 0
    )

    -- the call of the interval's first point keeps only its completion time
    select p.interval_id, p.callpath_id, {{ first_call_kept('p.callpath_id', 'p.time_s', 'i') }} as time_s
    from pruned as p
    join {{ intervals }} as i using (interval_id)
)
{%- endmacro %}

{#- Whether the waiting interval of resolution `r` is one part: no points inside it, so
    no waits to prune; a time map of Scalasca's size ($p_time_map_entries > 0) may cap
    any interval, so then none is. -#}
{% macro one_part(r) -%}
{{ r }}.waiter_from_index + 1 = {{ r }}.point_index and $p_time_map_entries = 0
{%- endmacro %}

{#- The delayer's time per call path of its group interval since its synchronisation
    with the waiting rank, for each resolution of `resolutions` (the columns of
    resolution_intervals and the columns `carried`): the group interval's own, or on a
    collective whose delayer synchronised with the rank later, its sub-interval's. -#}
{% macro delayer_times(resolutions, carried) -%}
(
    select
        r.location_id, r.point_index, r.delayer_location_id, {% for c in carried %}r.{{ c }}, {% endfor %}
        g.callpath_id, g.time_s
    from {{ resolutions }} as r
    join delayer_interval_times as g on r.group_interval_id = g.interval_id
    where r.delayer_interval_id = r.group_interval_id

    union all

    select
        r.location_id, r.point_index, r.delayer_location_id, {% for c in carried %}r.{{ c }}, {% endfor %}
        g.callpath_id, coalesce(d.time_s, 0)
    from {{ resolutions }} as r
    join delayer_interval_times as g on r.group_interval_id = g.interval_id
    left join delayer_interval_times as d on r.delayer_interval_id = d.interval_id and g.callpath_id = d.callpath_id
    where r.delayer_interval_id != r.group_interval_id
)
{%- endmacro %}

with resolutions as (
    select * from {{ ref('delay_resolutions') }}
),

-- the delayer's intervals: its group interval and its interval since it
-- synchronised with the waiting rank (a few; their time maps are kept)
delayer_intervals as (
    select * from {{ numbered('
        select delayer_location_id as location_id, delayer_from_index as from_index, delayer_index as to_index
        from resolutions
        union
        select delayer_location_id, group_from_index, delayer_index
        from resolutions
    ') }}
),

-- the waiting location's intervals since it synchronised with the delayer, where
-- they are more than one part (or a time map may cap them): the waits of one part
-- read their time from sync_interval_times (the last select)
waiter_intervals as (
    select * from {{ numbered('
        select distinct location_id, waiter_from_index as from_index, point_index as to_index
        from resolutions
        where not (' ~ one_part('resolutions') ~ ')
    ') }}
),

-- each resolution's intervals on the delayer: its group interval (g) and its interval
-- since it synchronised with the waiting rank (d)
resolution_intervals as (
    select
        r.location_id,
        r.point_index,
        r.delayer_location_id,
        r.waiter_from_index,
        g.interval_id as group_interval_id,
        d.interval_id as delayer_interval_id
    from resolutions as r
    join delayer_intervals as g
        on r.delayer_location_id = g.location_id
        and r.group_from_index = g.from_index
        and r.delayer_index = g.to_index
    join delayer_intervals as d
        on r.delayer_location_id = d.location_id
        and r.delayer_from_index = d.from_index
        and r.delayer_index = d.to_index
),

-- the waits whose waiting interval is one part, with the call of its first point (the
-- point waiter_from_index; none from the start of the trace), that call's time and its
-- completion time
one_part_resolutions as (
    select r.*, f.callpath_id as first_callpath_id, f.total_s as first_total_s, f.completion_s as first_completion_s
    from resolution_intervals as r
    left join {{ first_points() }} as f on r.location_id = f.location_id and r.waiter_from_index = f.point_index
    where {{ one_part('r') }}
),

-- the others, with their waiting interval
parts_resolutions as (
    select r.*, w.interval_id as waiter_interval_id
    from resolution_intervals as r
    join waiter_intervals as w
        on r.location_id = w.location_id
        and r.waiter_from_index = w.from_index
        and r.point_index = w.to_index
),

delayer_interval_times as materialized (
    select * from {{ interval_times('delayer_intervals') }}
)

-- waits of one part: the waiting location's time in the call path is its row of
-- sync_interval_times (no points inside: no waits to prune), the first point's call
-- keeping only its completion time, as in interval_times
select location_id, point_index, delayer_location_id, callpath_id, delay_s
from (
    select
        t.location_id,
        t.point_index,
        t.delayer_location_id,
        t.callpath_id,
        -- a time <= 0 is no entry of a time map (interval_times' pruned): 0
        t.time_s - case
            when coalesce(w.time_s, 0) <= 0 then 0
            else {{ first_call_kept('t.callpath_id', 'w.time_s', 't') }}
        end as delay_s
    from {{ delayer_times('one_part_resolutions', ['first_callpath_id', 'first_total_s', 'first_completion_s']) }} as t
    left join {{ ref('sync_interval_times') }} as w
        on t.location_id = w.location_id and t.point_index = w.point_index and t.callpath_id = w.callpath_id
)
where delay_s > 0

union all

select
    t.location_id,
    t.point_index,
    t.delayer_location_id,
    t.callpath_id,
    t.time_s - coalesce(w.time_s, 0) as delay_s
from {{ delayer_times('parts_resolutions', ['waiter_interval_id']) }} as t
left join {{ interval_times('waiter_intervals') }} as w
    on t.waiter_interval_id = w.interval_id and t.callpath_id = w.callpath_id
where t.time_s - coalesce(w.time_s, 0) > 0
