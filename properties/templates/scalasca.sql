{#- Rules shared by Scalasca's wait-state metrics (reference/wait-states.md).
    Import with: {% import 'templates/scalasca.sql' as scalasca with context %} -#}

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
