# E0513: `pl.system.task_dummy` is a node of the recorded graph too (PyPTO's
# test_dummy_tasks_count_toward_the_node_limit): one kernel launch and 2000 dummy tasks.
import pypto.language as pl


@pl.program
class Before:
    @pl.function(type=pl.FunctionType.Graph)
    def layer(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t: pl.Tile[[128, 128], pl.FP32] = pl.load(a, [0, 0], [128, 128])
            pl.store(t, [0, 0], c)
        with pl.manual_scope():
            tids = pl.array.create(4, pl.TASK_ID)
            for _ in pl.range(2000):
                pl.system.task_dummy(deps=[tids])
        return c

    @pl.function
    def main(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        c: pl.InOut[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        c = self.layer(a, c)
        return c
