{#---
kind: pattern
parent: null
unit: s
requires: [trace]
info: Scalasca Late Receiver instances - one per send-completing call that waited for a late receive.
description: |
  reference/wait-states.md, mpi_latereceiver: idle = E(Rreq) - E(Scmp) when
  L(Scmp) > E(Rreq), where Scmp is the call completing the send and Rreq the call
  that posted the receive (MPI_Recv, MPI_Sendrecv or MPI_Irecv). Counted when > 0.
  Scalasca 2.6 counts it only when Scmp is a blocking send (MPI_Send, MPI_Ssend),
  a single wait (MPI_Wait, MPI_Waitany) or a multiple wait (MPI_Waitall,
  MPI_Waitsome) completing an MPI_Isend; never for MPI_Sendrecv (a non-blocking
  send-receive to Scalasca), MPI_Bsend/MPI_Rsend, MPI_Test* or an MPI_Isend never
  completed. A multiple wait counts the largest idle over its sends, once, and only
  when it is no Late Sender candidate: none of the receives it completed had a
  positive late-sender wait (it has no row in mpi_latesender_matches). One row per
  send-completing call instance, attributed to it (callpath_id, location_id).
diagnosis: See mpi_latereceiver.
---#}
{% import 'templates/scalasca.sql' as scalasca %}
with messages as (
    select * from {{ ref('messages') }}
),

regions as (
    select * from {{ ref('regions') }}
),

late_senders as (
    select * from {{ ref('mpi_latesender_matches') }}
),

experiments as (
    select * from {{ ref('experiments') }}
),

-- Scalasca 2.6, src/pearl/base/Region.cpp (classify_mpi, on the name without "MPI_" in
-- lower case) and src/scout/Predicates.h: the calls that can complete a late-receiver
-- send. is_mpi_block_send: exactly a standard or synchronous blocking send (MPI_Send,
-- MPI_Ssend; MPI_Bsend/MPI_Rsend carry another mode, MPI_Isend the non-blocking mode);
-- is_mpi_wait_single: MPI_Wait, MPI_Waitany; is_mpi_wait_multi: MPI_Waitall,
-- MPI_Waitsome. MPI_Sendrecv[_replace] is classified cTYPE_MPI_SENDRECV |
-- cMODE_MPI_NONBLOCKING, so it is none of these (its receive half still counts for
-- Late Sender); so are MPI_Test* and an MPI_Isend that completes itself (no completion).
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
    join regions as r on r.region_id = m.send_complete_call_region_id
    where m.send_seq is not null and m.recv_seq is not null
),

-- Scalasca 2.6, src/scout/generator/MPI.pattern, MPI_LATESENDER "POST_RECV"
-- (Patterns_gen.cpp, PatternMPI_LateSender::post_recv__cb): a multiple wait becomes a
-- Late Sender candidate (LATE_SENDER_CANDIDATE) as soon as one receive it completes has
-- idle = min(E(S), L(R)) - E(R) > 0 (MPI_Test* excluded) - exactly the receive-completing
-- calls of mpi_latesender_matches (one row each, largest idle > 0).
ls_candidates as (
    select distinct location_id, recv_call_enter_seq as call_enter_seq
    from late_senders
),

waits as (
    select
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
    cross join experiments as x
    left join ls_candidates as c
        on c.location_id = s.send_location_id
        and c.call_enter_seq = s.send_complete_call_enter_seq
    -- Scalasca 2.6, MPI.pattern, MPI_LATERECEIVER "POST_SEND"
    -- (PatternMPI_LateReceiver::post_send_bws_cb): idle = 0 when L(Scmp) <= E(Rreq),
    -- else E(Rreq) - E(Scmp); counted per send for is_mpi_block_send / is_mpi_wait_single,
    -- once per call (its largest idle) for is_mpi_wait_multi, for no other call.
    where s.send_complete_kind is not null
        and s.send_complete_call_leave_time > s.recv_post_call_enter_time
        -- Scalasca 2.6, MPI.pattern, MPI_LATERECEIVER "MPI_SEND_COMPLETE"
        -- (PatternMPI_LateReceiver::mpi_send_complete_bws_cb): a multiple wait enters
        -- the multi-wait map only if it is not in m_ls_set (no Late Sender candidate);
        -- "POST_SEND" then keeps the largest idle over its sends and reports it once.
        and not (s.send_complete_kind = 'wait_multi' and c.call_enter_seq is not null)
)

{{ scalasca.largest_wait_per_call('waits', 'send_complete_call_enter_seq',
                                   ['send_complete_kind', 'recv_location_id', 'recv_seq', 'send_seq']) }}
