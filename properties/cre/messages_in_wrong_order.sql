{#---
kind: property
parent: comm_cost
unit: s
wait_state: true
requires: [trace]
info: Time in the send and receive calls of messages received out of send order.
description: |
  ASL §3.4.1.15 MessagesInWrongOrder: Cost = SUM(cost_s) over PATTERN_MATCHES(WrongOrder(r))
  (wrong_order_matches), per receive call path and location where it has matches, and over
  all processes for every point-to-point call path (MPIp2pFunc: 0 where none).
  CONDITION Cost > 0, CONFIDENCE 1, SEVERITY Cost / Duration(RankBasis, e).
  Every blocking and non-blocking form: messages of MPI_Send/Ssend/Bsend/Rsend,
  MPI_Isend (+ Wait*) and MPI_Sendrecv, received by MPI_Recv, MPI_Irecv (+ Wait*/Test*,
  the completing call being the receive call) or MPI_Sendrecv; a call completing
  several wrong-order messages counts its duration once.
diagnosis: Receive messages in the order they are sent, or receive with MPI_ANY_SOURCE/MPI_Waitany.
params:
  p_region: {default: null, type: VARCHAR, doc: "Focus region r of the pattern."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches(ref('wrong_order_matches'), 'cost_s', contexts=asl.calls("mpi_class = 'p2p'")) }}
