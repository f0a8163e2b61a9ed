{#---
kind: property
parent: frequent_comm_in_process
unit: s
info: An MPI communication function called often with little time per call on some but not all processes.
description: |
  ASL §3.4.1.21 FrequentCommSomeProcesses = SomeNotAllProcesses<FrequentCommInProcess>:
  CONDITION frequent_comm_in_process holds with confidence 1 on some but not all
  processes, CONFIDENCE 1, SEVERITY its max severity over the processes where it
  holds (ASL §3.2; see templates/asl.sql); value: the function's time summed over
  those processes.
diagnosis: |
  Some processes communicate in many small messages: look at how the
  decomposition gives them more (smaller) neighbours or messages.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.some_not_all_processes(ref('frequent_comm_in_process')) }}
