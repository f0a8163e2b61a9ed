{#---
kind: pattern
parent: receive_matches
unit: s
requires: [trace]
added_columns: {idle_s: DOUBLE}
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
