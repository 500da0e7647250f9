# A view of a DistributedTensor stays distributed (ops.md: `tensor.view`, `tensor.slice`),
# so `pld` ops take it: after a loop that carries the window, after an `if` that merges it,
# and under an explicit `pld.DistributedTensor` annotation with a DN layout.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DistributedViews:
    @pl.function(type=pl.FunctionType.InCore)
    def carried(self, data: pld.DistributedTensor[[16, 16], pl.INT32]):
        for _i, (carry,) in pl.range(1, init_values=(data,)):
            result = pl.yield_(carry)
        viewed = pl.tensor.view(result, [16, 16])
        pld.system.wait(viewed, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)

    @pl.function(type=pl.FunctionType.InCore)
    def merged(self, data: pld.DistributedTensor[[16, 16], pl.INT32], cond: pl.Scalar[pl.BOOL]):
        result = data
        if cond:
            result = data
        window = pl.slice(result, [8, 16], [8, 0])
        pld.system.wait(window, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def transposed(
        self,
        data: pld.DistributedTensor[[4, 8], pl.FP32],
        out: pl.Tensor[[8, 4], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ):
        viewed: pld.DistributedTensor[
            [8, 4], pl.FP32, pl.TensorView(stride=[1, 8], layout=pl.TensorLayout.DN)
        ] = pl.tensor.view(data, [8, 4], layout=pl.TensorLayout.DN)
        t = pld.tile.remote_load(viewed, peer=peer, offsets=[0, 0], shape=[8, 4])
        pl.store(t, [0, 0], out)
