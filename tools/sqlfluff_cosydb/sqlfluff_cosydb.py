"""sqlfluff plugin for cosydb: DuckDB named parameters.

sqlfluff's duckdb dialect (4.5.0) lexes only positional parameters ``$1``
(inherited from postgres as ``dollar_numeric_literal``), so every property
using a bound parameter such as ``$p_region`` fails to lex and parse. DuckDB
also accepts named parameters ``$name``; this plugin widens that lexer rule
to both forms, so they parse as literals wherever ``$1`` does.
"""

from sqlfluff.core.dialects import load_raw_dialect
from sqlfluff.core.parser import LiteralSegment, RegexLexer
from sqlfluff.core.plugin import hookimpl

load_raw_dialect("duckdb").patch_lexer_matchers(
    [RegexLexer("dollar_numeric_literal", r"\$(?:\d+|[A-Za-z_][A-Za-z0-9_]*)", LiteralSegment)]
)


@hookimpl
def get_rules() -> list:
    return []
