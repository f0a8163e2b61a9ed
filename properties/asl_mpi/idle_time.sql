{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: The ASL summary IdleTime of every call path and process, derived from the trace's wait states.
description: |
  ASL §2.3.1 MPISummary.IdleTime, the time a call waits for its partners, measured
  on the trace by the Scalasca wait-state patterns: late-sender waits at
  receive-completing calls (mpi_latesender_matches), late-receiver waits at
  send-completing calls (mpi_latereceiver_matches) and the waits in collectives
  (mpi_collective_wait_matches: barrier, n-to-n, early reduce / scan, late broadcast). One row per (call path, location): idle_s.
diagnosis: Not a problem by itself; see the properties built on it.
---#}
with waits as (
    select callpath_id, location_id, idle_s from {{ ref('mpi_latesender_matches') }}
    union all
    select callpath_id, location_id, idle_s from {{ ref('mpi_latereceiver_matches') }}
    union all
    select callpath_id, location_id, idle_s from {{ ref('mpi_collective_wait_matches') }}
    where metric in ('mpi_barrier_wait', 'mpi_wait_nxn', 'mpi_earlyreduce', 'mpi_earlyscan', 'mpi_latebroadcast')
)

select callpath_id, location_id, sum(idle_s) as idle_s
from waits
group by all
