# W0003: an older release fed the MX quantizer's results straight to the MX matmul. plc
# types them as raw bytes (INT8 data, UINT8 scales), lets the MX ops read them as the FP8
# values they hold, and warns; the second kernel is today's form, which views them first.
import pypto.language as pl


@pl.program
class OlderMxChain:
    @pl.function(type=pl.FunctionType.InCore)
    def older(
        self,
        a: pl.Tensor[[32, 128], pl.FP32],
        w: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        qa, sa = pl.mx_quant(pl.load(a, [0, 0], [32, 128]), mode="mxfp8_e4m3")
        qw, sw = pl.mx_quant(pl.load(w, [0, 0], [64, 128]), mode="mxfp8_e4m3")
        left = pl.move(pl.move(qa, target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        left_s = pl.move(pl.move(sa, target_memory=pl.Mem.Mat), target_memory=pl.Mem.LeftScale)
        right = pl.move(pl.move(pl.tile.transpose_view(qw), target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        right_s = pl.move(pl.move(sw, target_memory=pl.Mem.Mat), target_memory=pl.Mem.RightScale)
        left_s = pl.tget_scale_addr(left_s, left)
        right_s = pl.tget_scale_addr(right_s, right)
        c = pl.matmul_mx(left, left_s, right, right_s)
        return pl.store(c, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def today(
        self,
        a: pl.Tensor[[32, 128], pl.FP32],
        w: pl.Tensor[[64, 128], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 64], pl.FP32]],
    ) -> pl.Tensor[[32, 64], pl.FP32]:
        qa, sa = pl.mx_quant(pl.load(a, [0, 0], [32, 128]), mode="mxfp8_e4m3")
        qw, sw = pl.mx_quant(pl.load(w, [0, 0], [64, 128]), mode="mxfp8_e4m3")
        qa8 = pl.tile.reinterpret_view(qa, pl.FP8E4M3FN)
        sa8 = pl.tile.reinterpret_view(sa, pl.FP8E8M0)
        qw8 = pl.tile.reinterpret_view(pl.tile.transpose_view(qw), pl.FP8E4M3FN)
        sw8 = pl.tile.reinterpret_view(sw, pl.FP8E8M0)
        left = pl.move(pl.move(qa8, target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        left_s = pl.move(pl.move(sa8, target_memory=pl.Mem.Mat), target_memory=pl.Mem.LeftScale)
        right = pl.move(pl.move(qw8, target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        right_s = pl.move(pl.move(sw8, target_memory=pl.Mem.Mat), target_memory=pl.Mem.RightScale)
        left_s = pl.tget_scale_addr(left_s, left)
        right_s = pl.tget_scale_addr(right_s, right)
        c = pl.matmul_mx(left, left_s, right, right_s)
        return pl.store(c, [0, 0], out)
