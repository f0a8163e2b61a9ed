{#---
kind: category
parent: delay_p2p
unit: s
sums: children
info: Short- and long-term delay costs of Late Receiver waits (Scalasca's delay_latereceiver_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_latereceiver + delay_latereceiver_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
