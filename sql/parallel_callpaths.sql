-- The call paths inside OpenMP parallel regions: every call path whose region, or
-- the region of one of its callers, is a parallel region (region_classes.omp_class
-- = 'parallel'). Scalasca treats them apart: the master's serial time
-- (omp_serial_time) excludes them, and its imbalance heuristics divide their
-- computation by the threads instead of the processes (computation_imbalance).
-- Columns: callpath_id.
select distinct a.experiment_id, a.descendant_id as callpath_id
from {{ ref('callpath_ancestors') }} as a
join {{ ref('callpaths') }} as c
    on a.experiment_id = c.experiment_id and a.ancestor_id = c.callpath_id
join {{ ref('region_classes') }} as k
    on c.experiment_id = k.experiment_id and c.region_id = k.region_id
where k.omp_class = 'parallel'
