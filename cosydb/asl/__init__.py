"""ASL, the APART Specification Language: parse, check and compile to the catalog's SQL.

``parser``: the text to a syntax tree (grammar: ``asl.lark``); ``model``: the data model
and how cosydb supplies it; ``compiler``: a specification checked and compiled to catalog
entries, by the passes it names."""
