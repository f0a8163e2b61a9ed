-- macro: region stack R^l (CRE report §4.1, Fig. 2 and 11)
-- The region instances open on location p_location_id at tick p_time: entered
-- at or before p_time and not left by then, outermost first.
-- Example: SELECT * FROM region_stack(1, 3, 8862913575348)
region_stack(p_experiment_id, p_location_id, p_time) as table
select *
from {{ ref('region_instances') }}
where experiment_id = p_experiment_id
    and location_id = p_location_id
    and enter_time <= p_time
    and (leave_time is null or leave_time > p_time)
order by depth
