{#---
kind: pattern
parent: mpi_collective_timings
unit: s
requires: [trace]
columns: {metric: VARCHAR, callpath_id: BIGINT, location_id: BIGINT, comm_id: INTEGER,
  instance_index: BIGINT, idle_s: DOUBLE}
info: Scalasca's collective and management wait states, one row per (metric, instance, rank) that waited.
description: |
  docs/wait-states.md, with latest = max B and earliest_end = min X over the
  instance (mpi_collective_timings), per rank (value when positive):
  mpi_barrier_wait / mpi_wait_nxn (MPI_Barrier / n-to-n collectives):
    min(latest, X) - B;
  mpi_barrier_completion / mpi_nxn_completion: X - max(earliest_end, min(latest, X));
  mpi_earlyreduce (Reduce, Gather(v); root only): min(latest B of the senders, X) - B;
  mpi_earlyscan (Scan, Exscan): min(max B over ranks 0..me, X) - B;
  mpi_latebroadcast (Bcast, Scatter(v); non-root ranks): min(B of the root, X) - B;
  mpi_init_completion (MPI_Init(_thread) over all ranks, Enter E / Leave L):
    L - max(min L, min(max E, L));
  mpi_finalize_wait (MPI_Finalize over all ranks): min(max E, L) - E.
  Columns: metric, callpath_id, location_id (the rank's call), comm_id and
  instance_index (NULL for Init/Finalize), idle_s.
diagnosis: See the metric of each row.
---#}
-- One definition: the rule is the view sql/mpi_collective_waits.sql.
select * exclude (experiment_id) from {{ ref('mpi_collective_waits') }}
