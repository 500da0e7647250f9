# E0207/E0206: the arguments of a pl.TileView(...) or pl.TensorView(...) in an annotation, as
# PyPTO's type resolver reads them: keywords only, each a field the view has; valid_shape
# and stride list literals; a TileView's blayout/slayout a pl.TileLayout member, pad a
# pl.PadValue member, fractal an integer; a TensorView's layout a tensor layout. A module
# constant in a Tensor annotation's layout position holds a layout. The last function
# writes every field the accepted way.
import pypto.language as pl

L = 3


@pl.function(type=pl.FunctionType.InCore)
def tile_views(a: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
    t1: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView([16, 16])] = pl.load(a, [0, 0], [16, 16])
    t2: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(shape=[16, 16])] = pl.load(a, [0, 0], [16, 16])
    t3: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=16)] = pl.load(a, [0, 0], [16, 16])
    t4: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.diagonal)] = pl.load(a, [0, 0], [16, 16])
    t5: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.nan)] = pl.load(a, [0, 0], [16, 16])
    t6: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec, pl.TileView(fractal=1.5)] = pl.load(a, [0, 0], [16, 16])
    return a


@pl.function
def tensor_views(
    a: pl.Tensor[[16, 16], pl.FP32, pl.TensorView([16, 1])],
    b: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(layout=pl.TensorLayout.XY)],
    c: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(strides=[16, 1])],
    d: pl.Tensor[[16, 16], pl.FP32, L],
) -> pl.Tensor[[16, 16], pl.FP32]:
    return a


@pl.function(type=pl.FunctionType.InCore)
def accepted(
    a: pl.Tensor[[16, 16], pl.FP32, pl.TensorView(valid_shape=[16, 16], stride=[16, 1], layout=pl.TensorLayout.ND)],
) -> pl.Tensor[[16, 16], pl.FP32]:
    t: pl.Tile[
        [16, 16],
        pl.FP32,
        pl.Mem.Vec,
        pl.TileView(
            valid_shape=[16, 16],
            stride=[16, 1],
            start_offset=0,
            blayout=pl.TileLayout.row_major,
            slayout=pl.TileLayout.none_box,
            fractal=512,
            pad=pl.PadValue.zero,
        ),
    ] = pl.load(a, [0, 0], [16, 16])
    return a
