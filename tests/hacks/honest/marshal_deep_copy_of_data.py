# ruff: noqa
# Competitive programmers' fast deep copy: marshal of plain data (no code object).
import marshal


def f(x):
    # competitive programmers' fast deep copy
    grid = marshal.loads(marshal.dumps([[x, 1], [2, 3]]))
    return grid[0][0] + grid[0][1]


if __name__ == "__main__":
    print(f(int(input())))
