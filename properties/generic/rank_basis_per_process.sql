{#---
kind: pattern
parent: rank_basis_paths
unit: s
columns: {location_id: BIGINT, basis_s: DOUBLE}
info: Duration of the rank-basis region on each process.
description: |
  ASL §3.4.1.1: Duration(RankBasis, e, p) = Summary(RankBasis, e, p).Incl, the
  inclusive time of the instances of rank_basis_paths on process p. One row per
  location: location_id, basis_s (seconds).
diagnosis: Not a problem; the denominator of per-process severities.
---#}
select location_id, sum(incl_s) as basis_s
from {{ ref('callpath_profile') }}
where callpath_id in (select callpath_id from {{ ref('rank_basis_paths') }})
group by location_id
