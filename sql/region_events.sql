-- The Enter and Leave events of every location with their nesting level: the
-- region stack R^l of the CRE report (§4.1, Fig. 11) as one number per event.
--
-- region_event: 'ENTER' / 'LEAVE' for Enter and Leave records, and for the
-- ProgramBegin / ProgramEnd records, which enter and leave the program's
-- artificial root region (the region whose canonical name is the program
-- name; Score-P and Scalasca root every call path there).
-- level: for an Enter the stack depth after it (1 = outermost), for a Leave
-- the level of the instance it closes (depth before it). A Leave at level
-- <= 0 closes nothing (sql/checks/unbalanced_regions.sql reports it).
{{ config(materialized='table') }}
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
        case when e.type in ('ENTER', 'PROGRAM_BEGIN') then 'ENTER' else 'LEAVE' end as region_event,
        case
            when e.type in ('PROGRAM_BEGIN', 'PROGRAM_END') then p.region_id
            else e.region_id
        end as region_id
    from {{ ref('events') }} as e
    left join program_regions as p on e.experiment_id = p.experiment_id
    where e.type in ('ENTER', 'LEAVE')
        or (e.type in ('PROGRAM_BEGIN', 'PROGRAM_END') and p.region_id is not null)
)

select
    *,
    sum(case region_event when 'ENTER' then 1 else -1 end) over (
        partition by experiment_id, location_id
        order by seq rows unbounded preceding
    ) + (region_event = 'LEAVE')::int as level
from marked
