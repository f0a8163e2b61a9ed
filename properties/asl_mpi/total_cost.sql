{#---
kind: property
parent: null
unit: s
info: Time a call path spends in MPI communication, synchronisation and I/O, over all processes.
description: |
  ASL §3.4.1.2 TotalCost = Cost<AllCostFunc>: AllCostFunc(r, e) = Summary(r, e).CommTime
  + SyncTime + IoTime, the ASL MPISummary summed over the processes (mpi_summary,
  IoTime from io_time with its IO group; the times include the call path's subtree). CONDITION cost > 0, CONFIDENCE 1,
  SEVERITY cost / Duration(RankBasis, e).
diagnosis: |
  Look at the specialisations (comm_cost, sync_cost, io_cost) and their wait states to
  see which part of the overhead dominates.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('comm_s + sync_s + coalesce(io_s, 0)',
            '(select s.* exclude (io_s), i.io_s from ' ~ ref('mpi_summary') ~ ' as s left join '
            ~ ref('io_time') ~ ' as i using (callpath_id, location_id))') }}
