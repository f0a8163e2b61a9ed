-- Every region instance of instance_tree with the hash of its call path:
-- path_hash hashes the region ids from the root down, parent_hash is the
-- caller's path_hash (NULL at the top). Walks the call tree from the
-- top-level instances down, one level per step. The call-tree parent is the
-- caller on the same location, except for an OpenMP team thread's top-level
-- parallel-region instance: its parent is the instance that forked the team
-- (parallel_instances), so the team's threads share the master's call paths.
-- Columns: experiment_id, location_id, enter_seq (the instance), region_id,
-- path_hash, parent_hash.
{{ config(materialized='table', partitioned=true) }}
with recursive team_roots as (
    select i.experiment_id, i.location_id, i.enter_seq, i.region_id, p.fork_location_id, p.parent_seq
    from {{ ref('instance_tree') }} as i
    join {{ ref('parallel_instances') }} as p using (experiment_id, location_id, enter_seq)
    where i.caller_seq is null and p.parent_seq is not null
),

-- every instance below another, keyed by its call-tree parent; only the
-- columns the walk needs, read once
children as materialized (
    select experiment_id, location_id, enter_seq, region_id, location_id as parent_location_id, caller_seq as parent_seq
    from {{ ref('instance_tree') }}
    where caller_seq is not null

    union all

    select * from team_roots
),

paths as (
    select
        i.experiment_id,
        i.location_id,
        i.enter_seq,
        i.region_id,
        hash(i.region_id) as path_hash,
        null::ubigint as parent_hash
    from {{ ref('instance_tree') }} as i
    anti join team_roots as t using (experiment_id, location_id, enter_seq)
    where i.caller_seq is null

    union all

    select
        child.experiment_id,
        child.location_id,
        child.enter_seq,
        child.region_id,
        hash(parent.path_hash, child.region_id) as path_hash,
        parent.path_hash as parent_hash
    from children as child
    join paths as parent
        on child.experiment_id = parent.experiment_id
        and child.parent_location_id = parent.location_id
        and child.parent_seq = parent.enter_seq
)

select * from paths
