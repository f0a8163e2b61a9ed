{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, recv_seq: BIGINT, recv_time: UBIGINT,
  send_location_id: BIGINT, send_seq: BIGINT, send_time: UBIGINT, send_callpath_id: BIGINT,
  comm_id: INTEGER, tag: BIGINT, recv_call: VARCHAR, recv_call_enter_seq: BIGINT,
  send_call: VARCHAR, recv_call_enter_time: UBIGINT, recv_call_leave_time: UBIGINT,
  send_call_enter_time: UBIGINT, send_call_leave_time: UBIGINT, ls_idle_s: DOUBLE,
  lr_idle_s: DOUBLE, calls_s: DOUBLE}
info: Every receive matched to its send (sendptr), with both calls - the general pattern the CRE patterns refine.
description: |
  CRE report §4-§6: ROOTTYPE Receive; INSTANTIATION SendMsg = sendptr(ROOT),
  EnterSend = enterptr(SendMsg), EnterRecv = enterptr(ROOT) (and their Exits);
  CONSTRAINT (if r is given) region r is on the receiver's region stack at ROOT,
  i.e. r is the receiving call or one of its callers. One row per match:
  callpath_id / location_id of the receiving call, recv_seq, recv_time, the send
  (send_location_id, send_seq, send_time, send_callpath_id), the names of both
  calls, the receiving call's Enter seq, both calls' Enter/Leave ticks, and the exported times in seconds:
  ls_idle_s = E(send) - E(recv), lr_idle_s = E(recv) - E(send),
  calls_s = duration of the send call + duration of the receive call.
diagnosis: Not a problem by itself; see the patterns that refine it.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r: only receives executed inside r."}
---#}
with messages as (
    select * from {{ ref('messages') }}
),

regions as (
    select * from {{ ref('regions') }}
),

callpaths as (
    select * from {{ ref('callpaths') }}
),

callpath_ancestors as (
    select * from {{ ref('callpath_ancestors') }}
),

experiments as (
    select * from {{ ref('experiments') }}
),

matched as (
    select *
    from messages
    where send_seq is not null and recv_seq is not null
),

-- region r on the region stack at the receive: the receiving call or a caller
in_focus as (
    select m.*
    from matched as m
    where $p_region is null or exists (
        select 1
        from callpath_ancestors as a
        join callpaths as c on a.ancestor_id = c.callpath_id
        join regions as r on c.region_id = r.region_id
        where a.descendant_id = m.recv_call_callpath_id and r.name = $p_region
    )
)

select
    f.recv_call_callpath_id as callpath_id,
    f.recv_location_id as location_id,
    f.recv_seq,
    f.recv_time,
    f.send_location_id,
    f.send_seq,
    f.send_time,
    f.send_call_callpath_id as send_callpath_id,
    f.comm_id,
    f.tag,
    recv_region.name as recv_call,
    f.recv_call_enter_seq,
    send_region.name as send_call,
    f.recv_call_enter_time,
    f.recv_call_leave_time,
    f.send_call_enter_time,
    f.send_call_leave_time,
    (f.send_call_enter_time::bigint - f.recv_call_enter_time::bigint) / x.timer_resolution as ls_idle_s,
    (f.recv_call_enter_time::bigint - f.send_call_enter_time::bigint) / x.timer_resolution as lr_idle_s,
    (f.send_call_leave_time::bigint - f.send_call_enter_time::bigint
        + f.recv_call_leave_time::bigint - f.recv_call_enter_time::bigint) / x.timer_resolution as calls_s
from in_focus as f
cross join experiments as x
left join regions as recv_region on f.recv_call_region_id = recv_region.region_id
left join regions as send_region on f.send_call_region_id = send_region.region_id
