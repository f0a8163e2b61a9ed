{#---
kind: property
parent: total_cost
unit: s
info: Time a call path spends in file I/O (MPI-IO, POSIX/ISO C I/O, the IO group), over all processes.
description: |
  ASL §3.4.1.3 IoCost = Cost<IoCostFunc>, IoCostFunc(r, e) = Summary(r, e).IoTime,
  taken from io_time (with the IO group --param p_io_group=REGEX).
  CONDITION cost > 0, CONFIDENCE 1, SEVERITY cost / Duration(RankBasis, e).
diagnosis: Use collective or non-blocking MPI-IO, fewer and larger requests, or fewer writers.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.cost('io_s', ref('io_time')) }}
