-- Scalasca's Late Sender wait states (docs/wait-states.md, mpi_latesender):
-- one row per call completing a receive (MPI_Recv, MPI_Wait*, MPI_Sendrecv, ...)
-- that waited for a send that started late.
--
-- For a message with send event S and receive event R:
--     idle = min(E(S), L(R)) - E(R)
-- E(R) / L(R) the Enter / Leave of the call completing the receive, E(S) the
-- Enter of the call holding the send. Never counted when the receive completes
-- in MPI_Test*. A call completing several messages (MPI_Waitall/any/some) counts
-- only its largest idle, once; a clock-condition violation gives idle <= 0 and
-- is not counted.
--
-- Columns: callpath_id / location_id of the completing call, recv_call_enter_seq
-- (the call instance), idle_s (> 0, seconds), and from the message with that
-- largest wait recv_call (the completing call's name), send_location_id,
-- send_seq, send_time, recv_seq; messages: how many messages the call completed.
-- Read by the Scalasca pattern mpi_latesender_matches.
{{ config(materialized='table') }}
with messages as (
    select * from {{ ref('messages') }}
    where send_seq is not null and recv_seq is not null
),

regions as (
    select experiment_id, region_id, name from {{ ref('regions') }}
),

experiments as (
    select experiment_id, timer_resolution from {{ ref('experiments') }}
),

waits as (
    select
        m.experiment_id,
        m.recv_call_callpath_id as callpath_id,
        m.recv_location_id as location_id,
        m.recv_call_enter_seq,
        r.name as recv_call,
        m.send_location_id,
        m.send_seq,
        m.send_time,
        m.recv_seq,
        (least(m.send_call_enter_time, m.recv_call_leave_time)::bigint - m.recv_call_enter_time::bigint)
            / x.timer_resolution as idle_s
    from messages as m
    join experiments as x using (experiment_id)
    join regions as r
        on m.experiment_id = r.experiment_id and m.recv_call_region_id = r.region_id
    where r.name not like 'MPI\_Test%' escape '\'
)

-- the largest wait of each completing call instance, once
select
    experiment_id,
    callpath_id,
    location_id,
    recv_call_enter_seq,
    max(idle_s) as idle_s,
    arg_max(recv_call, idle_s) as recv_call,
    arg_max(send_location_id, idle_s) as send_location_id,
    arg_max(send_seq, idle_s) as send_seq,
    arg_max(send_time, idle_s) as send_time,
    arg_max(recv_seq, idle_s) as recv_seq,
    count(*) as messages
from waits
group by experiment_id, callpath_id, location_id, recv_call_enter_seq
having max(idle_s) > 0
