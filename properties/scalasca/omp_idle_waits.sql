{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, from_index: BIGINT, point_index: BIGINT, callpath_id: BIGINT, wait_s: DOUBLE,
          idle_threads: BIGINT}
info: The waits of OpenMP master threads in their serial stretches, which the idle threads of their process wait along.
description: |
  Scalasca 2.6 (Delay.OMP.pattern, OMP_MGMT_FORK and PREPARE: CalculateWaitMap of
  the points between the previous OpenMP point and the fork): the synchronisation
  points with wait_s > 0 of a master thread strictly inside one of its
  omp_idle_segments (from_index names the stretch). Their waiting is not the
  master's serial work, so it is no idle delay; each of the idle_threads other
  threads waits along, so it is passed on as delay_ompidle_longterm cost of
  idle_threads * wait_s.
diagnosis: Not a problem by itself; the input of delay_ompidle and its long-term costs.
---#}
select s.location_id, s.from_index, p.point_index, p.callpath_id, p.wait_s, s.idle_threads
from {{ ref('sync_points') }} as p
asof join (
    select *, coalesce(to_index, 9223372036854775807) as until_index from {{ ref('omp_idle_segments') }}
) as s
    on p.location_id = s.location_id
    and p.point_index < s.until_index
where p.point_index > s.from_index and p.wait_s > 0
