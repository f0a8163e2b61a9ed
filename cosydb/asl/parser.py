"""ASL text to a lark syntax tree; a syntax error is one line with line, column and
what was expected (grammar: ``asl.lark``, the report's figures 3.1-3.7)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

import lark

from ..errors import CosyError

#: How the grammar's punctuation terminals read in a message.
_PUNCTUATION = {
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LESSTHAN": "'<'",
    "MORETHAN": "'>'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "COLON": "':'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "MINUS": "'-'",
    "__ANON_0": "'->'",
    "RELOP": "a comparison (== != < > <= >=)",
    "ADDOP": "'+' or '-'",
    "MULOP": "'*' or '/'",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "COND_ID": "'(' condition id ')'",
    "QUANTIFIER": "FORALL, EXISTS or NEXISTS",
    "AGGREGATE": "SUM, COUNT, MAX, MIN, AVG or STDEV",
}


class AslError(CosyError):
    """A problem in an ASL file at a line and column: ``file:line:column: problem``."""

    def __init__(self, path, line: int, column: int, problem: str):
        self.line, self.column = line, column
        super().__init__(f"{path}:{line}:{column}", problem)

    def __reduce__(self):
        return _error, (self.path, self.problem)


def _error(located: str, problem: str) -> AslError:
    path, line, column = located.rsplit(":", 2)
    return AslError(path, int(line), int(column), problem)


@functools.cache
def _parser() -> lark.Lark:
    grammar = resources.files(__package__).joinpath("asl.lark").read_text()
    # cache: the parse table is kept in a temporary file between processes
    return lark.Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=False, cache=True)


def _terminal_text(name: str) -> str:
    if name in _PUNCTUATION:
        return _PUNCTUATION[name]
    if name.startswith("__ANON"):
        pattern = _parser().get_terminal(name).pattern
        return f"'{pattern.value}'"
    return name.strip("_").replace("_", " ")  # a keyword: CONDITION, SUCH, ...


def _expected(names) -> str:
    texts = sorted({_terminal_text(n) for n in names})
    return texts[0] if len(texts) == 1 else "one of " + ", ".join(texts)


def _found(token: lark.Token) -> str:
    return "the end of the file" if token.type == "$END" else f"'{token.value}'"


def read(path: Path) -> str:
    """The text of an ASL file; one that is not text is a user's error."""
    try:
        return path.read_text()
    except UnicodeDecodeError:
        raise CosyError(path, "not a text file (an ASL specification is text)") from None


def parse(text: str, path: str | Path = "<asl>") -> lark.Tree:
    """The syntax tree of ASL ``text`` (``path`` names it in errors)."""
    try:
        return _parser().parse(text)
    except lark.UnexpectedToken as error:
        raise AslError(
            path, error.line, error.column, f"expected {_expected(error.expected)}, found {_found(error.token)}"
        ) from None
    except lark.UnexpectedCharacters as error:
        raise AslError(path, error.line, error.column, f"unexpected character '{text[error.pos_in_stream]}'") from None
    except lark.UnexpectedEOF as error:
        lines = text.splitlines() or [""]
        raise AslError(
            path, len(lines), len(lines[-1]) + 1, f"expected {_expected(error.expected)}, found the end of the file"
        ) from None
