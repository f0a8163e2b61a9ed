"""ASL, the APART Specification Language: parse, check and compile to the catalog's SQL.

``parser``: the text to a syntax tree (grammar: ``asl.lark``); ``checker``: names and
types against the data model."""
