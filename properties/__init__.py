"""ASL properties and CRE patterns, one templated SQL file each (see docs/properties.md)."""
