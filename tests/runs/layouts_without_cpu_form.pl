# Tensor layouts `plc run` and the C++ have no form for (docs/interpreter.md,
# docs/kernels.md): each stops with E0803 at `plc run` (E0601 at `plc compile`) naming the
# op and the layout, never a silently wrong value.
# - An NZ tensor keeps fractal blocks of 16 rows (the cube's layout), so a load of an NZ
#   weight would need the fractal addressing plc's row-major tensors do not model;
# - an MX-layout tensor keeps blocked scale groups, likewise;
# - `pl.tensor.view` with a shape of a DN tensor, or with a shape and a layout change: a
#   reshape needs row-major contiguous storage (PyPTO's orchestration refuses both too).
# run: --entry nz_weight
# run: --entry mx_scales
# run: --entry reshape_dn
# run: --entry reshape_to_dn
import pypto.language as pl


@pl.jit.incore
def load_nz(w: pl.Tensor[[16, 16], pl.FP16, pl.NZ], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]):
    t = pl.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
    out = pl.store(pl.move(t, target_memory=pl.Mem.Vec), [0, 0], out)
    return out


@pl.jit
def nz_weight(w: pl.Tensor[[16, 16], pl.FP16, pl.NZ], out: pl.Out[pl.Tensor[[16, 16], pl.FP16]]):
    out = load_nz(w, out)
    return out


@pl.jit.incore
def load_mx(s: pl.Tensor[[16, 32], pl.FP8E8M0, pl.MX_B_NN], out: pl.Out[pl.Tensor[[16, 32], pl.FP8E8M0]]):
    t = pl.load(s, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
    out = pl.store(t, [0, 0], out)
    return out


@pl.jit
def mx_scales(s: pl.Tensor[[16, 32], pl.FP8E8M0, pl.MX_B_NN], out: pl.Out[pl.Tensor[[16, 32], pl.FP8E8M0]]):
    out = load_mx(s, out)
    return out


@pl.jit.incore
def copy_flat(x: pl.Tensor[[8], pl.FP32], out: pl.Out[pl.Tensor[[8], pl.FP32]]):
    out = pl.store(pl.load(x, [0], [8]), [0], out)
    return out


@pl.jit
def reshape_dn(a: pl.Tensor[[2, 4], pl.FP32], out: pl.Out[pl.Tensor[[8], pl.FP32]]):
    dn = pl.tensor.as_layout(a, pl.TensorLayout.DN)
    flat = pl.tensor.view(dn, [8])
    out = copy_flat(flat, out)
    return out


@pl.jit.incore
def copy_dn(
    x: pl.Tensor[[4, 2], pl.FP32, pl.TensorView(stride=[1, 4], layout=pl.TensorLayout.DN)],
    out: pl.Out[pl.Tensor[[4, 2], pl.FP32]],
):
    out = pl.store(pl.load(x, [0, 0], [4, 2]), [0, 0], out)
    return out


@pl.jit
def reshape_to_dn(a: pl.Tensor[[8], pl.FP32], out: pl.Out[pl.Tensor[[4, 2], pl.FP32]]):
    v = pl.tensor.view(a, [4, 2], layout=pl.TensorLayout.DN)
    out = copy_dn(v, out)
    return out
