{#---
kind: pattern
parent: mpi_latesender_matches
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, recv_call_enter_seq: BIGINT, idle_s: DOUBLE,
  recv_call: VARCHAR, send_location_id: BIGINT, send_seq: BIGINT, send_time: UBIGINT,
  recv_seq: BIGINT, messages: BIGINT, wo_recv_seq: BIGINT, wo_send_location_id: BIGINT,
  lswo_callpath_id: BIGINT, lswo_recv_seq: BIGINT, same_source: BOOLEAN}
info: Scalasca Late Sender instances caused by messages received in the wrong order.
description: |
  docs/wait-states.md, mpi_latesender_wo (Scalasca 2.6, MPI.pattern): every
  receiver remembers its recent late-sender instances (mpi_latesender_matches) in a
  buffer of 100; when the buffer is full the oldest is dropped. Each later receive R'
  whose send event S' is earlier than the send S_i of a remembered instance i
  (time(S') < time(S_i)) counts i's idle time once and removes i from the buffer.
  An instance is remembered from its receive event on (from the Leave of the call for
  MPI_Waitall/any/some, which report their largest wait at the Leave) and is checked
  against every later receive, including receives completed in MPI_Test*.
  One row per counted instance: its columns from mpi_latesender_matches plus the
  receive that revealed the wrong order (wo_recv_seq, wo_send_location_id).
  Attributed to the remembered receive's call path and location (mpi_latesender_wo).
  The split into mpi_lswo_same / mpi_lswo_different follows Scalasca 2.6 exactly
  (MPI.pattern, PatternMPI_LateSenderWO::POST_RECV notifies LATE_SENDER_WO once per
  instance it erases, in buffer order, after data->mLocal->add_event(it->m_recv,
  ROLE_RECV_LSWO); PatternMPI_LswoSame / PatternMPI_LswoDifferent read that role back
  with get_event): pearl's LocalData::add_event inserts into a std::map, which keeps
  an existing key, so within one receive event every instance after the first erased
  one still sees the FIRST erased instance's receive. Hence lswo_callpath_id (where
  the specializations file the instance's idle time) is the call path of the oldest
  instance revealed by the same receive R', and same_source compares that instance's
  source with R''s, both as MpiReceive_rep::getSource(), i.e. the sender's rank in
  the message's own communicator (not its location). Per (call path, location) the
  specializations therefore need not add up to mpi_latesender_wo: the rest is
  Scalasca's exclusive mpi_latesender_wo (positive where instances were moved away,
  negative where they were moved to).
  The buffer is evaluated without replaying it: instance i, still remembered at the
  push of instance j, is dropped there exactly when the instances pushed from i up to
  j that are not yet removed fill the buffer:
  W_i(j) = idx(j) - idx(i) - #{k : idx(i) < idx(k) < idx(j), k removed before j} >= 100.
diagnosis: |
  The receiver waits for a late message while an earlier-sent one is already there:
  receive messages in the order they are sent (e.g. MPI_Waitany over all partners).
params:
  p_ls_buffer_size: {default: 100, type: BIGINT, doc: "Late-sender instances a receiver remembers (Scalasca: 100)."}
---#}
{%- set probe = 8 %}
with late_senders as (
    select * from {{ ref('mpi_latesender_matches') }}
),

receive_matches as (
    select * from {{ ref('receive_matches') }}
),

-- Positions on the receiver's timeline: check of receive event seq at 2*seq; a
-- late-sender instance enters the buffer just before its own receive's check
-- (2*seq - 1), or, for a multi-completion wait, after the call's last receive
-- (2*last + 1), i.e. at the call's Leave.
last_receive_per_call as (
    select location_id, recv_call_enter_seq, max(recv_seq) as last_recv_seq
    from receive_matches
    group by all
),

pushes as (
    select
        s.*,
        case when s.recv_call in ('MPI_Waitall', 'MPI_Waitany', 'MPI_Waitsome')
            then 2 * c.last_recv_seq + 1
            else 2 * s.recv_seq - 1
        end as pos
    from late_senders as s
    join last_receive_per_call as c using (location_id, recv_call_enter_seq)
),

timeline as (
    select location_id, pos, send_time, true as is_push from pushes
    union all
    select location_id, 2 * recv_seq as pos, send_time, false as is_push from receive_matches
),

-- One pass over each receiver's timeline: push and check numbers, and the bounds
-- that say whether a push can ever be matched and whether a check can ever match.
-- The numbers count the pushes and checks up to and including a position (the
-- pushes of one multi-completion wait share a position and a number), from
-- count(*) - rank() + 1 over descending positions: several times cheaper in
-- DuckDB than running sums. Pushes (odd) and checks (even) never share a position.
scanned as (
    select
        *,
        count(*) over same_kind - rank() over same_kind_after + 1 as kind_index,
        count(*) over receiver - rank() over after_all + 1 as timeline_index,
        -- running frames only (a descending one for "after"): much faster than a frame
        -- reaching to the partition's end
        min(case when not is_push then send_time::bigint end) over after as later_min_check_send,
        max(case when is_push then send_time::bigint end) over before as earlier_max_push_send
    from timeline
    window
        receiver as (partition by location_id),
        same_kind as (partition by location_id, is_push),
        after_all as (partition by location_id order by pos desc),
        same_kind_after as (partition by location_id, is_push order by pos desc),
        after as (partition by location_id order by pos desc rows between unbounded preceding and 1 preceding),
        before as (partition by location_id order by pos rows between unbounded preceding and 1 preceding)
),

numbered as (
    select
        * exclude (kind_index, timeline_index),
        case when is_push then kind_index else timeline_index - kind_index end as push_index,
        case when is_push then timeline_index - kind_index else kind_index end as check_index
    from scanned
),

candidate_pushes as (
    select location_id, pos, send_time, push_index, check_index as checks_before
    from numbered
    where is_push and later_min_check_send < send_time
),

candidate_checks as (
    select location_id, pos, send_time, check_index, push_index as pushes_before
    from numbered
    where not is_push and earlier_max_push_send > send_time
),

-- The first later receive whose send is earlier. It is nearly always among the
-- next few receives: probe the next {{ probe }} checks by number (an equi-join) ...
probe_targets as (
    select p.*, p.checks_before + step.k as target_check_index
    from candidate_pushes as p
    cross join unnest(range(1, {{ probe + 1 }})) as step (k)
),

probe_pairs as (
    select p.location_id, p.pos, p.push_index, c.pos as check_pos, c.pushes_before
    from probe_targets as p
    join candidate_checks as c
        on p.location_id = c.location_id
        and p.target_check_index = c.check_index
    where c.send_time < p.send_time
),

-- ... and search the rest with an inequality join (row comparisons keep it on one location).
search_pairs as (
    select p.location_id, p.pos, p.push_index, c.pos as check_pos, c.pushes_before
    from (select * from candidate_pushes anti join probe_pairs using (location_id, pos)) as p
    join candidate_checks as c
        on (c.location_id, c.check_index) > (p.location_id, p.checks_before + {{ probe }})
        and (c.location_id, c.send_time) < (p.location_id, p.send_time)
),

first_wrong_order as (
    select
        location_id,
        pos,
        push_index,
        min(check_pos) as match_pos,
        arg_min(pushes_before, check_pos) as pushes_before_match
    from (select * from probe_pairs union all select * from search_pairs) as u
    group by all
),

all_pushes as (
    select location_id, pos, push_index from numbered where is_push
),

-- Matches that could have been dropped first: at least a buffer's worth of
-- pushes lies between push and match. Dropped at push j when W_i(j) >= size.
dropped as (
    select distinct f.location_id, f.pos
    from first_wrong_order as f
    join all_pushes as j
        on f.location_id = j.location_id
        and j.push_index >= f.push_index + $p_ls_buffer_size
        and f.match_pos > j.pos
    where f.pushes_before_match - f.push_index >= $p_ls_buffer_size
        and j.push_index - f.push_index - (
            select count(*)
            from first_wrong_order as k
            where k.location_id = f.location_id
                and k.push_index > f.push_index
                and k.push_index < j.push_index
                and k.match_pos < j.pos
        ) >= $p_ls_buffer_size
),

counted as (
    select f.*
    from first_wrong_order as f
    anti join dropped as d using (location_id, pos)
),

-- Scalasca 2.6 MPI.pattern, PatternMPI_LateSenderWO::POST_RECV walks the buffer from
-- its oldest entry; ROLE_RECV_LSWO keeps the first erased instance (LocalData::add_event
-- never overwrites a role), so the specializations see that instance for all of them.
first_revealed as (
    select location_id, match_pos, arg_min(pos, push_index) as first_pos
    from counted
    group by all
),

-- The receives each counted instance needs, joined two relations at a time: every
-- relation here shares location_id, and in one join of all of them DuckDB's join
-- order may pair the two reads of receive_matches (500k rows on minife-16-large) on
-- location_id alone. It did on a load of minife-16-large whose files held the same
-- rows in another order (other Parquet statistics): over 100 s, then out of memory,
-- where this takes 0.5 s. A materialized CTE is planned on its own.
-- The counted instance (the push) with R', the receive that revealed the wrong order
instances as materialized (
    select p.*, c.match_pos
    from counted as c
    join pushes as p using (location_id, pos)
),

revealed_by as materialized (
    select
        i.*,
        r.recv_seq as wo_recv_seq,
        r.send_location_id as wo_send_location_id,
        r.comm_id as wo_comm_id
    from instances as i
    join receive_matches as r on i.location_id = r.location_id and 2 * r.recv_seq = i.match_pos
),

-- per revealing receive its first revealed instance q and q's own receive R_q
first_instances as materialized (
    select fr.location_id, fr.match_pos, q.callpath_id, q.recv_seq
    from first_revealed as fr
    join pushes as q on fr.location_id = q.location_id and fr.first_pos = q.pos
),

first_receives as materialized (
    select f.*, qr.comm_id, qr.send_location_id
    from first_instances as f
    join receive_matches as qr on f.location_id = qr.location_id and f.recv_seq = qr.recv_seq
),

-- MpiReceive_rep::getSource(): the sender's rank in the message's communicator
-- (0 on MPI_COMM_SELF, which has no member rows)
comm_ranks as (
    select comm_id, location_id, comm_rank from {{ ref('communicator_members') }}
)

select
    w.* exclude (pos, match_pos, wo_recv_seq, wo_send_location_id, wo_comm_id),
    w.wo_recv_seq,
    w.wo_send_location_id,
    f.callpath_id as lswo_callpath_id,
    f.recv_seq as lswo_recv_seq,
    coalesce(qm.comm_rank, 0) = coalesce(rm.comm_rank, 0) as same_source
from revealed_by as w
join first_receives as f using (location_id, match_pos)
left join comm_ranks as rm on w.wo_comm_id = rm.comm_id and w.wo_send_location_id = rm.location_id
left join comm_ranks as qm on f.comm_id = qm.comm_id and f.send_location_id = qm.location_id
