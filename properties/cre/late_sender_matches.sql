{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, recv_seq: BIGINT, recv_time: UBIGINT,
  send_location_id: BIGINT, send_seq: BIGINT, send_time: UBIGINT, send_callpath_id: BIGINT,
  comm_id: INTEGER, tag: BIGINT, recv_call: VARCHAR, recv_call_enter_seq: BIGINT,
  send_call: VARCHAR, recv_call_enter_time: UBIGINT, recv_call_leave_time: UBIGINT,
  send_call_enter_time: UBIGINT, send_call_leave_time: UBIGINT, ls_idle_s: DOUBLE,
  lr_idle_s: DOUBLE, calls_s: DOUBLE, idle_s: DOUBLE}
info: Matches of the CRE pattern LateSender(r) - a receive waiting in MPI_Recv for a later MPI_Send.
description: |
  CRE report §6 / ASL §3.3.6, pattern LateSender(r) = LatePartner<'>'>
  (templates/cre.sql): receive_matches with the CONSTRAINT EnterRecv is MPI_Recv,
  EnterSend is MPI_Send and EnterSend.time > EnterRecv.time; EXPORT idle_s = EnterSend.time - EnterRecv.time.
  Attributed to the receiving call (callpath_id, location_id of the receiver).
diagnosis: See late_sender.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/cre.sql' as cre with context %}
select *, ls_idle_s as idle_s
from ({{ cre.late_partner('>') }})
