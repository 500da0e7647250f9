# A program factory: `BuildRowScale` computes its sizes from its parameters and builds a
# program, as PyPTO's model examples do. plc evaluates it at compile time for the first
# call in `main()` (N0004 says which, and lists the other call; `--factory
# 'BuildRowScale(batch=4, cols=128, precise=False)'` selects that one). The kernel comes
# from a second factory, called inside the first.
import pypto.language as pl

TILE = 16


def make_scale_kernel(rows: int, cols: int, scale: float):
    """A kernel factory: an InCore kernel scaling TILE rows of a [rows, cols] tensor."""

    @pl.function(type=pl.FunctionType.InCore)
    def scale_rows(
        x: pl.Tensor[[rows, cols], pl.FP32],
        row: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
    ) -> pl.Tensor[[rows, cols], pl.FP32]:
        t = pl.load(x, [row, 0], [TILE, cols])
        out = pl.store(pl.mul(t, scale), [row, 0], out)
        return out

    return scale_rows


def BuildRowScale(batch: int, cols: int = 64, precise: bool = True):
    """The program for `batch` tiles of TILE rows and `cols` columns."""
    rows = batch * TILE
    assert cols % 16 == 0, "cols must be a multiple of 16"
    if precise:
        scale = 1.0 / cols
    else:
        scale = 0.5
    kernel = make_scale_kernel(rows, cols, scale)

    @pl.program
    class RowScale:
        @pl.function(type=pl.FunctionType.Orchestration)
        def run(
            self,
            x: pl.Tensor[[rows, cols], pl.FP32],
            out: pl.Out[pl.Tensor[[rows, cols], pl.FP32]],
        ) -> pl.Tensor[[rows, cols], pl.FP32]:
            for b in pl.range(batch):
                out = kernel(x, b * TILE, out)
            return out

    return RowScale


def main():
    batch = 2
    small = BuildRowScale(batch=batch, cols=32)
    large = BuildRowScale(4, cols=128, precise=False)
    print(small, large)


if __name__ == "__main__":
    main()
