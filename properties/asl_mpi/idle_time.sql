{#---
kind: pattern
parent: null
unit: s
columns: {callpath_id: BIGINT, location_id: BIGINT, idle_s: DOUBLE}
info: The ASL summary IdleTime of every call path and process that waited.
description: |
  ASL §2.3.1 / Appendix C MPISummary.IdleTime, "idle time in communication": the time the
  calls of a call path (with its callees, as the summary's other times) wait for their
  partners. Read from the catalog: every wait state under mpi_synchronization and
  mpi_communication that waits for a partner (not a completion, nor a part of another:
  Scalasca's Late Sender, Late Receiver and the waits in barriers, n-to-n collectives,
  early reduce / scan and late broadcast; a plug-in's wait state there too), at the
  waiting call path and location. One row per (call path, location) with IdleTime > 0:
  idle_s. A profile holds no wait states: no rows, and its IdleTime is not measured
  (the ASL summaries read NULL there, never a false 0).
diagnosis: Not a problem by itself; see the properties built on it.
---#}
with waits as (
    select null::bigint as callpath_id, null::bigint as location_id, null::double as idle_s
    where false
    {%- for entry in catalog_tree(['mpi_synchronization', 'mpi_communication']) if entry.waiting and entry.evaluable %}
    union all
    select callpath_id, location_id, value from {{ ref(entry.name) }} where location_id is not null
    {%- endfor %}
),

-- over the call path's subtree, as CommTime
subtree as (
    select a.ancestor_id as callpath_id, w.location_id, sum(w.idle_s order by w.idle_s) as idle_s
    from waits as w
    join {{ ref('callpath_ancestors') }} as a on w.callpath_id = a.descendant_id
    group by all
)

select callpath_id, location_id, idle_s
from subtree
where idle_s > 0
