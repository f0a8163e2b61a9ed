{#- Time charged to threads. Import with: {% import 'templates/threads.sql' as threads with context %} -#}

{#- Per CPU location (and per row of ``keys``, by column ``key``) its time: ``value`` of its
    rows in relation ``own`` (columns location_id, ``key``, ``value``). A thread without
    rows of its own (an OpenMP worker, whose parallel regions hang below its master's call
    paths) counts the time of its process's thread that has them, as Scalasca's cube counts
    a worker: it works or idles below the master's call paths. Columns: ``key``,
    location_id, time_s (0 where neither has time). -#}
{% macro time_per_thread(own, value, keys=none, key=none) -%}
select
    {%- if key %}
    k.{{ key }},
    {%- endif %}
    l.location_id,
    -- a worker without rows of its own: its process's thread that has them
    coalesce(
        o.{{ value }},
        max(o.{{ value }}) over (partition by {% if key %}k.{{ key }}, {% endif %}l.location_group_id),
        0
    ) as time_s
from {% if key %}{{ keys }} as k cross join {% endif %}{{ ref('locations') }} as l
left join {{ own }} as o
    on l.location_id = o.location_id{% if key %} and k.{{ key }} = o.{{ key }}{% endif %}
where l.location_type = 'CPU_THREAD'
{%- endmacro %}
