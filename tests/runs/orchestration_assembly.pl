# An assembly in orchestration code (`out[a:b, :] = t`, `pl.assemble(out, t, [..])` outside
# `pl.at`) is no code on the runtime: its result names the target. The data is there when a
# kernel wrote it there, and these are the forms where it did, each printing the same in
# `plc run` and in the C++ (tests/compile.rs):
# - `created`: a tensor made with `pl.create_tensor`, written by a kernel and assembled once
#   (PyPTO's FuseCreateAssembleToSlice makes it a view of the target at the offsets);
# - `looped`: the same inside a loop, at offsets of the loop variable;
# - `window`: a `pl.slice` of the target written by a kernel, assembled back at its offsets;
# - `region_result`: a region's new result (`y` below), assembled once (the runtime output
#   PyPTO's ConvertTensorToTileOps makes for it is fused the same way).
# x = 1..32: doubled it sums 1056, twice 2112; squared it sums 11440.
# The forms the runtime would not copy are E0623 (tests/emit/e0623_assembly_not_copied.pl).
# run: --entry created --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
# run: --entry looped --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
# run: --entry window --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
# run: --entry region_result --arg x=[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32]
import pypto.language as pl

R = 4
C = 8


@pl.program
class Assembly:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self, x: pl.Tensor[[R, C], pl.FP32], dst: pl.Out[pl.Tensor[[R, C], pl.FP32]]
    ) -> pl.Tensor[[R, C], pl.FP32]:
        t = pl.load(x, [0, 0], [R, C])
        t2 = pl.add(t, t)
        dst = pl.store(t2, [0, 0], dst)
        return dst

    @pl.function(type=pl.FunctionType.Orchestration)
    def created(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        low = pl.create_tensor([R, C], dtype=pl.FP32)
        low = self.double(x, low)
        out = pl.assemble(out, low, [R, 0])
        high = pl.create_tensor([R, C], dtype=pl.FP32)
        high = self.double(x, high)
        out[0:R, :] = high
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def looped(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        for i in pl.range(2):
            band = pl.create_tensor([R, C], dtype=pl.FP32)
            band = self.double(x, band)
            out = pl.assemble(out, band, [i * R, 0])
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def window(
        self, x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]
    ) -> pl.Tensor[[2 * R, C], pl.FP32]:
        low = pl.slice(out, [R, C], [R, 0])
        low = self.double(x, low)
        out = pl.assemble(out, low, [R, 0])
        high = pl.slice(out, [R, C], [0, 0])
        high = self.double(x, high)
        out[0:R, :] = high
        return out


@pl.jit
def region_result(x: pl.Tensor[[R, C], pl.FP32], out: pl.Out[pl.Tensor[[2 * R, C], pl.FP32]]):
    with pl.at(level=pl.Level.CORE_GROUP):
        y = pl.add(x, x)
    out[0:R, :] = y
    with pl.at(level=pl.Level.CORE_GROUP):
        z = pl.mul(x, x)
    out = pl.assemble(out, z, [R, 0])
    return out
