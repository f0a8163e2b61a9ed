-- Every (ancestor, descendant) pair of the call-path tree, a call path being
-- its own ancestor at distance 0. Used to sum a call path's subtree. One row
-- per element of callpaths.ancestor_ids (the ancestor at depth k is element k).
select
    c.experiment_id,
    c.ancestor_ids[step.k] as ancestor_id,
    c.callpath_id as descendant_id,
    (c.depth - step.k)::integer as distance
from {{ ref('callpaths') }} as c
cross join unnest(range(1, c.depth + 1)) as step (k)
