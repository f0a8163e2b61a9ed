{#---
kind: pattern
parent: late_receiver_matches
unit: s
requires: [trace]
info: Late Receiver matches whose message overtook an older one from the same sender.
description: |
  CRE report §8, pattern WrongOrderLr(r): the matches of LateReceiver(r) that are also
  matches of WrongOrder(r). Refines late_receiver_matches by that filter.
  Forms: those of late_receiver_matches - an MPI_Send whose message an MPI_Recv
  receives, the seed's LateReceiver constraint (MPI_SEND, MPI_RECV), which cosydb's CRE
  LateReceiver keeps. CRE §8.2.3 defines WrongOrderLr as a specialisation of
  LateReceiver, so a wrong-order message of another form (MPI_Ssend/Bsend/Rsend,
  MPI_Isend + MPI_Wait*, MPI_Irecv, MPI_Sendrecv) has no LateReceiver match to refine
  and is not a match here; its cost is in wrong_order_matches / messages_in_wrong_order
  (every form). As a filter of late_receiver_matches this pattern covers whatever forms
  that one does.
diagnosis: See wrong_order_lr.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
with late_receiver_matches as (
    select * from {{ ref('late_receiver_matches') }}
),

wrong_order_matches as (
    select location_id as recv_location_id, recv_seq from {{ ref('wrong_order_matches') }}
)

select *
from late_receiver_matches
semi join wrong_order_matches using (recv_location_id, recv_seq)
