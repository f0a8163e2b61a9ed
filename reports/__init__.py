"""The report layer: views over the stored results of an evaluation (property_results,
property_catalog), read by `cosydb report` and the shell. They read the model (sql/) and the
results; nothing below them reads them (tests/test_layers.py)."""
