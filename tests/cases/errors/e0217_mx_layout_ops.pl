# E0217: a tensor in an MX scale layout (`pl.MX_A_ZZ`, `pl.MX_B_NN`) stores its scales
# blocked, not row-major: PyPTO refuses to slice, reshape, transpose, view, store into or
# remotely read it, and loads it only as FP8E8M0/UINT8 scales, 2-D, into target_memory=pl.Mem.Mat written
# out. `pl.slice` of an MX parameter was a false accept of plc (PyPTO's tests refuse it).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class MxLayouts:
    @pl.function(type=pl.FunctionType.InCore)
    def main(
        self,
        sa: pl.Tensor[[64, 4], pl.FP8E8M0, pl.MX_A_ZZ],
        sb: pl.Tensor[[4, 64], pl.UINT8, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.MX_B_NN)],
        wrong: pl.Tensor[[64, 4], pl.FP16, pl.MX_A_ZZ],
        cube: pl.Tensor[[2, 64, 4], pl.FP8E8M0, pl.MX_A_ZZ],
        scales_out: pl.Out[pl.Tensor[[64, 4], pl.FP8E8M0, pl.MX_A_ZZ]],
        out: pl.Out[pl.Tensor[[64, 4], pl.FP8E8M0]],
    ):
        part = pl.slice(sa, [32, 4], [0, 0])
        flat = pl.reshape(sa, [256])
        turned = pl.tensor.transpose(sb, 0, 1)
        viewed = pl.tensor.view(sa, [4, 64])
        half = pl.tensor.slice(sb, [4, 32], [0, 0])
        kept = pl.load(sa, [0, 0], [64, 4], target_memory=pl.Mem.Mat)
        vec = pl.load(sa, [0, 0], [64, 4])
        in_vec = pl.load(sb, [0, 0], [4, 64], target_memory=pl.Mem.Vec)
        fp16 = pl.load(wrong, [0, 0], [64, 4], target_memory=pl.Mem.Mat)
        deep = pl.load(cube, [0, 0, 0], [1, 64, 4], target_memory=pl.Mem.Mat)
        scales_out = pl.store(kept, [0, 0], scales_out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def remote(
        self,
        data: pld.DistributedTensor[[8, 8], pl.FP8E8M0, pl.MX_B_NN],
        out: pl.Out[pl.Tensor[[8, 8], pl.FP8E8M0]],
        peer: pl.Scalar[pl.INT32],
    ):
        t = pld.tile.remote_load(data, peer, [0, 0], [8, 8])
        return out
