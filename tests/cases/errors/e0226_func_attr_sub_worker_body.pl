# A HOST SubWorker's Python body still has its pl.func_attr prologue read: a directive
# after another statement (E0226), a key set twice (E0226) and a directive that is not one
# dict literal (E0217) are errors there too.
import pypto.language as pl


@pl.program
class Callbacks:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def late(v: pl.Tensor[[8], pl.FP32]):
        total = 0
        pl.func_attr({"kind": 1})

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def twice(v: pl.Tensor[[8], pl.FP32]):
        pl.func_attr({"kind": 1})
        pl.func_attr({"kind": 2})

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def not_a_dict(v: pl.Tensor[[8], pl.FP32]):
        pl.func_attr(["kind"])
