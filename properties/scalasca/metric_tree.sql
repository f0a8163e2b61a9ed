{#---
kind: pattern
parent: null
unit: s
info: Scalasca's metric hierarchy (reference/wait-states.md, time hierarchy) as rows.
description: |
  One row per metric: metric, parent (NULL for the roots time and visits), unit
  (s or count) and source: 'category' for the time categories (a call path's time is
  assigned to exactly one leaf category by its region, see time_cube), 'property' for
  the wait-state metrics computed by the catalog entry of that name (a part of its
  parent's time), 'visits' for the number of executions.
diagnosis: Not a problem; the structure of time_cube.
---#}
select * from (values
    ('time', null, 's', 'category'),
    ('execution', 'time', 's', 'category'),
    ('comp', 'execution', 's', 'category'),
    ('mpi', 'execution', 's', 'category'),
    ('mpi_management', 'mpi', 's', 'category'),
    ('mpi_init_exit', 'mpi_management', 's', 'category'),
    ('mpi_init_completion', 'mpi_init_exit', 's', 'property'),
    ('mpi_finalize_wait', 'mpi_init_exit', 's', 'property'),
    ('mpi_mgmt_comm', 'mpi_management', 's', 'category'),
    ('mpi_mgmt_file', 'mpi_management', 's', 'category'),
    ('mpi_mgmt_win', 'mpi_management', 's', 'category'),
    ('mpi_synchronization', 'mpi', 's', 'category'),
    ('mpi_sync_collective', 'mpi_synchronization', 's', 'category'),
    ('mpi_barrier_wait', 'mpi_sync_collective', 's', 'property'),
    ('mpi_barrier_completion', 'mpi_sync_collective', 's', 'property'),
    ('mpi_communication', 'mpi', 's', 'category'),
    ('mpi_point2point', 'mpi_communication', 's', 'category'),
    ('mpi_latesender', 'mpi_point2point', 's', 'property'),
    ('mpi_latesender_wo', 'mpi_latesender', 's', 'property'),
    ('mpi_lswo_different', 'mpi_latesender_wo', 's', 'property'),
    ('mpi_lswo_same', 'mpi_latesender_wo', 's', 'property'),
    ('mpi_latereceiver', 'mpi_point2point', 's', 'property'),
    ('mpi_collective', 'mpi_communication', 's', 'category'),
    ('mpi_earlyreduce', 'mpi_collective', 's', 'property'),
    ('mpi_earlyscan', 'mpi_collective', 's', 'property'),
    ('mpi_latebroadcast', 'mpi_collective', 's', 'property'),
    ('mpi_wait_nxn', 'mpi_collective', 's', 'property'),
    ('mpi_nxn_completion', 'mpi_collective', 's', 'property'),
    ('mpi_rma_communication', 'mpi_communication', 's', 'category'),
    ('mpi_io', 'mpi', 's', 'category'),
    ('mpi_io_individual', 'mpi_io', 's', 'category'),
    ('mpi_io_collective', 'mpi_io', 's', 'category'),
    ('visits', null, 'count', 'visits')
) as tree(metric, parent, unit, source)
