{#---
kind: pattern
parent: rank_basis_paths
unit: s
columns: {callpath_id: BIGINT, region_id: BIGINT}
info: The call paths of MPI's initialisation and finalisation (MPI_Init, MPI_Init_thread, MPI_Finalize) in the rank basis.
description: |
  The call paths of the regions MPI_Init, MPI_Init_thread and MPI_Finalize that lie in
  the rank basis (below or at a call path of rank_basis_paths): the run's set-up and
  tear-down phases, which dominate short runs. One row per call path: callpath_id,
  region_id.
diagnosis: Not a problem; the phases init_finalize_time measures and main_work_time avoids.
---#}
select c.callpath_id, c.region_id
from {{ ref('callpaths') }} as c
join {{ ref('regions') }} as r using (region_id)
where r.name in ('MPI_Init', 'MPI_Init_thread', 'MPI_Finalize')
    and exists (
        select 1
        from {{ ref('callpath_ancestors') }} as a
        join {{ ref('rank_basis_paths') }} as b on a.ancestor_id = b.callpath_id
        where a.descendant_id = c.callpath_id
    )
