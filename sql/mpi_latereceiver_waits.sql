-- Scalasca's Late Receiver wait states (docs/wait-states.md,
-- mpi_latereceiver): one row per call completing a send that waited for a
-- receive posted late.
--
-- For a message, with Scmp the call completing the send and Rreq the call that
-- posted the receive (MPI_Recv, MPI_Sendrecv or MPI_Irecv):
--     idle = E(Rreq) - E(Scmp)   when L(Scmp) > E(Rreq), counted when > 0.
-- As Scalasca 2.6 (src/pearl/base/Region.cpp classify_mpi, src/scout/
-- Predicates.h, MPI.pattern MPI_LATERECEIVER), only when Scmp is a blocking
-- send of standard or synchronous mode (MPI_Send, MPI_Ssend), a single wait
-- (MPI_Wait, MPI_Waitany) or a multiple wait (MPI_Waitall, MPI_Waitsome)
-- completing an MPI_Isend; never MPI_Sendrecv (a non-blocking send-receive to
-- Scalasca), MPI_Bsend / MPI_Rsend, MPI_Test* or an MPI_Isend never completed.
-- A multiple wait counts the largest idle over its sends, once, and only when it
-- is no Late Sender candidate (no row in mpi_latesender_waits).
--
-- Columns: callpath_id / location_id of the send-completing call,
-- send_complete_call_enter_seq (the call instance), idle_s (> 0, seconds), and
-- from the message with that largest wait send_complete_kind (block_send,
-- wait_single, wait_multi), recv_location_id, recv_seq, send_seq; messages: how
-- many of its sends the call completed with L(Scmp) > E(Rreq).
-- Read by the Scalasca pattern mpi_latereceiver_matches.
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

send_completions as (
    select
        m.*,
        case lower(r.name)
            when 'mpi_send' then 'block_send'
            when 'mpi_ssend' then 'block_send'
            when 'mpi_wait' then 'wait_single'
            when 'mpi_waitany' then 'wait_single'
            when 'mpi_waitall' then 'wait_multi'
            when 'mpi_waitsome' then 'wait_multi'
        end as send_complete_kind
    from messages as m
    join regions as r
        on m.experiment_id = r.experiment_id and m.send_complete_call_region_id = r.region_id
),

-- a call that completed a receive with a positive late-sender wait
ls_candidates as (
    select distinct experiment_id, location_id, recv_call_enter_seq as call_enter_seq
    from {{ ref('mpi_latesender_waits') }}
),

waits as (
    select
        s.experiment_id,
        s.send_complete_call_callpath_id as callpath_id,
        s.send_location_id as location_id,
        s.send_complete_call_enter_seq,
        s.send_complete_kind,
        s.recv_location_id,
        s.recv_seq,
        s.send_seq,
        (s.recv_post_call_enter_time::bigint - s.send_complete_call_enter_time::bigint)
            / x.timer_resolution as idle_s
    from send_completions as s
    join experiments as x using (experiment_id)
    left join ls_candidates as c
        on s.experiment_id = c.experiment_id
        and s.send_location_id = c.location_id
        and s.send_complete_call_enter_seq = c.call_enter_seq
    where s.send_complete_kind is not null
        and s.send_complete_call_leave_time > s.recv_post_call_enter_time
        and not (s.send_complete_kind = 'wait_multi' and c.call_enter_seq is not null)
)

-- the largest wait of each send-completing call instance, once
select
    experiment_id,
    callpath_id,
    location_id,
    send_complete_call_enter_seq,
    max(idle_s) as idle_s,
    arg_max(send_complete_kind, idle_s) as send_complete_kind,
    arg_max(recv_location_id, idle_s) as recv_location_id,
    arg_max(recv_seq, idle_s) as recv_seq,
    arg_max(send_seq, idle_s) as send_seq,
    count(*) as messages
from waits
group by experiment_id, callpath_id, location_id, send_complete_call_enter_seq
having max(idle_s) > 0
