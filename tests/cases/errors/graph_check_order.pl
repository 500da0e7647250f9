# Order of the pl.graph checks (reference §6.1): `as`, function kind, enclosing device
# scope (InCore, then Hierarchy, Cluster, Spmd), enclosing graph region, number of
# positional arguments, keywords, string literal, identifier/empty. Each region below
# breaks two or more rules; exactly one diagnostic, for the first rule, is reported per
# region.
import pypto.language as pl

NAME = "layer"


@pl.program
class Order:
    # Function kind before the enclosing scope and the argument count: E0307.
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.cluster():
            with pl.graph():
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # Enclosing device scope before the enclosing graph and the name: E0306.
    @pl.function
    def scope_before_graph(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("outer"):
            with pl.at(level=pl.Level.CORE_GROUP):
                with pl.graph(""):
                    y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # A core-group region is checked before an SPMD region around it: `pl.at(level=...)`.
    @pl.function
    def incore_before_spmd(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.spmd(4):
            blk = pl.tile.get_block_idx()
            with pl.at(level=pl.Level.CORE_GROUP):
                with pl.graph("layer"):
                    y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # A hierarchy region is checked before a cluster inside it: `pl.at(level=..., role=...)`.
    @pl.function
    def hierarchy_before_cluster(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.at(level=pl.Level.HOST):
            with pl.cluster():
                with pl.graph("layer"):
                    y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # Enclosing graph before the argument count: E0305.
    @pl.function
    def nested_before_arity(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("outer"):
            with pl.graph("a", "b"):
                y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # Argument count before an unexpected keyword: E0301.
    @pl.function
    def arity_before_keyword(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph("a", "b", name_hint="c"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y

    # An unexpected keyword before a name that is not a string literal: E0308.
    @pl.function
    def keyword_before_literal(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        with pl.graph(NAME, name_hint="layer"):
            y: pl.Tensor[[64], pl.FP32] = pl.add(x, x)
        return y
