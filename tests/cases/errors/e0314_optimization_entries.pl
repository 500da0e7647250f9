# E0314: optimizations=[...] lists pl.split(mode) and pl.cross_core_slot(slot_num=N), N a
# positive integer literal given by keyword. pl.split's slot_num is keyword-only: a second
# positional argument is E0202.
import pypto.language as pl


@pl.program
class Optimizations:
    @pl.function(type=pl.FunctionType.Orchestration)
    def unknown_entry(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[4]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def positional_slots(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(2)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def zero_slots(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=0)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def split_two_positional(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN, 2)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x

    @pl.function(type=pl.FunctionType.Orchestration)
    def split_slot_keyword(self, x: pl.Tensor[[4, 8], pl.FP32]) -> pl.Tensor[[4, 8], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.UP_DOWN, slot_num=2)]):
            t = pl.load(x, [0, 0], [4, 8])
            x = pl.store(t, [0, 0], x)
        return x
