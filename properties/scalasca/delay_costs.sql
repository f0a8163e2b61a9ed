{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, point_index: BIGINT, class: VARCHAR, cost_s: DOUBLE}
info: Per wait state and class of original wait the waiting time it caused further on (Scalasca's delay cost maps).
description: |
  Scalasca 2.6 (src/scout/DelayCostMap.cpp; Delay.MPI.pattern and Delay.OMP.pattern,
  the *_LONGTERM patterns; Böhme et al., ICPP 2010, long-term costs). A wait w in the
  interval of a resolution r's delayer (delay_resolutions: group_from_index < w <
  delayer_index, w >= active_from_index, wait > 0) shares the blame for r's wait:
  cost_X(w) = sum over such r of class X of wait(w) * scale(r) (delay_scales: the
  short-term part) + sum over every such r of wait(w) / denominator(r) * cost_X(r)
  (the costs r itself carries on); a wait of an OpenMP master in a serial stretch
  starts with cost_ompidle = idle_threads * wait(w) besides (omp_idle_waits). Every
  edge runs backwards in happens-before order, so the system is solved by
  propagating from the last waits back, one link of the longest chain per step of a
  recursive query. Rows: every wait with a cost > 0 of some class X of original
  wait (latesender, latereceiver, barrier, n2n, 12n, n21, ompbarrier, ompidle).
diagnosis: Not a problem by itself; the input of the long-term delay costs.
---#}
{% import 'templates/scalasca.sql' as scalasca with context %}
with recursive points as (
    select location_id, point_index, wait_s from {{ ref('sync_points') }} where wait_s > 0
),

-- resolution r (the wait at location_id / point_index) -> wait w in its delayer's
-- interval: the interval's point indexes, joined to the waits
edges as (
    select
        r.location_id,
        r.point_index,
        r.class,
        w.location_id as cause_location_id,
        w.point_index as cause_index,
        w.wait_s / r.denominator_s as factor,
        w.wait_s * r.scale as own_class_s
    from (
        select
            r.location_id,
            r.point_index,
            s.class,
            s.denominator_s,
            s.scale,
            r.delayer_location_id,
            unnest(range(greatest(r.group_from_index + 1, r.active_from_index), r.delayer_index)) as cause_index
        from {{ ref('delay_resolutions') }} as r
        join {{ ref('delay_scales') }} as s using (location_id, point_index)
        where s.denominator_s > 0 and r.active_from_index is not null
    ) as r
    join points as w on r.delayer_location_id = w.location_id and r.cause_index = w.point_index
),

-- the costs each wait starts with: its share of the waits it is in the interval
-- of (own class), and on OpenMP master threads the idle threads' waiting along
-- its serial waits (omp_idle_waits)
seeds as (
    select class, cause_location_id as location_id, cause_index as point_index, own_class_s as cost_s
    from edges
    union all
    select 'ompidle', location_id, point_index, idle_threads * wait_s
    from {{ ref('omp_idle_waits') }}
),

{{ scalasca.propagated_costs('seeds', 'edges') }}

select location_id, point_index, class, sum(cost_s) as cost_s
from propagated
group by all
having sum(cost_s) > 0
