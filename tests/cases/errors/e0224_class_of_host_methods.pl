# An `@pl.program` class whose methods all lack `@pl.function`: they are host code
# (skipped, with a note), and the class is left with no function, which is E0224.
import pypto.language as pl


@pl.program
class OnlyHelpers:
    def helper(self):
        return 1

    def other(self, n):
        return n + 1
