{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {metric: VARCHAR, callpath_id: BIGINT, location_id: BIGINT, value_s: DOUBLE}
info: Scalasca's root-cause metrics of MPI and OpenMP wait states per (metric, call path, location).
description: |
  Scalasca 2.6 (Delay.MPI.pattern, Delay.OMP.pattern, Waitstates.MPI.pattern;
  remapping.spec for the derived ones), over delay_resolutions, delay_shares,
  delay_scales and delay_costs: delay_<class> (short-term cost: scale * delay_s at
  the delayer's call path and location) and delay_<class>_longterm
  (cost_X(wait) / denominator_s * delay_s for every class X of original wait that
  carries a cost), for the classes latesender, latereceiver, barrier, n2n, 12n,
  n21, ompbarrier (long-term also ompidle); delay_ompidle (per serial stretch of an
  OpenMP master, omp_idle_segments: its time per call path since the previous
  ThreadJoin less its waits, omp_idle_waits, where > 0, times the idle threads);
  mpi_wait_indirect_latesender / _latereceiver (scale * delayer_waits_s at the
  waiting call: the part of a point-to-point wait its delayer's own waiting
  explains); mpi_wait_propagating_ls / _lr (per Late Sender / Late Receiver wait
  w: the largest scale * wait(w) over the point-to-point resolutions with waits in
  whose delayer interval w lies); mpi_wait_terminal_ls / _lr and
  mpi_wait_direct_latesender / _latereceiver (the wait less its propagating /
  indirect part; the wait is the Late Sender or Late Receiver time including
  Wrong Order).
diagnosis: Not a problem by itself; see the delay_* and mpi_wait_* metrics.
---#}
with resolutions as (
    select r.*, s.delays_s, s.denominator_s, s.scale
    from {{ ref('delay_resolutions') }} as r
    join {{ ref('delay_scales') }} as s using (location_id, point_index)
),

point_to_point as (
    select * from resolutions where class in ('latesender', 'latereceiver')
),

waits as (
    select location_id, point_index, kind, callpath_id, wait_s
    from {{ ref('sync_points') }}
    where wait_s > 0
),

-- each wait's factors on its delay shares: the short-term scale of its own class, and per
-- class X of original wait that it carries a cost of, cost_X / denominator_s (long term)
factors as (
    select location_id, point_index, 'delay_' || class as metric, scale as factor
    from resolutions
    union all
    select r.location_id, r.point_index, 'delay_' || c.class || '_longterm', c.cost_s / r.denominator_s
    from resolutions as r
    join {{ ref('delay_costs') }} as c using (location_id, point_index)
    where r.denominator_s > 0
),

-- short and long term in one join with the delay shares (the largest table read here)
delays as (
    select f.metric, d.callpath_id, d.delayer_location_id as location_id, f.factor * d.delay_s as value_s
    from factors as f
    join {{ ref('delay_shares') }} as d using (location_id, point_index)
),

-- OpenMP idle threads (Delay.OMP.pattern, OMP_MGMT_FORK): each serial stretch of
-- a master charges its time since the previous ThreadJoin, less its waits, per
-- call path (kept where > 0), times the number of idle threads
idle_times as (
    select s.location_id, s.from_index, i.callpath_id, sum(i.amount_s) as time_s
    from {{ ref('time_increments') }} as i
    semi join {{ ref('omp_idle_segments') }} as m using (location_id)
    asof join (
        select *, coalesce(to_split, 9223372036854775807) as until_split from {{ ref('omp_idle_segments') }}
    ) as s
        on i.location_id = s.location_id
        and i.pos < s.until_split
    where i.pos > s.from_pos
    group by all
),

idle_waits as (
    select location_id, from_index, callpath_id, sum(wait_s) as wait_s
    from {{ ref('omp_idle_waits') }}
    group by all
),

omp_idle as (
    select 'delay_ompidle' as metric, t.callpath_id, t.location_id, s.idle_threads * (t.time_s - coalesce(w.wait_s, 0))
    from idle_times as t
    join {{ ref('omp_idle_segments') }} as s using (location_id, from_index)
    left join idle_waits as w using (location_id, from_index, callpath_id)
    where t.time_s - coalesce(w.wait_s, 0) > 0
),

indirect as (
    select location_id, point_index, class, callpath_id, scale * delayer_waits_s as indirect_s
    from point_to_point
    where delayer_waits_s > 0
),

-- Waitstates.MPI.pattern: a wait propagates as far as the largest share of it any
-- later point-to-point wait puts on it
propagating as (
    select w.location_id, w.point_index, max(r.scale * w.wait_s) as propagating_s
    from (
        select
            scale,
            delayer_location_id,
            unnest(range(delayer_from_index + 1, delayer_index)) as cause_index
        from point_to_point
        where delayer_waits_s > 0 and scale > 0
    ) as r
    join waits as w on r.delayer_location_id = w.location_id and r.cause_index = w.point_index
    group by all
),

point_to_point_waits as (
    select
        w.location_id,
        w.callpath_id,
        case w.kind when 'LS' then 'ls' else 'lr' end as short_name,
        case w.kind when 'LS' then 'latesender' else 'latereceiver' end as class,
        w.wait_s,
        coalesce(p.propagating_s, 0) as propagating_s,
        coalesce(i.indirect_s, 0) as indirect_s
    from waits as w
    left join propagating as p using (location_id, point_index)
    left join indirect as i using (location_id, point_index)
    where w.kind in ('LS', 'LR')
)

-- summed per (metric, call path, location): one row per cell
select metric, callpath_id, location_id, sum(value_s) as value_s
from (
    select * from delays
    union all
    select * from omp_idle
    union all
    select 'mpi_wait_indirect_' || class, callpath_id, location_id, indirect_s from point_to_point_waits
    where indirect_s > 0
    union all
    select 'mpi_wait_propagating_' || short_name, callpath_id, location_id, propagating_s from point_to_point_waits
    where propagating_s > 0
    union all
    select 'mpi_wait_terminal_' || short_name, callpath_id, location_id, wait_s - propagating_s
    from point_to_point_waits
    union all
    select 'mpi_wait_direct_' || class, callpath_id, location_id, wait_s - indirect_s from point_to_point_waits
) as cells
group by all
