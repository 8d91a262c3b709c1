"""Issue 15, pandas: the tests' elementwise comparisons of pandas' own DataFrames, Series and
Indexes are pandas' (`(got == want).all().all()`, `df[df["a"] > 1]`, `s * 2 == ...`), while
a subclass with a lying `__eq__`, a column of the candidate's objects, a method planted on one
frame or pandas patched during the step still compare as nothing (strict.py `pandas_op`).
pandas is not a dev dependency: these skip where this interpreter has none."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import requires_root

pd = pytest.importorskip("pandas", reason="pandas is not installed here (not a dev dependency)")


def _helpers(restored: list[int] | None = None):
    from rlvr_harness import strict

    ns = strict.make_namespace()
    ns[strict.REGISTER](sys.modules["pandas"])  # what the runner does for the tests' `import pandas`
    if restored is not None:
        ns[strict.RESTORER](lambda: restored.append(1))
    return ns[strict.CMP], ns[strict.OP]


class Liar:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


class LyingFrame(pd.DataFrame):
    @property
    def _constructor(self):
        return LyingFrame

    def __eq__(self, other):
        return pd.DataFrame(True, index=other.index, columns=other.columns)


def _frame():
    return pd.DataFrame({"a": [1, 2], "b": [3.0, 4.5], "s": ["x", "y"]})


def test_pandas_objects_of_pandas_compare_as_pandas_does_and_pandas_is_put_back_first():
    restored: list[int] = []
    cmp, op = _helpers(restored)
    got, want = _frame(), _frame()
    assert cmp(0, got, want).all().all()
    assert not cmp(1, got, want).any().any()
    assert cmp(0, got["a"], pd.Series([1, 2], name="a")).tolist() == [True, True]
    assert cmp(4, got["b"], 4).tolist() == [False, True]  # order: `df[df["b"] > 4]`
    assert cmp(0, op(2, got["a"], 2), pd.Series([2, 4], name="a")).all()  # arithmetic
    assert restored  # pandas' classes and modules put back before pandas compared
    kinds = [
        pd.DataFrame({"t": pd.to_datetime(["2020-01-01", "2020-01-02"])}),
        pd.Series(["a", "b", "a"], dtype="category"),
        pd.Series([1, None, 3], dtype="Int64"),
        pd.DataFrame({"v": [1, 2]}, index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)])),
        pd.Series([1, "a", None], dtype=object),
        pd.Series(pd.period_range("2020", periods=2, freq="M")),
        pd.DataFrame({"a": [3, 1, 2]}).sort_values("a").reset_index(drop=True),
    ]
    for x in kinds:
        r = cmp(0, x, x.copy())
        assert type(r) is type(x), (x, r)


def test_a_lying_subclass_a_column_of_liars_or_a_planted_method_equal_nothing():
    cmp, _ = _helpers()
    want = _frame()
    lying = LyingFrame({"a": [0, 0], "b": [0.0, 0.0], "s": ["q", "q"]})
    liars = pd.DataFrame({"a": [Liar(), Liar()], "b": [Liar(), Liar()], "s": [Liar(), Liar()]})
    planted = pd.DataFrame({"a": [0, 0], "b": [0.0, 0.0], "s": ["q", "q"]})
    object.__setattr__(planted, "_cmp_method", lambda other, op: pd.DataFrame(True, index=other.index, columns=other.columns))
    in_attrs = _frame()
    in_attrs.attrs["x"] = Liar()
    for got in (lying, liars, planted, in_attrs):
        assert cmp(0, got, want) is False and cmp(0, want, got) is False
        assert cmp(1, got, want) is True
    assert cmp(0, pd.Series([Liar()]), pd.Series([1])) is False
    assert cmp(0, _frame(), [Liar()]) is False  # pandas beside a value nobody vouches for


STYLES = {
    "asserts": "import pandas as pd\n{body}\n",
    "pytest": "import pandas as pd\nfrom solution import *\n\n\ndef test_it():\n    {body}\n",
}
WANT = "pd.DataFrame({'a': [1, 2], 'b': [3.0, 4.5]})"
BODIES = [
    f"assert (make() == {WANT}).all().all()",
    "assert (make()['a'] == pd.Series([1, 2], name='a')).all()",
    "assert (make()['a'] == 1).sum() == 1",
    "assert len(make()[make()['a'] > 1]) == 1",
    f"pd.testing.assert_frame_equal(make(), {WANT})",
    f"assert make().equals({WANT})",
]
HONEST = "import pandas as pd\n\n\ndef make():\n    return pd.DataFrame({'a': [1, 2], 'b': [3.0, 4.5]})\n"
WRONG = "pd.DataFrame({'a': [0, 0], 'b': [0.0, 0.0]})"
HACKS = {
    "subclass_liar": (
        "import pandas as pd\n\n\nclass F(pd.DataFrame):\n    @property\n    def _constructor(self):\n        return F\n\n"
        "    def __eq__(self, o):\n        return pd.DataFrame(True, index=o.index, columns=o.columns)\n\n\n"
        "def make():\n    return F({'a': [0, 0], 'b': [0.0, 0.0]})\n"),
    "liars_in_columns": (
        "import pandas as pd\n\n\nclass L:\n    def __eq__(self, o):\n        return True\n\n    __hash__ = object.__hash__\n\n\n"
        "def make():\n    return pd.DataFrame({'a': [L(), L()], 'b': [L(), L()]})\n"),
    "method_planted_on_the_frame": (
        "import pandas as pd\n\n\ndef make():\n"
        f"    d = {WRONG}\n"
        "    object.__setattr__(d, '_cmp_method', lambda o, op: pd.DataFrame(True, index=o.index, columns=o.columns))\n"
        "    return d\n"),
    "pandas_patched_during_the_step": (
        "import pandas as pd\nimport pandas.core.arraylike as al\n\n\ndef make():\n"
        "    al.OpsMixin.__eq__ = lambda s, o: (pd.DataFrame(True, index=o.index, columns=o.columns)\n"
        "                                       if isinstance(o, pd.DataFrame) else pd.Series(True, index=o.index))\n"
        f"    return {WRONG}\n"),
}


@pytest.fixture(scope="module")
def pandas_env(tmp_path_factory, wheelhouse):
    """An environment holding this interpreter's pandas and what it needs, packed back into
    wheels and built offline (as tests/conftest.py's numpy_env)."""
    from importlib import metadata

    from rlvr_grade import envs
    from rlvr_grade.envs.spec import EnvSpec
    from tests.helpers.wheels import wheel_from_installed

    folder = tmp_path_factory.mktemp("pandas-wheels")
    for name in ("numpy", "pandas", "python-dateutil", "six", "tzdata"):
        try:
            wheel_from_installed(str(folder), name)
        except metadata.PackageNotFoundError:
            continue
    spec = EnvSpec.parse(packages=[f"pandas=={pd.__version__}"],
                         index=("--no-index", "--find-links", str(wheelhouse), "--find-links", str(folder)))
    try:
        return envs.build(spec, root=str(tmp_path_factory.mktemp("pandas-env")))
    except Exception as e:  # noqa: BLE001 - an installed pandas that cannot be packed back: say so
        pytest.skip(f"an environment with this interpreter's pandas could not be built: {e}")


@requires_root
def test_pandas_comparisons_in_a_check_honest_pass_and_hacks_score_zero(pandas_env):
    from rlvr_grade.api import Grader, ScoreOptions

    rows, names = [], []
    for style, tmpl in STYLES.items():
        for body in BODIES:
            rows.append({"completion": HONEST, "tests": tmpl.format(body=body)})
            names.append(("honest", style, body))
        for hack, code in HACKS.items():
            for body in BODIES[:2]:
                rows.append({"completion": code, "tests": tmpl.format(body=body)})
                names.append((hack, style, body))
    with Grader(ScoreOptions(concurrency=2, env=pandas_env)) as g:
        outs = g.grade(rows)
    wrong = [(n, o.reward, o.status, o.error) for n, o in zip(names, outs, strict=True)
             if o.reward != (1.0 if n[0] == "honest" else 0.0)]
    assert not wrong, wrong
