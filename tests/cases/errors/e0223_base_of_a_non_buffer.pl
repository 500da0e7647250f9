# E0223: `buf.base` reads the base of a cross-core buffer (`pl.reserve_buffer`,
# `pl.import_peer_buffer`, ops.md §1 *Keyword arguments*); on any other value, and on a
# name re-bound to another value, it stays a standalone attribute access.
import pypto.language as pl


@pl.program
class BaseOfANonBuffer:
    @pl.function(type=pl.FunctionType.AIV)
    def consumer(self):
        n = pl.get_block_idx()
        pl.aiv_initialize_pipe(c2v_consumer_buf=n.base, dir_mask=1, slot_size=512)
        buf = pl.reserve_buffer(name="c2v_slots", size=4096)
        buf = 7
        pl.aiv_initialize_pipe(c2v_consumer_buf=buf.base, dir_mask=1, slot_size=512)
