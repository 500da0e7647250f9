# E0217: checks of ops.md §2 that plc lacked (issue 11): a slice's dropped dimension keeps
# one element (its valid extent when valid_shape is given); a matmul_acc accumulator has
# the product's shape ([M, N], after a_trans/b_trans for tensors); tensor.write/tile.write
# write a value of the element dtype (a literal takes it); tile.sel's lhs and rhs
# broadcast; tile.sels(mask, src, tmp, scalar) takes a 2-D mask of 8/16/32-bit integers, a
# src of INT8..UINT32/FP16/FP32 and a scalar of src's dtype. Each line marked "fine" is
# accepted.
import pypto.language as pl


@pl.program
class OpChecks:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        n: pl.Scalar[pl.INT32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 32])
        row = pl.tile.slice(t, [1, 32], [0, 0], drop_dims=[0])  # fine
        part = pl.tile.slice(t, [4, 32], [0, 0], valid_shape=[1, 32], drop_dims=[0])  # fine
        wide = pl.tile.slice(t, [2, 32], [0, 0], drop_dims=[0])
        t = pl.tile.write(t, [0, 0], 1)  # fine: a literal
        t = pl.tile.write(t, [0, 0], n)
        u = pl.load(a, [0, 0], [16, 16])
        mask = pl.tile.cmp(t, t, cmp_type=2)
        tmp = pl.tile.create([16, 32], dtype=pl.FP32)
        fine = pl.tile.sel(mask, t, t, tmp)  # fine
        odd = pl.tile.sel(mask, t, u, tmp)
        kept = pl.tile.sels(mask, t, tmp, -1.0)  # fine
        bad_mask = pl.tile.sels(t, t, tmp, -1.0)
        ints = pl.tile.create([16, 32], dtype=pl.INT64)
        bad_src = pl.tile.sels(mask, ints, tmp, 0)
        bad_scalar = pl.tile.sels(mask, t, tmp, n)
        l = pl.load(a, [0, 0], [16, 32], target_memory=pl.MemorySpace.Left)
        r = pl.load(a, [0, 0], [32, 16], target_memory=pl.MemorySpace.Right)
        acc = pl.tile.create([16, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
        acc = pl.tile.matmul_acc(acc, l, r)  # fine
        small = pl.tile.create([8, 16], dtype=pl.FP32, target_memory=pl.MemorySpace.Acc)
        small = pl.tile.matmul_acc(small, l, r)
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[32, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        row = pl.slice(a, [1, 32], [3, 0], drop_dims=[0])  # fine
        rows = pl.slice(a, [4, 32], [3, 0], drop_dims=[0])
        cols = pl.tensor.slice(a, [16, 8], [0, 0], valid_shape=[16, 1], drop_dims=[1])  # fine
        acc = pl.create_tensor([16, 16], dtype=pl.FP32)
        acc = pl.tensor.matmul_acc(acc, a, b)  # fine
        at = pl.create_tensor([32, 32], dtype=pl.FP32)
        at = pl.tensor.matmul_acc(at, b, a, a_trans=True, b_trans=True)
        wrong = pl.create_tensor([16, 32], dtype=pl.FP32)
        wrong = pl.tensor.matmul_acc(wrong, a, b)
        i = pl.tensor.dim(a, 0)
        a = pl.tensor.write(a, [0, 0], 2.0)  # fine
        a = pl.tensor.write(a, [0, 0], i)
        out = self.tiles(a, 3, out)
        return out
