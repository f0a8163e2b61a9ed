-- Nesting level of every event on its location, and the Enter of the region
-- instance at that level.
--
-- region_event: 'ENTER' / 'LEAVE' for Enter and Leave records, and for the
-- ProgramBegin / ProgramEnd records, which enter and leave the program's
-- artificial root region (the region whose canonical name is the program
-- name; Score-P and Scalasca root every call path there); NULL otherwise.
-- level: Enter = depth after entering (its own level); Leave = the level of
-- the instance it closes; any other event = depth of the innermost open
-- instance (0 when outside every region).
-- own_enter_seq: the Enter at that level: itself for an Enter, the matching
-- Enter for a Leave, the enclosing Enter for every other event.
-- open_after: the innermost instance still open after the event, i.e. the
-- latest Enter at level depth_after (an earlier Enter at that level would
-- have been closed, lowering the depth, before the level was reached again).
with program_regions as (
    select b.experiment_id, min(r.region_id) as region_id
    from {{ ref('events') }} as b
    join {{ ref('strings') }} as s
        on b.experiment_id = s.experiment_id and b.string_id = s.string_id
    join {{ ref('regions') }} as r
        on s.experiment_id = r.experiment_id and s.text = r.canonical_name
    where b.type = 'PROGRAM_BEGIN' and r.role = 'ARTIFICIAL'
    group by b.experiment_id
),

marked as (
    select
        e.experiment_id,
        e.location_id,
        e.seq,
        e.time,
        e.type,
        case
            when e.type = 'ENTER' then 'ENTER'
            when e.type = 'LEAVE' then 'LEAVE'
            when e.type = 'PROGRAM_BEGIN' and p.region_id is not null then 'ENTER'
            when e.type = 'PROGRAM_END' and p.region_id is not null then 'LEAVE'
        end as region_event,
        case
            when e.type in ('PROGRAM_BEGIN', 'PROGRAM_END') then p.region_id
            else e.region_id
        end as region_id
    from {{ ref('events') }} as e
    left join program_regions as p on e.experiment_id = p.experiment_id
),

depth as (
    select
        *,
        sum(case region_event when 'ENTER' then 1 when 'LEAVE' then -1 else 0 end) over (
            partition by experiment_id, location_id
            order by seq rows unbounded preceding
        ) as depth_after
    from marked
),

leveled as (
    select
        *,
        depth_after + (region_event = 'LEAVE')::int as level
    from depth
)

select
    experiment_id,
    location_id,
    seq,
    time,
    type,
    region_event,
    region_id,
    level,
    depth_after,
    last_value(case when region_event = 'ENTER' then seq end ignore nulls) over (
        partition by experiment_id, location_id, level
        order by seq rows unbounded preceding
    ) as own_enter_seq,
    last_value(case when region_event = 'ENTER' then seq end ignore nulls) over (
        partition by experiment_id, location_id, depth_after
        order by seq rows unbounded preceding
    ) as open_after
from leveled
