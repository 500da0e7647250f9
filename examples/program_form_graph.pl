# Program form: an `@pl.program` class whose methods take `self` and call each other as
# `self.f(...)`. A Graph method blends one 128-row band of a weight stack into a running
# state; the Orchestration entry calls it once per layer, so the runtime can record the
# layer once and replay it.
# Shows: `@pl.program`, `@pl.function(type=pl.FunctionType.Graph / Orchestration)`, fully
# typed `pl.Tensor[[dims], dtype]` parameters (a dim computed from constants),
# `pl.InOut[...]`, `pl.Scalar[pl.INDEX]`, return annotations, annotated assignments with
# `pl.Tile[...]`.
import pypto.language as pl

LAYERS = 4
BAND = 128
WIDTH = 128


@pl.program
class LayerStack:
    @pl.function(type=pl.FunctionType.Graph)
    def blend_layer(
        self,
        weights: pl.Tensor[[LAYERS * BAND, WIDTH], pl.FP32],
        state: pl.InOut[pl.Tensor[[BAND, WIDTH], pl.FP32]],
        layer: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[BAND, WIDTH], pl.FP32]:
        row = layer * BAND
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="blend_band"):
            w: pl.Tile[[128, 128], pl.FP32] = pl.load(weights, [row, 0], [BAND, WIDTH])
            s: pl.Tile[[128, 128], pl.FP32] = pl.load(state, [0, 0], [BAND, WIDTH])
            pl.store(pl.mul(pl.add(s, w), 0.5), [0, 0], state)
        return state

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        weights: pl.Tensor[[512, 128], pl.FP32],
        state: pl.InOut[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        for layer in pl.range(LAYERS):
            state = self.blend_layer(weights, state, layer)
        return state
