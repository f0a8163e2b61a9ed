-- Scalasca's time maps (TmapCacheHandler of Scalasca 2.6) as they enter the
-- critical-path and delay analyses: time_increments, less what Scalasca clears on
-- a worker thread (its map is emptied at every fork and at the end), i.e. a
-- worker's increments outside parallel regions and after its last
-- synchronisation point (sync_points: OpenMP barrier or fork) in a region.
-- Columns as time_increments: location_id, pos, callpath_id, amount_s (seconds).
-- Read by critical_path and critical_path_profile.
with increments as (
    select * from {{ ref('time_increments') }}
),

threads as (
    select experiment_id, location_id, thread > 0 as is_worker from {{ ref('locations') }}
),

-- a worker thread's increments with the synchronisation point ending their segment
-- (NULL: none)
worker_segments as (
    select i.*, s.kind as segment_end
    from (select i.* from increments as i join threads as t using (experiment_id, location_id) where t.is_worker) as i
    asof left join (
        select experiment_id, location_id, split_pos, min(kind) as kind
        from {{ ref('sync_points') }}
        where kind in ('OMPBAR', 'FORK')
        group by all
    ) as s
        on i.experiment_id = s.experiment_id
        and i.location_id = s.location_id
        and i.pos < s.split_pos
)

select i.experiment_id, i.location_id, i.pos, i.callpath_id, i.amount_s
from increments as i
join threads as t using (experiment_id, location_id)
where not t.is_worker
union all
select experiment_id, location_id, pos, callpath_id, amount_s
from worker_segments
where segment_end != 'FORK'
