{#---
kind: property
parent: comm_cost
unit: s
info: A communication call executed often with little time per execution (small messages).
description: |
  ASL §3.4.1.7 FrequentCommunication(FuncCall r): Cost = Duration(r, e), the Incl over
  all processes of a call path whose called function is an MPI communication function.
  CONDITION Cost > 0 AND Cost / Summary(r, e).NrExecutions < SmallMessagesThreshold
  ($p_small_comm_s, seconds per execution), CONFIDENCE 1,
  SEVERITY Cost / Duration(RankBasis, e). details: the distribution over the processes,
  executions, seconds per execution.
diagnosis: |
  Many short messages: aggregate them into fewer, larger ones (pack halo
  data, use derived datatypes or collectives).
params:
  p_small_comm_s: {default: 1.0e-5, type: DOUBLE, doc: "SmallMessagesThreshold: time per execution (s) below which a communication is small."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.comm_call_property('incl_s', 'value > 0 and per_execution_s < $p_small_comm_s',
                          {'executions': 'sum(executions)', 'per_execution_s': 'sum(incl_s) / sum(executions)'}) }}
