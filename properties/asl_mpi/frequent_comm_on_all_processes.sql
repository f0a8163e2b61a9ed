{#---
kind: property
parent: frequent_comm_in_process
unit: s
info: An MPI communication function called often with little time per call on every process.
description: |
  ASL §3.4.1.17 FrequentCommOnAllProcesses = OnAllProcesses<FrequentCommInProcess>:
  CONDITION frequent_comm_in_process holds with confidence 1 on every process,
  CONFIDENCE 1, SEVERITY max over processes of its severity (ASL §3.2; see templates/asl.sql);
  value: the function's time summed over the processes.
diagnosis: |
  Every process communicates in many small messages through this function: aggregate them.
---#}
{% import 'templates/asl.sql' as asl with context %}
{{ asl.on_all_processes(ref('frequent_comm_in_process')) }}
