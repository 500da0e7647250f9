//! Interned names: every identifier is stored once and compared as a `Symbol`.

use indexmap::map::raw_entry_v1::{RawEntryApiV1, RawEntryMut};
use indexmap::IndexMap;
use rustc_hash::{FxBuildHasher, FxHashSet};
use std::hash::BuildHasher;

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
    /// The frozen interner a fork reads (`ir::fork`): its names keep their symbols, and the
    /// names interned since are numbered after them.
    base: Option<std::sync::Arc<Interner>>,
    /// The number of names in `base`.
    base_len: u32,
    /// The names, in order (a set: the values are empty; a map for its raw entries, which
    /// look a name up and insert it with one hash and one probe).
    names: IndexMap<Box<str>, (), FxBuildHasher>,
}

/// The names a forked interner interned since the fork ([`Interner::own_names`]), without
/// the base it read.
pub(crate) struct OwnNames {
    base_len: u32,
    names: IndexMap<Box<str>, (), FxBuildHasher>,
}

impl Interner {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for `additional` more names.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.names.reserve(additional);
    }

    /// The symbol of `name`, interned if it is new: the name hashed once, for the base's
    /// table and the own one, and looked up and inserted in one probe of the own one.
    pub fn intern(&mut self, name: &str) -> Symbol {
        let hash = FxBuildHasher.hash_one(name);
        if let Some(sym) = self.base.as_ref().and_then(|b| b.lookup_hashed(hash, name)) {
            return sym;
        }
        let i = match self.names.raw_entry_mut_v1().from_key_hashed_nocheck(hash, name) {
            RawEntryMut::Occupied(found) => found.index(),
            RawEntryMut::Vacant(new) => {
                let i = new.index();
                new.insert_hashed_nocheck(hash, name.into(), ());
                i
            }
        };
        Symbol(self.base_len + i as u32)
    }

    #[inline]
    pub fn get(&self, sym: Symbol) -> &str {
        match self.names.get_index(sym.0.wrapping_sub(self.base_len) as usize) {
            Some((name, ())) => name,
            None => self.base_name(sym),
        }
    }

    /// A name of the base of a fork (or a symbol past the end, which panics as an index
    /// does).
    #[cold]
    #[inline(never)]
    fn base_name(&self, sym: Symbol) -> &str {
        match &self.base {
            Some(b) if sym.0 < self.base_len => b.get(sym),
            _ => self
                .names
                .get_index(sym.0.wrapping_sub(self.base_len) as usize)
                .map(|(name, ())| &**name)
                .unwrap_or_else(|| panic!("symbol {} past the interner's {} names", sym.0, self.len())),
        }
    }

    /// The number of names.
    pub(crate) fn len(&self) -> usize {
        self.base_len as usize + self.names.len()
    }

    /// Forgets the names interned after the first `len` (the parser's fast path undoes
    /// what it interned when it gives up, `syntax::descent`).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.names.truncate(len.saturating_sub(self.base_len as usize));
    }

    /// An interner that reads `base` and numbers the names it interns after `base`'s.
    pub(crate) fn forked(base: &std::sync::Arc<Interner>) -> Interner {
        Interner { base: Some(base.clone()), base_len: base.len() as u32, names: IndexMap::default() }
    }

    /// The names interned since the fork, in their table, for [`Self::absorb`]; the base is
    /// released.
    pub(crate) fn own_names(self) -> OwnNames {
        OwnNames { base_len: self.base_len, names: self.names }
    }

    /// The names interned since the fork, in order (symbols from the base's length on); the
    /// base is released.
    pub(crate) fn into_own(self) -> Vec<Box<str>> {
        self.names.into_keys().collect()
    }

    /// Interns the names `fork` interned since it was forked from this interner (which
    /// interned nothing since), in their order: their symbols are then `fork`'s. The names
    /// are moved, not copied, and the table grown once.
    pub(crate) fn absorb(&mut self, fork: OwnNames) {
        debug_assert!(self.base.is_none(), "a forked interner absorbs nothing");
        debug_assert_eq!(fork.base_len as usize, self.len(), "forked from this interner as it is");
        self.names.reserve(fork.names.len());
        for (name, ()) in fork.names {
            let hash = FxBuildHasher.hash_one(&*name);
            if let RawEntryMut::Vacant(new) = self.names.raw_entry_mut_v1().from_key_hashed_nocheck(hash, &*name) {
                new.insert_hashed_nocheck(hash, name, ());
            }
        }
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
        let base = self.base.iter().flat_map(|b| b.names.keys().map(|name| &**name));
        base.chain(self.names.keys().map(|name| &**name))
    }

    /// The symbol of `name` if it was ever interned.
    pub fn lookup(&self, name: &str) -> Option<Symbol> {
        self.lookup_hashed(FxBuildHasher.hash_one(name), name)
    }

    /// [`Self::lookup`] of `name` whose hash (by the tables' hasher) is `hash`.
    fn lookup_hashed(&self, hash: u64, name: &str) -> Option<Symbol> {
        if let Some(sym) = self.base.as_ref().and_then(|b| b.lookup_hashed(hash, name)) {
            return Some(sym);
        }
        let i = self.names.raw_entry_v1().index_from_hash(hash, |n| **n == *name)?;
        Some(Symbol(self.base_len + i as u32))
    }
}
