-- macro: a point in time in seconds since the experiment's global offset
-- ticks: raw timer ticks (events.time, *_time columns); global_offset and
-- timer_resolution: the experiment's clock (table experiments).
-- Example: SELECT ticks_to_s(e.time, x.global_offset, x.timer_resolution)
--          FROM events e JOIN experiments x USING (experiment_id)
ticks_to_s(ticks, global_offset, timer_resolution) as
    (ticks::bigint - global_offset) / timer_resolution
