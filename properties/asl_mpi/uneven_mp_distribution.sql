{#---
kind: property
parent: comm_cost
unit: s
info: A communication call whose time differs strongly between the processes.
description: |
  ASL §3.4.1.11 UnevenMpDistribution(FuncCall r): deviation = the standard deviation
  (population) of Incl over ProcessProfiles(r, e), the processes that executed r.
  CONDITION the call is an MPI communication function AND deviation >
  uneven_threshold ($p_uneven_threshold) * Summary(r, e).Incl / e.NrProcessors,
  CONFIDENCE 1, SEVERITY Summary(r, e).Incl / Duration(RankBasis, e).
  details: the deviation and the distribution of Incl over the processes.
diagnosis: |
  Some processes spend much longer in this communication than others: balance
  the work before it or the data each process exchanges.
params:
  p_uneven_threshold: {default: 0.1, type: DOUBLE, doc: "uneven_threshold: deviation allowed, relative to the mean Incl per process."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.comm_call_property('incl_s', 'deviation > $p_uneven_threshold * value / processes.n',
                          {'deviation': 'stddev_pop(incl_s)'}) }}
