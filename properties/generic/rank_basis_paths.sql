{#---
kind: pattern
parent: null
unit: s
columns: {callpath_id: BIGINT}
info: The call paths of the rank-basis region, the context of every severity's denominator.
description: |
  ASL §3.4.1.1 RankBasis: the call paths of the region named by --rank-basis
  ($p_rank_basis) that do not lie below another call path of the same region
  (recursion is not counted twice); without a rank basis, the program's root call
  paths (the whole run). One row per call path: callpath_id.
diagnosis: Not a problem; choose the rank basis (e.g. the solver loop) to rank problems against it.
---#}
with callpaths as (
    select * from {{ ref('callpaths') }}
),

regions as (
    select * from {{ ref('regions') }}
),

callpath_ancestors as (
    select * from {{ ref('callpath_ancestors') }}
),

named_paths as (
    select c.callpath_id, c.depth, r.name
    from callpaths as c
    join regions as r using (region_id)
)

select p.callpath_id
from named_paths as p
where case when $p_rank_basis is null then p.depth = 1 else p.name = $p_rank_basis end
    and not exists (
        select 1
        from callpath_ancestors as a
        join named_paths as up on a.ancestor_id = up.callpath_id
        where a.descendant_id = p.callpath_id and a.distance > 0 and up.name = p.name
    )
