{#---
kind: pattern
parent: null
unit: s
info: Scalasca's metric hierarchy (reference/wait-states.md, time hierarchy) as rows.
description: |
  One row per metric: metric, parent (NULL for the roots time, visits, bytes, comms,
  syncs), unit (s, count or bytes) and source: 'category' for a metric that is the sum
  of its children (the leaf time categories take a call path's time by its region, see
  time_cube), 'property' for the wait-state metrics computed by the catalog entry of
  that name (a part of its parent's time), 'count' for the message and byte counts,
  'visits' for the number of executions.
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
    ('visits', null, 'count', 'visits'),
    ('bytes', null, 'bytes', 'category'),
    ('bytes_p2p', 'bytes', 'bytes', 'category'),
    ('bytes_sent', 'bytes_p2p', 'bytes', 'count'),
    ('bytes_rcvd', 'bytes_p2p', 'bytes', 'count'),
    ('bytes_coll', 'bytes', 'bytes', 'category'),
    ('bytes_cout', 'bytes_coll', 'bytes', 'count'),
    ('bytes_cin', 'bytes_coll', 'bytes', 'count'),
    ('comms', null, 'count', 'category'),
    ('comms_p2p', 'comms', 'count', 'category'),
    ('comms_send', 'comms_p2p', 'count', 'count'),
    ('comms_recv', 'comms_p2p', 'count', 'count'),
    ('comms_coll', 'comms', 'count', 'category'),
    ('comms_cxch', 'comms_coll', 'count', 'count'),
    ('comms_csrc', 'comms_coll', 'count', 'count'),
    ('comms_cdst', 'comms_coll', 'count', 'count'),
    ('syncs', null, 'count', 'category'),
    ('syncs_p2p', 'syncs', 'count', 'category'),
    ('syncs_send', 'syncs_p2p', 'count', 'count'),
    ('syncs_recv', 'syncs_p2p', 'count', 'count'),
    ('syncs_coll', 'syncs', 'count', 'count')
) as tree(metric, parent, unit, source)
