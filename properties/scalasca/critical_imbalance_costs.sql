{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, imbalance_impact_s: DOUBLE, inter_partition_s: DOUBLE}
info: The critical path's imbalance costs per (call path, location on the path).
description: |
  Scalasca 2.6 (CriticalPath.pattern, CRITICAL_IMBALANCE_IMPACT and
  INTER_PARTITION_IMBALANCE; Böhme's thesis, p. 83-84, Eq. 1-2), over
  critical_path_profile (lcp = on_path_s, gcp = path_s, lt = local_s):
  imbalance_impact_s: per location l, f_l = (sum gcp - sum lt_l) / sum max(gcp -
  lt_l, 0) (the location's waiting, spread over the call paths where it falls short
  of the path); global(c) = sum over l of max(gcp(c) - lt_l(c), 0) * f_l; the value
  is (lcp / gcp) * global(c). inter_partition_s: the headroom of call paths a
  location does not execute: hr_l(c) = gcp(c) where lt_l(c) = 0, f_l = (sum gcp -
  sum over lt_l > 0 of max(lt_l, gcp)) / sum hr_l, the value (lcp / gcp) * sum over
  l of hr_l(c) * f_l. IEEE arithmetic as Scalasca's: a location with nothing to
  spread over (a zero denominator) makes every global cost NaN, and a NaN value is
  no value (NULL). Rows: the call paths with lcp > 0 of each location on the path.
diagnosis: Not a problem by itself; see critical_imbalance_impact.
---#}
with profile as (
    select * from {{ ref('critical_path_profile') }}
),

per_location as (
    select
        location_id,
        (sum(path_s) - sum(local_s)) / sum(greatest(path_s - local_s, 0)) as impact_factor,
        (sum(path_s) - sum(case when local_s > 0 then greatest(local_s, path_s) else 0 end))
        / sum(case when local_s > 0 then 0 else path_s end) as headroom_factor
    from profile
    group by all
),

global as (
    select
        p.callpath_id,
        sum(greatest(p.path_s - p.local_s, 0) * f.impact_factor) as impact_s,
        sum((case when p.local_s > 0 then 0 else p.path_s end) * f.headroom_factor) as headroom_s
    from profile as p
    join per_location as f using (location_id)
    group by all
),

shares as (
    select
        p.callpath_id,
        p.location_id,
        p.on_path_s / p.path_s * g.impact_s as impact_s,
        p.on_path_s / p.path_s * g.headroom_s as headroom_s
    from profile as p
    join global as g using (callpath_id)
    where p.on_path_s > 0
)

select
    callpath_id,
    location_id,
    case when not isnan(impact_s) and impact_s > 0 then impact_s end as imbalance_impact_s,
    case when not isnan(headroom_s) and headroom_s > 0 then headroom_s end as inter_partition_s
from shares
