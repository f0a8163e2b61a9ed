{#- Rules shared by Scalasca's wait-state metrics (reference/wait-states.md).
    Import with: {% import 'templates/scalasca.sql' as scalasca with context %} -#}

{#- Scalasca's metric hierarchy (reference/wait-states.md): (metric, parent, unit,
    source) in tree order; rendered by the pattern metric_tree, whose description
    says what the sources mean. -#}
{% set metric_tree = [
    ('time', none, 's', 'category'),
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
    ('omp_time', 'execution', 's', 'category'),
    ('omp_management', 'omp_time', 's', 'category'),
    ('omp_fork', 'omp_management', 's', 'property'),
    ('omp_synchronization', 'omp_time', 's', 'category'),
    ('omp_barrier', 'omp_synchronization', 's', 'category'),
    ('omp_ebarrier', 'omp_barrier', 's', 'category'),
    ('omp_ebarrier_wait', 'omp_ebarrier', 's', 'property'),
    ('omp_ibarrier', 'omp_barrier', 's', 'category'),
    ('omp_ibarrier_wait', 'omp_ibarrier', 's', 'property'),
    ('omp_critical', 'omp_synchronization', 's', 'category'),
    ('omp_lock_contention_critical', 'omp_critical', 's', 'property'),
    ('omp_lock_api', 'omp_synchronization', 's', 'category'),
    ('omp_lock_contention_api', 'omp_lock_api', 's', 'property'),
    ('omp_ordered', 'omp_synchronization', 's', 'category'),
    ('omp_taskwait', 'omp_synchronization', 's', 'category'),
    ('omp_flush', 'omp_time', 's', 'category'),
    ('omp_idle_threads', 'time', 's', 'category'),
    ('omp_limited_parallelism', 'omp_idle_threads', 's', 'category'),
    ('visits', none, 'count', 'visits'),
    ('bytes', none, 'bytes', 'category'),
    ('bytes_p2p', 'bytes', 'bytes', 'category'),
    ('bytes_sent', 'bytes_p2p', 'bytes', 'count'),
    ('bytes_rcvd', 'bytes_p2p', 'bytes', 'count'),
    ('bytes_coll', 'bytes', 'bytes', 'category'),
    ('bytes_cout', 'bytes_coll', 'bytes', 'count'),
    ('bytes_cin', 'bytes_coll', 'bytes', 'count'),
    ('comms', none, 'count', 'category'),
    ('comms_p2p', 'comms', 'count', 'category'),
    ('comms_send', 'comms_p2p', 'count', 'count'),
    ('comms_recv', 'comms_p2p', 'count', 'count'),
    ('comms_coll', 'comms', 'count', 'category'),
    ('comms_cxch', 'comms_coll', 'count', 'count'),
    ('comms_csrc', 'comms_coll', 'count', 'count'),
    ('comms_cdst', 'comms_coll', 'count', 'count'),
    ('syncs', none, 'count', 'category'),
    ('syncs_p2p', 'syncs', 'count', 'category'),
    ('syncs_send', 'syncs_p2p', 'count', 'count'),
    ('syncs_recv', 'syncs_p2p', 'count', 'count'),
    ('syncs_coll', 'syncs', 'count', 'count')
] %}


{#- A call completing several requests (MPI_Waitall/any/some) counts only its
    largest wait, once. waits: a relation of one row per message with
    callpath_id, location_id, the completing call's Enter seq call_column,
    idle_s, and the columns named in carried; returns one row per completing
    call instance whose largest idle_s is positive, the carried columns taken
    from the message with that wait, and the number of messages it completed. -#}
{% macro largest_wait_per_call(waits, call_column, carried) -%}
select
    callpath_id,
    location_id,
    {{ call_column }},
    max(idle_s) as idle_s,
    {%- for column in carried %}
    arg_max({{ column }}, idle_s) as {{ column }},
    {%- endfor %}
    count(*) as messages
from {{ waits }}
group by callpath_id, location_id, {{ call_column }}
having max(idle_s) > 0
{%- endmacro %}


{#- A Scalasca collective or management wait-state metric: the rows of
    mpi_collective_wait_matches of that metric, summed per (call path,
    location) and over all processes (asl.sum_matches). Import with context. -#}
{% macro collective_metric(metric) -%}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('mpi_collective_wait_matches') ~ " where metric = '" ~ metric ~ "')", 'idle_s') }}
{%- endmacro %}
