-- The Enter and Leave events of every location with their nesting level: the
-- region stack R^l of the CRE report (§4.1, Fig. 11) as one number per event.
--
-- region_event: 'ENTER' / 'LEAVE' for Enter and Leave records, and for the
-- ProgramBegin / ProgramEnd records, which enter and leave the program's
-- artificial root region (the region whose canonical name is the program
-- name; Score-P and Scalasca root every call path there).
-- level: for an Enter the stack depth after it (1 = outermost), for a Leave
-- the level of the instance it closes (depth before it). A Leave at level
-- <= 0 closes nothing (sql/data_checks/unbalanced_regions.sql reports it).
-- prev_enter_seq: the seq of the region event just before this one on its
-- location when that is an Enter, else NULL (for an Enter: its caller, the
-- instance it is the first callee of).
{{ config(materialized='table', partitioned=true) }}
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
        e.type in ('ENTER', 'PROGRAM_BEGIN') as is_enter,
        case
            when e.type in ('PROGRAM_BEGIN', 'PROGRAM_END') then p.region_id
            else e.region_id
        end as region_id
    from {{ ref('events') }} as e
    left join program_regions as p on e.experiment_id = p.experiment_id
    where e.type in ('ENTER', 'LEAVE')
        or (e.type in ('PROGRAM_BEGIN', 'PROGRAM_END') and p.region_id is not null)
),

-- The level from two counts instead of a running sum (DuckDB's row_number is
-- several times cheaper than a framed sum): at the n-th region event of a
-- location, the k-th of its kind, enters - leaves = 2k - n after an Enter
-- and n - 2k after a Leave.
counted as (
    select
        *,
        row_number() over by_location as n,
        row_number() over (partition by experiment_id, location_id, is_enter order by seq) as k,
        case when lag(is_enter) over by_location then lag(seq) over by_location end as prev_enter_seq
    from marked
    window by_location as (partition by experiment_id, location_id order by seq)
)

select
    experiment_id,
    location_id,
    seq,
    time,
    case when is_enter then 'ENTER' else 'LEAVE' end as region_event,
    region_id,
    case when is_enter then 2 * k - n else n - 2 * k + 1 end as level,
    prev_enter_seq
from counted
