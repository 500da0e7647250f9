# Module constants separated by semicolons.
import pypto.language as pl

A = 1; B = A * 2;
C, D = 3, 4
