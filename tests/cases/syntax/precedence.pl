# Operator precedence and associativity, Python's rules.
import pypto.language as pl

# `**` is right-associative and binds tighter than a unary minus on its left,
# but a unary minus on its right is part of the exponent.
P1 = 2 ** 3 ** 2
P2 = -2 ** 2
P3 = 2 ** -1
P4 = (-2) ** 2
P5 = -(-3)
P6 = - - 4

# Left-associative tiers.
A1 = 10 - 4 - 3
A2 = 64 // 4 * 2
A3 = 7 % 4 % 3
A4 = 100 / 10 / 5
A5 = 1 + 2 * 3 - 4 // 2 % 3
A6 = (1 + 2) * 3


@pl.jit
def precedence(x: pl.Tensor, n: pl.INDEX):
    b1 = 1 | 2 ^ 3 & 4 << 1 + 2
    b2 = ~n & 255
    b3 = (n >> 2) << 2
    c1 = n + 1 < n * 2
    c2 = not n == 3
    c3 = not n > 1 and n < 10 or n == 0
    c4 = n >= 0 and (n != 4 or not n <= 2)
    c5 = -n ** 2 + n // -3
    c6 = not not n
    c7 = n or n and not not n or n and n and n
    c8 = not n < 1 or not (n or n)
    return b1, b2, b3, c1, c2, c3, c4, c5, c6, c7, c8
