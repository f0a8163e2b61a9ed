-- The report's root-cause section (cosydb report), part one: the critical path's
-- activities, most time on the path first. Over the last report's property_results:
-- one row per call path with time on the critical path (the all-process rows of
-- critical_path), its share of the path's length, the part of it that is
-- critical_path_imbalance (the path's excess over an average location there), and the
-- locations carrying it, per (rank, thread), largest first.
-- Columns: callpath_id, callpath, on_path_s, path_share (of the path's length), imbalance_s,
-- path_s (the path's length, seconds), locations.
with results as (
    select * from {{ ref('property_results') }}
    where status = 'evaluated' and property in ('critical_path', 'critical_path_imbalance')
),

locations as (
    select experiment_id, location_id, rank, thread from {{ ref('locations') }}
),

on_path as (
    select experiment_id, callpath_id, any_value(callpath) as callpath, sum(value) as on_path_s
    from results
    where property = 'critical_path' and location_id is null
    group by all
),

per_location as (
    select
        r.experiment_id,
        r.callpath_id,
        list({ 'rank': l.rank, 'thread': l.thread, 'value': r.value } order by r.value desc, l.rank asc, l.thread asc)
            as locations
    from results as r
    join locations as l using (experiment_id, location_id)
    where r.property = 'critical_path'
    group by all
),

imbalance as (
    select experiment_id, callpath_id, sum(value) as imbalance_s
    from results
    where property = 'critical_path_imbalance' and location_id is null
    group by all
)

select
    p.experiment_id,
    p.callpath_id,
    p.callpath,
    p.on_path_s,
    p.on_path_s / sum(p.on_path_s) over (partition by p.experiment_id) as path_share,
    coalesce(i.imbalance_s, 0) as imbalance_s,
    sum(p.on_path_s) over (partition by p.experiment_id) as path_s,
    l.locations
from on_path as p
left join imbalance as i using (experiment_id, callpath_id)
left join per_location as l using (experiment_id, callpath_id)
