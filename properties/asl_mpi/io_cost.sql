{#---
kind: property
parent: total_cost
unit: s
info: Time a call path spends in file I/O (MPI-IO, POSIX/ISO C I/O, the IO group), over all processes.
description: |
  ASL §3.4.1.3 IoCost = Cost<IoCostFunc>, IoCostFunc(r, e) = Summary(r, e).IoTime,
  taken from io_time (with the IO group --param p_io_group=REGEX), 0 where a call path of
  the summary has none. CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
diagnosis: Use collective or non-blocking MPI-IO, fewer and larger requests, or fewer writers.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('coalesce(io_s, 0)',
            '(select s.callpath_id, s.location_id, i.io_s from ' ~ ref('mpi_summary') ~ ' as s left join '
            ~ ref('io_time') ~ ' as i using (callpath_id, location_id))') }}
