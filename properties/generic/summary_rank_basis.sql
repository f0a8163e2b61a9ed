{#---
kind: pattern
parent: rank_basis_paths
unit: s
columns: {basis_s: DOUBLE}
info: Duration of the rank-basis region in ASL summary input, the denominator of the OpenMP and HPF severities.
description: |
  ASL §3.4.2.1 / §3.4.3.1 duration(RankBasis, e) = summary(RankBasis, e).sums.duration:
  the master thread's duration (OpenMP, sm_summary) or the mean over the processes
  (HPF, hpf_summary) of the rank-basis call paths (rank_basis_paths; the roots without
  --rank-basis). One row: basis_s (seconds).
diagnosis: Not a problem; choose the rank basis to rank problems against it.
---#}
select sum(duration) as basis_s
from (
    select callpath_id, duration from {{ ref('sm_summary') }} where location_id is null and instance_no is null
    union all
    select callpath_id, duration from {{ ref('hpf_summary') }} where location_id is null
)
where callpath_id in (select callpath_id from {{ ref('rank_basis_paths') }})
