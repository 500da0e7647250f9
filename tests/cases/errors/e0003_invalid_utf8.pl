# E0003: the byte 0xFF is not valid UTF-8; nothing after it is read.
import pypto.language as pl

X = 1
Y = "ÿ"
Z = $
