-- The call path of every region instance, as a hash of the region ids from the
-- root down (path_hash) and the hash of its caller's path (parent_hash).
-- Walks the call tree from the top-level instances down, one level per step.
with recursive paths as (
    select
        experiment_id,
        location_id,
        enter_seq,
        region_id,
        hash(region_id) as path_hash,
        null::ubigint as parent_hash
    from {{ ref('instance_tree') }}
    where caller_seq is null

    union all

    select
        child.experiment_id,
        child.location_id,
        child.enter_seq,
        child.region_id,
        hash(parent.path_hash, child.region_id) as path_hash,
        parent.path_hash as parent_hash
    from {{ ref('instance_tree') }} as child
    join paths as parent
        on child.experiment_id = parent.experiment_id
        and child.location_id = parent.location_id
        and child.caller_seq = parent.enter_seq
)

select * from paths
