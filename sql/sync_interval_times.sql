-- The time each call path spent between consecutive synchronisation points of a
-- location (Scalasca 2.6, TmapCacheHandler's time-map cache): the
-- time_increments (but cleared_increments) with split_pos of the previous point
-- <= pos < split_pos of this one, summed per call path. The time of a call path
-- between any two points a < b of the location (getRuntimes(a, b)) is the sum of
-- its rows with point_index in (a, b]. Increments after a location's last point
-- belong to no interval.
-- Columns: location_id, point_index (sync_points: the point closing the
-- interval), callpath_id, time_s (seconds).
{{ config(materialized='table', partitioned=true) }}
select i.experiment_id, i.location_id, s.point_index, i.callpath_id, sum(i.amount_s) as time_s
from {{ ref('time_increments') }} as i
anti join {{ ref('cleared_increments') }} as c using (experiment_id, location_id, pos, callpath_id)
asof join (
    -- the points of this partition's locations (the ASOF join sorts all of its right side)
    select experiment_id, location_id, split_pos, point_index from {{ ref('sync_points') }}
    where location_id in (select i.location_id from {{ ref('time_increments') }} as i)
) as s
    on i.experiment_id = s.experiment_id
    and i.location_id = s.location_id
    and i.pos < s.split_pos
group by all
