{#---
kind: pattern
parent: null
unit: s
requires: [trace]
columns: {callpath_id: BIGINT, location_id: BIGINT, send_complete_call_enter_seq: BIGINT,
  idle_s: DOUBLE, send_complete_kind: VARCHAR, recv_location_id: BIGINT, recv_seq: BIGINT,
  send_seq: BIGINT, messages: BIGINT}
info: Scalasca Late Receiver instances - one per send-completing call that waited for a late receive.
description: |
  docs/wait-states.md, mpi_latereceiver: idle = E(Rreq) - E(Scmp) when
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
-- One definition: the rule is the view sql/mpi_latereceiver_waits.sql.
select * exclude (experiment_id) from {{ ref('mpi_latereceiver_waits') }}
