//! Identifiers as Python reads them: a name is NFKC-normalised before it means anything
//! (`𝑏𝑎𝑠𝑒` and `base` are one name), and after normalisation it must be `XID_Start`
//! (or `_`) followed by `XID_Continue` characters. Zero-width joiners and non-joiners,
//! which newer Unicode versions admit in identifiers, are refused, as Python refuses them.

use std::borrow::Cow;
use unicode_normalization::UnicodeNormalization;

/// The name an identifier's text stands for: its NFKC form (ASCII text is its own).
pub fn normalize(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

/// Why the text of a name token is not an identifier: the first character Python refuses
/// (its byte offset in the text), or `Err(None)` when each character is fine but the
/// normalised name is not an identifier. `Ok(())` for a valid identifier.
pub fn check(text: &str) -> Result<(), Option<(usize, char)>> {
    if text.is_ascii() {
        return Ok(());
    }
    for (i, c) in text.char_indices() {
        let allowed = if i == 0 { is_start(c) } else { is_continue(c) };
        if !allowed {
            return Err(Some((i, c)));
        }
    }
    let normalized = normalize(text);
    let mut chars = normalized.chars();
    let valid = chars.next().is_some_and(is_start) && chars.all(is_continue);
    if valid {
        Ok(())
    } else {
        Err(None)
    }
}

fn is_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

fn is_continue(c: char) -> bool {
    // Unicode 15.1 made the joiners identifier characters; Python does not accept them.
    !matches!(c, '\u{200C}' | '\u{200D}') && unicode_ident::is_xid_continue(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_identifiers() {
        for (name, normal) in [("𝑏𝑎𝑠𝑒", "base"), ("ﬁle", "file"), ("café", "café")] {
            assert_eq!(normalize(name), normal);
        }
        assert!(matches!(normalize("rows"), Cow::Borrowed(_)));
        for name in ["𝑏𝑎𝑠𝑒", "数据_1"] {
            assert_eq!(check(name), Ok(()));
        }
        for joiner in ['\u{200D}', '\u{200C}'] {
            assert_eq!(check(&format!("ab{joiner}c")), Err(Some((2, joiner))));
        }
    }
}
