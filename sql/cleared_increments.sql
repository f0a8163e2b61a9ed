-- What Scalasca's time maps (TmapCacheHandler of Scalasca 2.6) leave out of
-- time_increments: a worker thread's map is emptied at every fork and at the end,
-- so its increments outside parallel regions and after its last synchronisation
-- point (sync_points: OpenMP barrier or fork) in a region do not count. The
-- critical-path and delay analyses read time_increments without these rows (an
-- anti join; none on a run without OpenMP threads).
-- Columns: location_id, pos, callpath_id (the increments' key in time_increments).
with increments as (
    select * from {{ ref('time_increments') }}
),

threads as (
    select experiment_id, location_id, thread > 0 as is_worker from {{ ref('locations') }}
),

-- a worker thread's increments with the synchronisation point ending their segment
-- (NULL: none); a master's are all kept
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

select distinct experiment_id, location_id, pos, callpath_id
from worker_segments
where segment_end = 'FORK' or segment_end is null
