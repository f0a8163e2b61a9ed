{#---
kind: category
parent: delay_p2p
unit: s
sums: children
info: Short- and long-term delay costs of Late Sender waits (Scalasca's delay_latesender_aggregate).
description: |
  Scalasca 2.6 (remapping.spec, POSTDERIVED): delay_latesender + delay_latesender_longterm, per (call path,
  location) the sum of its sub-metrics.
---#}
