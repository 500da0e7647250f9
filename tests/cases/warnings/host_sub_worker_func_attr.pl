# The pl.func_attr prologue of a HOST SubWorker's Python body is read as pl (its values may
# name the parameters) and kept as the function's attributes; the rest stays Python.
import pypto.language as pl


@pl.program
class Callbacks:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def check(v: pl.Tensor[[8], pl.FP32]) -> pl.Tensor[[8], pl.FP32]:
        """Runs in the host process."""
        pl.func_attr({"watched": v})
        pl.func_attr({"label": "check"})
        if v is None:
            return None
        return v
