{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, comm_id: INTEGER, instance_index: BIGINT,
  comm_rank: INTEGER, coll_op: VARCHAR, class: VARCHAR, is_root: BOOLEAN, begin_time: UBIGINT,
  end_time: UBIGINT, latest_begin: UBIGINT, earliest_end: UBIGINT, root_begin: UBIGINT,
  latest_sender_begin: UBIGINT}
info: Every rank's part in every collective instance, with the instance's reference times.
description: |
  docs/wait-states.md, collectives: collective_instances (the k-th collective on
  a communicator on every member is one instance; B/X = MpiCollectiveBegin/End) on
  communicators of more than one rank, without calls that move no data (except
  barriers). Per (instance, location): the call's callpath_id, coll_op, the class
  (barrier, nxn, n_to_1, 1_to_n, scan), begin_time / end_time (B, X) and the
  instance's latest_begin (max B), earliest_end (min X), root_begin (B of the
  root) and latest_sender_begin (max B over the ranks other than the root); raw ticks.
diagnosis: Not a problem by itself; the collective wait states build on it.
---#}
-- The definition is the view sql/collective_timings.sql (also read by mpi_collective_waits).
select * exclude (experiment_id) from {{ ref('collective_timings') }}
