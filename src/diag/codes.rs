//! The registry of diagnostic codes. Codes are stable: tests and documentation refer to the
//! code, so messages may be reworded freely. `plc explain CODE` prints the entry.
//!
//! Ranges: E00xx lexical, E01xx syntax, E02xx names and types, E03xx parser-level scope
//! checks, E04xx pass errors, E05xx graph boundary, E06xx emitter; N0xxx are notes.

macro_rules! codes {
    ($($code:ident => $title:literal, $explanation:literal;)*) => {
        /// A stable diagnostic code.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($code,)*
        }

        impl Code {
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Code::$code => stringify!($code),)*
                }
            }

            pub fn info(self) -> &'static CodeInfo {
                &CODES[self as usize]
            }

            /// Looks a code up by its spelling (`"E0103"`, case-insensitive).
            pub fn parse(text: &str) -> Option<Code> {
                let upper = text.trim().to_ascii_uppercase();
                CODES.iter().find(|info| info.code.as_str() == upper).map(|info| info.code)
            }
        }

        /// Every code with its one-line title and its explanation (with an example).
        pub static CODES: &[CodeInfo] = &[
            $(CodeInfo { code: Code::$code, title: $title, explanation: $explanation },)*
        ];
    };
}

/// What `plc explain` prints for a code.
pub struct CodeInfo {
    pub code: Code,
    pub title: &'static str,
    pub explanation: &'static str,
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

codes! {
    E0001 => "invalid character in source",
"A character that cannot start any token of the language appeared outside a string or
comment, for example `$`, `?` or a NUL byte.

    x = a $ b      # error: `$` is not an operator

Remove the character, or put it inside a string or a comment.";

    E0002 => "unterminated string literal",
"A string literal was opened but not closed. A single- or double-quoted string must close on
the same line (a backslash before the line break continues it); a triple-quoted string may
span lines but must be closed before the end of the file.

    name = \"layer     # error: the string never closes

Add the closing quote.";

    E0003 => "the file is not valid UTF-8",
"plc reads source files as UTF-8, as Python does. The diagnostic points at the byte offset of
the first byte that is not part of a valid UTF-8 sequence; nothing after it is read.

Re-save the file as UTF-8.";

    E0004 => "NUL byte in source",
"The file contains a NUL byte (0x00) outside a string. Source files must be text.";

    E0005 => "inconsistent use of tabs and spaces in indentation",
"The indentation of a line compares differently with the enclosing block depending on how wide
a tab is taken to be, so its meaning is ambiguous. plc follows Python: a line's indentation is
measured with tabs as 1 and as 8 columns, and both measures must agree.

    if c:
    \tx = 1       # indented with a tab
            y = 2     # indented with 8 spaces: the same block or not?

Indent with spaces only.";

    E0006 => "unindent does not match any outer indentation level",
"A line was dedented to a column that no enclosing block uses.

    for i in pl.range(4):
            x = 1
        y = 2      # error: column 5 was never opened

Indent the line to the column of the block it belongs to.";

    E0007 => "unclosed bracket",
"A `(`, `[` or `{` is never closed before the end of the file. The diagnostic points at the
opening bracket.

    y = pl.add(x,
               x          # error: `(` never closed

Add the matching closing bracket.";

    E0008 => "unmatched closing bracket",
"A `)`, `]` or `}` appeared with no opening bracket to close.

    y = x)       # error

Remove the bracket or add the opening one.";

    E0009 => "mismatched closing bracket",
"A closing bracket does not match the most recent open bracket.

    y = pl.load(x, [0, 0)     # error: `)` closes `[`

Close the inner bracket first.";

    E0010 => "unexpected character after line continuation",
"A backslash outside a string continues the logical line only when it is the last character
on the line.

    x = 1 + \\ 2    # error

Put the line break right after the backslash, or drop the backslash.";

    E0014 => "file too large",
"Spans are 32-bit byte offsets, so plc reads files smaller than 4 GiB.";

    E0101 => "unexpected token",
"The parser found a token where the grammar does not allow it. The message says what was
expected instead.

    def f(x pl.Tensor):     # error: expected ',' or ')' (a ':' is missing)";

    E0102 => "unexpected end of file",
"The file ended in the middle of a statement or expression.";

    E0103 => "unexpected indentation",
"A line is indented more than the statement before it, but that statement does not open a
block.

    x = 1
        y = 2      # error

Dedent the line to the column of its block.";

    E0104 => "expected an indented block",
"A statement that ends in `:` (`def`, `class`, `if`, `for`, `while`, `with`, ...) must be
followed by an indented block.

    for i in pl.range(4):
    x = 1          # error: the loop body must be indented";

    E0105 => "invalid assignment target",
"Only names, tuples of names, attribute and subscript expressions can be assigned to.

    f(x) = 1       # error";

    E0110 => "Python construct not supported in pl",
"The construct is valid Python but is not part of the pl language, whose functions are
compiled, not run by Python. The message names the construct and says what to write
instead. Examples: `x += 1` (write `x = x + 1`), `lambda`, `a if c else b`, chained
comparisons `a < b < c`, `try`, `raise`, `assert`, `del`, `global`, `*args` at a call site,
comprehensions other than a list comprehension, `is`/`in` comparisons, unary `+`, `@`.";

    E0120 => "nesting too deep",
"An expression nested more than 200 levels deep, or blocks nested more than 100 levels deep.
Python itself refuses such nesting; plc does too, so that no stage of the compiler can run
out of stack.";

    N0001 => "host code skipped",
"Host code is the Python that runs around the pl program: an `if __name__ == \"__main__\":`
block, a top-level `def` or `class` without a `@pl.` decorator, a top-level assignment whose
value is not a constant expression, or any other top-level statement that is not an import,
a constant, or a pl function or program. plc recognises it by indentation, skips it without
parsing it, and says so in this note.";

    N0002 => "pl function defined inside host code",
"A function decorated with `@pl.` (or a `@pl.program` class) sits inside host code, for
example inside `if __name__ == \"__main__\":` or inside a plain Python function. Python builds
it when that code runs, so plc cannot compile it statically. Move it to the top level of the
module to compile it.";
}
