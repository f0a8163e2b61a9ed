-- Every (ancestor, descendant) pair of the call-path tree, a call path being
-- its own ancestor at distance 0. Used to sum a call path's subtree.
with recursive pairs as (
    select experiment_id, callpath_id as ancestor_id, callpath_id as descendant_id, 0 as distance
    from {{ ref('callpaths') }}

    union all

    select p.experiment_id, c.parent_id as ancestor_id, p.descendant_id, p.distance + 1
    from pairs as p
    join {{ ref('callpaths') }} as c
        on p.experiment_id = c.experiment_id and p.ancestor_id = c.callpath_id
    where c.parent_id is not null
)

select * from pairs
