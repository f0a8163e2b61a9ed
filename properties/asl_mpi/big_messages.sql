{#---
kind: property
parent: comm_cost
unit: s
info: A communication call moving large messages on average.
description: |
  ASL §3.4.1.8 BigMessages(FuncCall r): Cost = Summary(r, e).CommTime over all
  processes; AvgLength = MessageLength / NrExecutions, where MessageLength is the
  number of bytes the call moves: bytes sent, or received for receiving calls (the
  larger of Summary's bytes_sent and bytes_received; ASL counts bytes sent, which
  would leave every receive out). CONDITION the call is an MPI communication function
  AND Cost > 0 AND AvgLength > BigMessagesThreshold ($p_big_message_bytes),
  CONFIDENCE 1, SEVERITY Cost / Duration(RankBasis, e). details: the distribution over
  the processes, executions, average bytes.
diagnosis: |
  Communication is bandwidth-bound here: send less data (compress, send only what
  changed), or overlap the transfer with computation.
params:
  p_big_message_bytes: {default: 65536, type: BIGINT, doc: "BigMessagesThreshold: average bytes per execution above which messages are big."}
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.comm_call_property('comm_s', 'value > 0 and average_bytes > $p_big_message_bytes',
                          {'executions': 'sum(executions)',
                           'average_bytes': 'greatest(sum(bytes_sent), sum(bytes_received)) / sum(executions)'}) }}
