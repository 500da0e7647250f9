# pl.dump_tag(t) takes one positional argument (E0202), the bare name (E0217) of a tensor
# (E0217) defined at that point (E0201).
import pypto.language as pl


@pl.program
class Tags:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, data: pl.Tensor[[16], pl.FP32], count: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16], pl.FP32]:
        pl.dump_tag(data)
        pl.dump_tag(data, data)
        pl.dump_tag(pl.add(data, data))
        pl.dump_tag(count)
        pl.dump_tag(later)
        later = pl.add(data, data)
        return later
