{#---
like: mpi_latesender_timeline  # a timeline pattern (catalog.TIMELINE_COLUMNS)
requires: [trace, openmp]
info: The forks and joins of OpenMP teams as intervals of the timeline (cosydb export --format perfetto).
description: |
  omp_management and omp_fork on the timeline: each thread of a team is forked from the
  fork to its Enter of the parallel region and joined from its Leave to the join
  (omp_management; omp_fork the first part, drawn inside the omp_management slice of the
  same interval), at the parallel region's call path. Rows: property, location_id, start_s
  (seconds since the global offset), idle_s, callpath_id, note (which interval).
diagnosis: Not a problem by itself; see omp_management.
---#}
select
    part.name as property,
    w.location_id,
    case when part.is_fork then i.enter_s - w.fork_s else i.leave_s end as start_s,
    case when part.is_fork then w.fork_s else w.join_s end as idle_s,
    w.callpath_id,
    case
        when part.is_fork then 'fork to Enter of the parallel region'
        else 'Leave of the parallel region to join'
    end as note
from {{ ref('omp_fork_join') }} as w
cross join (values ('omp_management', true), ('omp_fork', true), ('omp_management', false)) as part (name, is_fork)
join {{ ref('region_instances') }} as i
    on w.location_id = i.location_id and w.enter_seq = i.enter_seq
