{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, from_index: BIGINT, to_index: BIGINT, from_pos: BIGINT, to_split: BIGINT,
          idle_threads: BIGINT}
info: The serial stretches of every OpenMP master thread, where the other threads of its process idle.
description: |
  Scalasca 2.6 (Delay.OMP.pattern, OMP_MGMT_FORK and PREPARE; TmapCacheHandler's
  join save point): per master thread (thread 0 of a process whose team runs
  idle_threads = process_threads - 1 > 0 other threads), one row per fork of a
  parallel region (to_index, the FORK point in sync_points; to_split its
  split_pos) and one for the end of the trace (to_index and to_split NULL).
  from_index is the master's previous OpenMP point (barrier or fork; 0 before the
  first fork): the stretch's synchronisation points lie strictly between the two.
  Its time is the master's time_increments with from_pos < pos < to_split, from_pos
  = 2 * seq of the ThreadJoin that ends the previous parallel region (-1 before the
  first fork), so the rest of that region does not count.
diagnosis: Not a problem by itself; the input of delay_ompidle.
---#}
with masters as (
    select distinct location_id, process_threads - 1 as idle_threads
    from {{ ref('parallel_instances') }}
    where location_id = fork_location_id and process_threads > 1
),

omp_points as (
    select
        p.location_id,
        p.point_index,
        p.kind,
        p.split_pos,
        p.team_seq,
        lag(p.point_index) over master as from_index,
        lag(p.team_seq) over master as from_team_seq,
        lead(p.point_index) over master is null as is_last
    from {{ ref('sync_points') }} as p
    join masters as m using (location_id)
    where p.kind in ('OMPBAR', 'FORK')
    window master as (partition by p.location_id order by p.point_index)
),

segments as (
    select location_id, coalesce(from_index, 0) as from_index, from_team_seq, point_index as to_index,
        split_pos as to_split
    from omp_points
    where kind = 'FORK'
    union all
    select location_id, point_index, team_seq, null, null
    from omp_points
    where is_last
)

select s.location_id, s.from_index, s.to_index, coalesce(2 * p.join_seq, -1) as from_pos, s.to_split,
    m.idle_threads
from segments as s
join masters as m using (location_id)
left join {{ ref('parallel_instances') }} as p
    on s.location_id = p.location_id
    and s.location_id = p.fork_location_id
    and s.from_team_seq = p.fork_seq
