-- sendptr (CRE report §4.1, Fig. 15) as a table of messages: every receive
-- event matched to its send event by (experiment, communicator, source
-- location, destination location, tag), the k-th send with the k-th receive
-- (MPI's non-overtaking rule, FIFO). Ranks in message records are
-- communicator ranks; they are translated to locations through the
-- communicator's group (on MPI_COMM_SELF the partner is the location itself).
--
-- send_*: the send event (MPI_SEND / MPI_ISEND) and the call containing it;
-- send_complete_*: the event completing the send and its call (the send
-- itself for MPI_SEND, the MPI_ISEND_COMPLETE in a Wait/Test for MPI_ISEND);
-- recv_*: the receive event (MPI_RECV / MPI_IRECV) and the call completing it
-- (MPI_Recv, MPI_Wait*, MPI_Test*, ...); recv_post_*: the call that posted
-- the receive (MPI_Recv itself, or the MPI_Irecv holding MPI_IRECV_REQUEST).
-- A send without receive has NULL recv_* columns and vice versa.
-- *_call_enter_seq: seq of the call's Enter (identifies the call instance).
-- Times: *_time raw ticks, *_s seconds since the global offset.
-- Built on p2p_events, which prepares each side on its own location. Computed
-- in slices of (communicator, sender, receiver, tag), one per 3M p2p_events:
-- each holds its sends and receives in memory (one join of 5M with 5M spills).
{{ config(materialized='table', sliced_by='p2p_events') }}
{%- set call_columns = ['enter_seq', 'region_id', 'callpath_id', 'enter_time', 'leave_time'] %}
with sends as (
    select * from {{ ref('p2p_events') }}
    where type in ('MPI_SEND', 'MPI_ISEND')
        and {{ in_slice('comm_id, location_id, partner_location_id, tag') }}
),

receives as (
    select * from {{ ref('p2p_events') }}
    where type in ('MPI_RECV', 'MPI_IRECV')
        and {{ in_slice('comm_id, partner_location_id, location_id, tag') }}
),

clock as (
    select experiment_id, global_offset, timer_resolution
    from {{ ref('experiments') }}
),

matched as (
    select
        coalesce(s.experiment_id, r.experiment_id) as experiment_id,
        coalesce(s.comm_id, r.comm_id) as comm_id,
        coalesce(s.tag, r.tag) as tag,
        coalesce(s.location_id, r.partner_location_id) as send_location_id,
        coalesce(r.location_id, s.partner_location_id) as recv_location_id,
        s.msg_bytes as send_bytes,
        r.msg_bytes as recv_bytes,
        s.type as send_type,
        s.seq as send_seq,
        s.time as send_time,
        r.type as recv_type,
        r.seq as recv_seq,
        r.time as recv_time,
        {%- for col in call_columns %}
        s.call_{{ col }} as send_call_{{ col }},
        {%- endfor %}
        s.complete_seq as send_complete_seq,
        s.complete_time as send_complete_time,
        {%- for col in call_columns %}
        s.complete_call_{{ col }} as send_complete_call_{{ col }},
        {%- endfor %}
        {%- for col in call_columns %}
        r.call_{{ col }} as recv_call_{{ col }},
        {%- endfor %}
        r.post_seq as recv_post_seq,
        {%- for col in call_columns %}
        r.post_call_{{ col }} as recv_post_call_{{ col }}{{ ',' if not loop.last }}
        {%- endfor %}
    from sends as s
    full join receives as r
        on s.experiment_id = r.experiment_id
        and s.comm_id = r.comm_id
        and s.location_id = r.partner_location_id
        and s.partner_location_id = r.location_id
        and s.tag = r.tag
        and s.fifo_index = r.fifo_index
)

select
    m.*,
    {{ ref('ticks_to_s') }}(m.send_time, clock.global_offset, clock.timer_resolution) as send_s,
    {{ ref('ticks_to_s') }}(m.recv_time, clock.global_offset, clock.timer_resolution) as recv_s
from matched as m
join clock using (experiment_id)
