{#---
kind: pattern
parent: null
unit: s
requires: [trace, openmp]
columns: {callpath_id: BIGINT, location_id: BIGINT, omp_class: VARCHAR, fork_location_id: BIGINT,
  fork_seq: BIGINT, barrier_index: BIGINT, enter_time: UBIGINT, wait_s: DOUBLE}
info: OpenMP barrier instances matched across the team, with each thread's wait for the last one.
description: |
  Scalasca, omp_ebarrier_wait / omp_ibarrier_wait: at each team barrier instance
  (omp_barrier_instances: the k-th barrier of every thread in one parallel-region
  instance) a thread waits from its Enter until the latest Enter of the team,
  wait_s = max E - E (0 for the last one). Barriers outside a parallel region are not
  matched (Scalasca skips them too). One row per (barrier
  instance, thread): callpath_id, location_id, omp_class ('ebarrier' or 'ibarrier'),
  fork_location_id, fork_seq, barrier_index, enter_time (ticks), wait_s (seconds).
diagnosis: Not a problem by itself; see omp_ibarrier_wait and omp_ebarrier_wait.
---#}
with clock as (
    select timer_resolution from {{ ref('experiments') }}
)

select
    b.callpath_id,
    b.location_id,
    b.omp_class,
    b.fork_location_id,
    b.fork_seq,
    b.barrier_index,
    b.enter_time,
    (b.latest_enter_time - b.enter_time)::bigint / clock.timer_resolution as wait_s
from {{ ref('omp_barrier_instances') }} as b
cross join clock
