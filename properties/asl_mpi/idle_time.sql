{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, idle_s: DOUBLE}
info: The ASL summary IdleTime of every call path and process that waited (mpi_summary.idle_time_s).
description: |
  ASL §2.3.1 / Appendix C MPISummary.IdleTime, the time the calls of a call path (with
  its callees, as the summary's other times) wait for their partners: the column
  idle_time_s of the view mpi_summary (sql/mpi_summary.sql), which defines it from the
  trace's wait states - Scalasca's late-sender waits at receive-completing calls,
  late-receiver waits at send-completing calls and the waits in collectives (barrier,
  n-to-n, early reduce / scan, late broadcast). One row per (call path, location) with
  IdleTime > 0: idle_s. A profile measures no IdleTime (idle_time_s NULL), hence
  requires trace.
diagnosis: Not a problem by itself; see the properties built on it.
---#}
select callpath_id, location_id, idle_time_s as idle_s
from {{ ref('mpi_summary') }}
where location_id is not null and idle_time_s > 0
