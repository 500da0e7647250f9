//! The on-chip buffer allocator: each tile of a kernel gets an address in its memory (the
//! unified buffer for vector tiles; L1, L0A, L0B and L0C for the cube's), by liveness.
//! Tiles whose live ranges do not overlap may share bytes; each tile goes to the lowest
//! address (aligned) where it overlaps no tile live at the same time (first fit, in order of
//! first use). A kernel whose live tiles cannot fit in a memory at some point is refused
//! with the sizes (E0621).

/// The on-chip memories of an a2a3 core, with their capacities.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    /// The unified buffer of a vector core (`TileType::Vec`).
    Vec,
    /// L1 of a cube core (`TileType::Mat`).
    Mat,
    /// L0A (`TileType::Left`).
    Left,
    /// L0B (`TileType::Right`).
    Right,
    /// L0C (`TileType::Acc`).
    Acc,
}

impl Space {
    /// The capacity in bytes on a2a3.
    pub fn capacity(self) -> u64 {
        match self {
            Space::Vec => 192 * 1024,
            Space::Mat => 512 * 1024,
            Space::Left | Space::Right => 64 * 1024,
            Space::Acc => 128 * 1024,
        }
    }

    /// The memory's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Space::Vec => "the unified buffer (UB)",
            Space::Mat => "L1",
            Space::Left => "L0A",
            Space::Right => "L0B",
            Space::Acc => "L0C",
        }
    }

    /// PTO-ISA's `TileType` member.
    pub fn tile_type(self) -> &'static str {
        match self {
            Space::Vec => "Vec",
            Space::Mat => "Mat",
            Space::Left => "Left",
            Space::Right => "Right",
            Space::Acc => "Acc",
        }
    }
}

/// Where tiles start: a multiple of this many bytes.
pub const ALIGN: u64 = 512;

/// A tile to place: its memory, size and live range (positions of its first and last use,
/// inclusive).
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub name: String,
    pub space: Space,
    pub bytes: u64,
    pub first: usize,
    pub last: usize,
}

/// Why the tiles do not fit: the memory, the position, and the tiles live there.
#[derive(Clone, Debug, PartialEq)]
pub struct Overflow {
    pub space: Space,
    /// The tile that found no room.
    pub tile: String,
    /// The tiles live with it (name, bytes), itself included.
    pub live: Vec<(String, u64)>,
}

impl Overflow {
    /// The message of E0621.
    pub fn message(&self) -> String {
        let total: u64 = self.live.iter().map(|(_, b)| b.div_ceil(ALIGN) * ALIGN).sum();
        let list: Vec<String> = self.live.iter().map(|(n, b)| format!("`{n}` {b} B")).collect();
        format!(
            "tile `{}` does not fit: with the tiles live at the same time it needs {total} bytes of {}, which holds {}: {}",
            self.tile,
            self.space.name(),
            self.space.capacity(),
            list.join(", ")
        )
    }
}

/// The address of each request (in the requests' order), or the first overflow.
pub fn allocate(requests: &[Request]) -> Result<Vec<u64>, Overflow> {
    let mut order: Vec<usize> = (0..requests.len()).collect();
    order.sort_by_key(|&i| (requests[i].first, i));
    let mut addr: Vec<Option<u64>> = vec![None; requests.len()];
    for &i in &order {
        let r = &requests[i];
        let size = r.bytes.div_ceil(ALIGN) * ALIGN;
        let overlaps = |j: usize| {
            let o = &requests[j];
            o.space == r.space && o.first <= r.last && r.first <= o.last
        };
        let mut busy: Vec<(u64, u64)> = (0..requests.len())
            .filter(|&j| j != i && overlaps(j))
            .filter_map(|j| addr[j].map(|a| (a, a + requests[j].bytes.div_ceil(ALIGN) * ALIGN)))
            .collect();
        busy.sort();
        let mut at = 0;
        for (lo, hi) in busy {
            if at + size <= lo {
                break;
            }
            at = at.max(hi);
        }
        if at + size > r.space.capacity() {
            let live = (0..requests.len())
                .filter(|&j| j == i || overlaps(j))
                .map(|j| (requests[j].name.clone(), requests[j].bytes))
                .collect();
            return Err(Overflow { space: r.space, tile: r.name.clone(), live });
        }
        addr[i] = Some(at);
    }
    Ok(addr.into_iter().map(|a| a.unwrap_or(0)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(name: &str, bytes: u64, first: usize, last: usize) -> Request {
        Request { name: name.to_string(), space: Space::Vec, bytes, first, last }
    }

    #[test]
    fn tiles_live_at_once_get_disjoint_bytes() {
        let got = allocate(&[req("a", 32768, 0, 2), req("b", 32768, 1, 2), req("c", 100, 2, 3)]).unwrap();
        assert_eq!(got, vec![0, 32768, 65536]);
    }

    #[test]
    fn a_dead_tile_s_bytes_are_reused() {
        // `a` dies at 1; `c`, made at 2, takes its place; `d` fits in the gap `a` left below `b`.
        let got =
            allocate(&[req("a", 65536, 0, 1), req("b", 65536, 1, 4), req("c", 32768, 2, 3), req("d", 32768, 3, 4)])
                .unwrap();
        assert_eq!(got, vec![0, 65536, 0, 32768]);
    }

    #[test]
    fn spaces_are_separate() {
        let mut l = req("l", 65536, 0, 1);
        l.space = Space::Left;
        let mut r = req("r", 65536, 0, 1);
        r.space = Space::Right;
        assert_eq!(allocate(&[l, r]).unwrap(), vec![0, 0]);
    }

    #[test]
    fn too_many_live_tiles_overflow_with_their_sizes() {
        let err = allocate(&[req("a", 131072, 0, 2), req("b", 65536, 0, 2), req("c", 4, 1, 2)]).unwrap_err();
        assert_eq!(err.tile, "c");
        assert_eq!(err.live.len(), 3);
        let m = err.message();
        assert!(m.contains("197120 bytes") && m.contains("196608") && m.contains("`a` 131072 B"), "{m}");
        // The same tiles, one after the other, fit.
        assert!(allocate(&[req("a", 131072, 0, 0), req("b", 65536, 1, 1), req("c", 4, 2, 2)]).is_ok());
    }
}
