"""The enhanced event model: one SQL file per view, table or macro over the loaded tables
(docs/schema.md). It reads the loaded tables and itself, never the catalog's results or the
report layer (reports/, tests/test_layers.py)."""
