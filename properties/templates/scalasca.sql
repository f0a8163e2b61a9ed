{#- Rules shared by Scalasca's wait-state metrics (reference/wait-states.md).
    Import with: {% import 'templates/scalasca.sql' as scalasca with context %} -#}

{#- The roots of Scalasca's metric tree (metric_tree, time_cube). -#}
{% set metric_roots = ['time', 'visits', 'bytes', 'comms', 'syncs', 'critical_path', 'performance_impact',
                       'imbalance', 'delay', 'waitstates_propagating_vs_terminal', 'waitstates_direct_vs_indirect'] %}

{#- A Scalasca collective or management wait-state metric: the rows of
    mpi_collective_wait_matches of that metric, summed per (call path,
    location) and over all processes (asl.sum_matches). Import with context. -#}
{% macro collective_metric(metric) -%}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('mpi_collective_wait_matches') ~ " where metric = '" ~ metric ~ "')",
                   'idle_s') }}
{%- endmacro %}


{#- A Scalasca root-cause metric (delay costs, wait-state classes): the rows of
    root_cause_matches of that metric, summed per (call path, location) and over
    all processes (asl.sum_matches). Import with context. -#}
{% macro root_cause_metric(metric) -%}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select * from ' ~ ref('root_cause_matches') ~ " where metric = '" ~ metric ~ "')",
                   'value_s') }}
{%- endmacro %}
