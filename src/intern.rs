//! Interned names: every identifier is stored once and compared as a `Symbol`.

use indexmap::IndexSet;
use rustc_hash::{FxBuildHasher, FxHashSet};

/// An interned string, valid for the [`Interner`] that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symbol(u32);

impl Symbol {
    /// Its position in its interner (`Interner::names` gives the names in this order).
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

#[derive(Clone, Default)]
pub struct Interner {
    names: IndexSet<Box<str>, FxBuildHasher>,
}

impl Interner {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn intern(&mut self, name: &str) -> Symbol {
        if let Some(i) = self.names.get_index_of(name) {
            return Symbol(i as u32);
        }
        let (i, _) = self.names.insert_full(name.into());
        Symbol(i as u32)
    }

    pub fn get(&self, sym: Symbol) -> &str {
        &self.names[sym.0 as usize]
    }

    /// `base`, or `base_1`, `base_2`, ...: the first name not in `used`, which it joins.
    pub fn fresh(&mut self, base: &str, used: &mut FxHashSet<Symbol>) -> Symbol {
        let mut candidate = base.to_string();
        let mut n = 0;
        loop {
            let sym = self.intern(&candidate);
            if used.insert(sym) {
                return sym;
            }
            n += 1;
            candidate = format!("{base}_{n}");
        }
    }

    /// Every name, in the order they were first interned (a symbol's [`Symbol::index`]).
    pub(crate) fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(|name| &**name)
    }

    /// The symbol of `name` if it was ever interned.
    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        self.names.get_index_of(name).map(|i| Symbol(i as u32))
    }
}
