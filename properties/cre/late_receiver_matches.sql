{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
added_columns: {recv_location_id: BIGINT, idle_s: DOUBLE}
info: Matches of the CRE pattern LateReceiver(r) - an MPI_Send still in progress when the late MPI_Recv starts.
description: |
  CRE report §6, pattern LateReceiver(r) = LatePartner<'<'> (templates/cre.sql):
  receive_matches with the CONSTRAINT EnterRecv is MPI_Recv, EnterSend is MPI_Send,
  EnterRecv.time > EnterSend.time and
  the send call still on the sender's region stack at EnterRecv (its Leave is later);
  EXPORT idle_s = EnterRecv.time - EnterSend.time. Attributed to the sending call
  (callpath_id, location_id of the sender). The trace cannot show whether the send
  really blocked (eager protocols return early), hence confidence medium.
diagnosis: See late_receiver.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/cre.sql' as cre with context %}
select
    send_callpath_id as callpath_id,  -- in place of the receive's (the first two columns)
    send_location_id as location_id,
    * exclude (callpath_id, location_id),
    location_id as recv_location_id,
    lr_idle_s as idle_s
from ({{ cre.late_partner('<') }})
where send_call_leave_time > recv_call_enter_time  -- the send is still on the sender's region stack
