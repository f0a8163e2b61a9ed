{#---
kind: pattern
parent: late_sender_matches
unit: s
requires: [trace]
info: Late Sender matches whose message overtook an older one from the same sender.
description: |
  CRE report §8, pattern WrongOrderLs(r): the matches of LateSender(r) that are also
  matches of WrongOrder(r) (an older message from the same sender still in the
  message queue at the receive). Refines late_sender_matches by that filter.
  Forms: those of late_sender_matches - an MPI_Recv whose message was sent by MPI_Send,
  the seed's LateSender constraint (enterptr(ROOT).region == MPI_RECV,
  enterptr(send_msg).region == MPI_SEND), which cosydb's CRE LateSender keeps. CRE
  §8.2.3 defines WrongOrderLs as a specialisation of LateSender, so a wrong-order
  receive of another form (MPI_Irecv completed in MPI_Wait*/Test*, MPI_Sendrecv, a
  message of MPI_Ssend/Bsend/Rsend/Isend) has no LateSender match to refine and is not
  a match here: its cost is in wrong_order_matches / messages_in_wrong_order (every
  form); Scalasca's mpi_latesender_wo measures wrong-order late-sender waits of every
  form by its own rule. As a filter of late_sender_matches this pattern covers
  whatever forms that one does.
diagnosis: See wrong_order_ls.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
with late_sender_matches as (
    select * from {{ ref('late_sender_matches') }}
),

wrong_order_matches as (
    select location_id, recv_seq from {{ ref('wrong_order_matches') }}
)

select *
from late_sender_matches
semi join wrong_order_matches using (location_id, recv_seq)
