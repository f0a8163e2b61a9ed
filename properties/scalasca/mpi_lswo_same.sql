{#---
kind: property
parent: mpi_latesender_wo
unit: s
wait_state: true
requires: [trace]
info: Wrong-order Late Sender time where the earlier-sent message came from the same sender.
description: |
  docs/wait-states.md, mpi_lswo_same: mpi_latesender_wo restricted to matches
  whose revealing receive R' came from the same source as the waiting receive (a
  different tag or communicator). Exactly as Scalasca 2.6 (MPI.pattern,
  PatternMPI_LswoSame, LATE_SENDER_WO: recv = data->mLocal->get_event(ROLE_RECV_LSWO);
  if recv->getSource() == event->getSource(), m_severity[recv.get_cnode()] += mIdle):
  the role keeps the first instance R' revealed, so each instance's idle time goes
  to that first instance's call path and the sources compared are that instance's
  and R''s communicator ranks (mpi_latesender_wo_matches: lswo_callpath_id,
  same_source). CONDITION idle > 0, CONFIDENCE 1, SEVERITY idle / Duration(RankBasis, e).
diagnosis: |
  Messages of one sender are received in another order than they were sent:
  match the receive order to the send order (tags), or use MPI_ANY_TAG.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.sum_matches('(select lswo_callpath_id as callpath_id, location_id, idle_s from '
                   ~ ref('mpi_latesender_wo_matches') ~ ' where same_source)', 'idle_s') }}
