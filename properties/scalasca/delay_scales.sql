{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {location_id: BIGINT, point_index: BIGINT, class: VARCHAR, delays_s: DOUBLE, denominator_s: DOUBLE,
          scale: DOUBLE}
info: Per wait state how its waiting time divides over the delays and the waits of its delayer.
description: |
  Scalasca 2.6 (Delay.MPI.pattern, MpiDelayOps.cpp, OmpDelayOps.cpp): for every resolution of
  delay_resolutions, delays_s = the sum of its delay_shares; denominator_s =
  delays_s + delayer_waits_s (the waits in the delayer's interval, which share
  the blame); scale, the fraction of a delay charged as short-term cost: on
  point-to-point waits min(wait_s / denominator_s, 1), on collectives and OpenMP barriers
  wait_s / denominator_s (not capped); 0 where denominator_s is 0.
diagnosis: Not a problem by itself; the input of the delay costs.
---#}
with delays as (
    select location_id, point_index, sum(delay_s) as delays_s
    from {{ ref('delay_shares') }}
    group by all
),

denominators as (
    select r.location_id, r.point_index, r.class, r.wait_s, coalesce(d.delays_s, 0) as delays_s,
        coalesce(d.delays_s, 0) + r.delayer_waits_s as denominator_s
    from {{ ref('delay_resolutions') }} as r
    left join delays as d using (location_id, point_index)
)

select location_id, point_index, class, delays_s, denominator_s,
    case
        when not denominator_s > 0 then 0
        when class in ('latesender', 'latereceiver') then least(wait_s / denominator_s, 1)
        else wait_s / denominator_s
    end as scale
from denominators
