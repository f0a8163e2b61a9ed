{#---
kind: pattern
parent: rank_basis_paths
unit: s
columns: {basis_s: DOUBLE, instances: HUGEINT}
info: Duration of the rank-basis region summed over all processes, the denominator of severities.
description: |
  ASL §3.4.1.1: Duration(RankBasis, e) = Summary(RankBasis, e).Incl, the inclusive
  time of the instances of rank_basis_paths summed over all processes.
  One row: basis_s (seconds), instances.
diagnosis: Not a problem; choose the rank basis (e.g. the solver loop) to rank problems against it.
---#}
select sum(incl_s) as basis_s, sum(executions) as instances
from {{ ref('callpath_profile') }}
where callpath_id in (select callpath_id from {{ ref('rank_basis_paths') }})
