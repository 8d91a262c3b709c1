"""tinyframe and tinycore: a stand-in for pandas (and the numpy under it) that every test
environment can hold, written out as wheels by tests/conftest.py's wheelhouse. What the
tests rely on lives where pandas keeps it: `frame.equals(other)` runs a method of a class in
a module no test names (tinyframe.core.managers.BlockManager, as
pandas.core.internals.managers.BaseBlockManager), the assert helper's work is done by module
globals of a private module (tinyframe._testing.asserters), and both end in a function of
another package (tinycore._impl, as numpy's). The library also changes its own state as it
runs, as real ones do (a module `__getattr__` that binds a submodule on first use, a class
attribute made on first call, an lru_cache, a warning's registry): the honest fixtures use
those, and the restorer must let them work (tests/hacks/honest/tinyframe_lazy_state.py)."""

TINYCORE = {
    "tinycore/__init__.py": "from tinycore._impl import same\n",
    "tinycore/_impl.py": (
        "def _eq(x, y):\n"
        "    return type(x) is type(y) and x == y\n"
        "\n"
        "\n"
        "def same(a, b):\n"
        "    return len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b))\n"
    ),
}

TINYFRAME = {
    "tinyframe/__init__.py": (
        "from tinyframe.core.frame import Frame\n"
        "from tinyframe import testing\n"
        "\n"
        "\n"
        "def __getattr__(name):  # a submodule bound on first use (numpy's and pandas' lazy attributes)\n"
        "    if name == 'plotting':\n"
        "        import tinyframe.plotting as plotting\n"
        "\n"
        "        globals()['plotting'] = plotting\n"
        "        return plotting\n"
        "    raise AttributeError(name)\n"
    ),
    "tinyframe/plotting.py": "def kind():\n    return 'line'\n",
    "tinyframe/core/__init__.py": "",
    "tinyframe/core/managers.py": (
        "import functools\n"
        "\n"
        "import tinycore\n"
        "\n"
        "\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def _width(n):\n"
        "    return n\n"
        "\n"
        "\n"
        "class BlockManager:\n"
        "    def __init__(self, values):\n"
        "        self.values = tuple(values)\n"
        "\n"
        "    def equals(self, other):\n"
        "        return type(other) is BlockManager and tinycore.same(self.values, other.values)\n"
        "\n"
        "    def width(self):\n"
        "        return _width(len(self.values))\n"
    ),
    "tinyframe/core/frame.py": (
        "import warnings\n"
        "\n"
        "from tinyframe.core.managers import BlockManager\n"
        "\n"
        "\n"
        "class Frame:\n"
        "    def __init__(self, values):\n"
        "        self._mgr = BlockManager(values)\n"
        "\n"
        "    def equals(self, other):\n"
        "        return isinstance(other, Frame) and self._mgr.equals(other._mgr)\n"
        "\n"
        "    def summary(self):\n"
        "        cls = type(self)\n"
        "        if '_summary_cache' not in cls.__dict__:  # made on first use, by the library itself\n"
        "            cls._summary_cache = {}\n"
        "            warnings.warn('summary() builds its cache', UserWarning)\n"
        "        key = self._mgr.values\n"
        "        if key not in cls._summary_cache:\n"
        "            cls._summary_cache[key] = (self._mgr.width(), sum(key))\n"
        "        return cls._summary_cache[key]\n"
    ),
    "tinyframe/_testing/__init__.py": "",
    "tinyframe/_testing/asserters.py": (
        "import tinycore\n"
        "\n"
        "\n"
        "def assert_values_equal(left, right):\n"
        "    if not tinycore.same(left, right):\n"
        "        raise AssertionError(f'{left!r} != {right!r}')\n"
        "\n"
        "\n"
        "def assert_frame_equal(left, right):\n"
        "    assert_values_equal(left._mgr.values, right._mgr.values)\n"
    ),
    "tinyframe/testing.py": "from tinyframe._testing.asserters import assert_frame_equal\n",
}
