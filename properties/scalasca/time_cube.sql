{#---
kind: pattern
parent: metric_tree
unit: s
requires: [trace]
columns: {metric: VARCHAR, parent: VARCHAR, unit: VARCHAR, callpath_id: BIGINT,
  location_id: BIGINT, inclusive: DOUBLE, exclusive: DOUBLE}
info: The severity cube (metric, call path, location) -> value over Scalasca's metric hierarchy.
description: |
  docs/wait-states.md, time hierarchy: every call path's time on a location in
  its leaf time category (time_leaves: comp, mpi_point2point, omp_ibarrier, ...,
  omp_management, and omp_idle_threads / omp_limited_parallelism beside execution
  under time for traces with OpenMP parallel regions). The message
  statistics are leaves too: bytes_sent / bytes_rcvd and comms_send / comms_recv
  (syncs_send / syncs_recv for zero-byte messages) at the sending / receiving call,
  bytes_cout / bytes_cin of collectives, and collective calls counted as comms_cxch
  (bytes out and in), comms_csrc (out only), comms_cdst (in only) or syncs_coll
  (barriers). A summed metric's value is the sum of its leaves' (a category with
  sums: children, such as performance_impact: of its sub-metrics'); a wait-state
  metric's value is its catalog property's per-location value (a part of its
  parent's time); visits counts executions. Columns: metric, parent, unit,
  callpath_id, location_id, inclusive (the metric with its sub-metrics, as Scalasca
  shows it) and exclusive (without them). Call paths stay exclusive (call-tree-wise).
diagnosis: Not a problem by itself; query it, or compare it with Scalasca's cube.
---#}
{%- import 'templates/scalasca.sql' as scalasca with context %}
{%- set metrics = catalog_tree(scalasca.metric_roots) %}
with tree as (
    select * from {{ ref('metric_tree') }}
),

-- every call path's time per location by its leaf time category, and its visits
leaf_time as (
    select * from {{ ref('time_leaves') }}
),

profile as (
    select callpath_id, location_id, executions
    from {{ ref('callpath_profile') }}
    where executions > 0
),

-- Scalasca's message statistics: point-to-point bytes and messages at the sending
-- and the receiving call (zero-byte messages are synchronisations), collective bytes
-- out / in, and collective calls as exchange (bytes out and in), source (only out),
-- destination (only in) or barrier synchronisation
p2p as (
    select * from {{ ref('messages') }}
),

collectives as (
    select * from {{ ref('collective_instances') }}
),

counts as (
    select 'bytes_sent' as metric, send_call_callpath_id as callpath_id, send_location_id as location_id,
        sum(send_bytes) as value
    from p2p where send_seq is not null group by all
    union all
    select 'bytes_rcvd', recv_call_callpath_id, recv_location_id, sum(recv_bytes)
    from p2p where recv_seq is not null group by all
    union all
    select case when send_bytes > 0 then 'comms_send' else 'syncs_send' end,
        send_call_callpath_id, send_location_id, count(*)
    from p2p where send_seq is not null group by all
    union all
    select case when recv_bytes > 0 then 'comms_recv' else 'syncs_recv' end,
        recv_call_callpath_id, recv_location_id, count(*)
    from p2p where recv_seq is not null group by all
    union all
    select 'bytes_cout', call_callpath_id, location_id, sum(bytes_sent) from collectives group by all
    union all
    select 'bytes_cin', call_callpath_id, location_id, sum(bytes_received) from collectives group by all
    union all
    select
        case
            when coll_op = 'BARRIER' then 'syncs_coll'
            when bytes_sent > 0 and bytes_received > 0 then 'comms_cxch'
            when bytes_sent > 0 then 'comms_csrc'
            else 'comms_cdst'
        end,
        call_callpath_id, location_id, count(*)
    from collectives
    where coll_op = 'BARRIER' or bytes_sent + bytes_received > 0
    group by all
),

leaves as (
    select metric, callpath_id, location_id, value from leaf_time
    union all
    select metric, callpath_id, location_id, value from counts where value <> 0
    union all
    select 'visits', callpath_id, location_id, executions::double from profile
),

-- every metric with the metrics above it (itself included): a leaf counts in each
-- category above it
metric_ancestors as (
    with recursive up (leaf, metric) as (
        select metric as leaf, metric from tree
        union all
        select up.leaf, t.parent
        from up
        join tree as t on up.metric = t.metric
        where t.parent is not null
    )

select * from up
),

categories as (
    select a.metric, l.callpath_id, l.location_id, sum(l.value) as inclusive
    from leaves as l
    join metric_ancestors as a on l.metric = a.leaf
    join tree as t on a.metric = t.metric
    where t.kind = 'category'
    group by all
),

-- the metrics that are catalog properties (wait states, critical-path metrics):
-- their rows per location
waits as (
    {%- for entry in metrics if entry.kind == 'property' and entry.evaluable %}
    select '{{ entry.name }}' as metric, callpath_id, location_id, value as inclusive
    from {{ ref(entry.name) }}
    where location_id is not null
    {{- '\n    union all' if not loop.last }}
    {%- endfor %}
),
{#- the properties a category that sums its sub-metrics (sums: children) adds up: its
    property children and, through its summing sub-categories, theirs #}
{%- macro summed_properties(category) -%}
    {%- for child in metrics if child.parent == category -%}
        {%- if child.kind == 'property' %} {{ child.name }}{% endif -%}
        {%- if child.sums_children %}{{ summed_properties(child.name) }}{% endif -%}
    {%- endfor -%}
{%- endmacro %}
{%- set members = [] %}
{%- for entry in metrics if entry.sums_children %}
    {%- for name in summed_properties(entry.name).split() %}
        {%- set _ = members.append((entry.name, name)) %}
    {%- endfor %}
{%- endfor %}

-- a category that sums its sub-metrics: the sum of its properties' values (one
-- aggregation for every such category, not one per category)
sums as (
    {%- if members %}
    select m.category as metric, w.callpath_id, w.location_id, sum(w.inclusive) as inclusive
    from waits as w
    join (values
        {%- for category, name in members %}
        ('{{ category }}', '{{ name }}'){{ ',' if not loop.last }}
        {%- endfor %}
    ) as m (category, property) on w.metric = m.property
    group by all
    {%- else %}
    select * from waits where false
    {%- endif %}
),

cube as (
    select * from categories
    union all
    select * from waits
    union all
    select * from sums
),

children as (
    select t.parent as metric, c.callpath_id, c.location_id, sum(c.inclusive) as inclusive
    from cube as c
    join tree as t using (metric)
    where t.parent is not null
    group by all
)

select
    c.metric,
    t.parent,
    t.unit,
    c.callpath_id,
    c.location_id,
    c.inclusive,
    c.inclusive - coalesce(k.inclusive, 0) as exclusive
from cube as c
join tree as t using (metric)
left join children as k using (metric, callpath_id, location_id)
