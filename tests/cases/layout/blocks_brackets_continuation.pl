x = 1
if a:
    # comment at a lower column
  # another
    f(a,
      b)
    y = 2 + \
        3

    if b:
        z = """multi
line"""
w = 4