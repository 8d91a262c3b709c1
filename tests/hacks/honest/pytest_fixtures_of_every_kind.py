# ruff: noqa
# Correct; the tests use fixtures of every kind: their own (renamed with name=, parametrized,
# yield, module-scoped, autouse, in a class, depending on pytest's), pytest's builtins, and
# usefixtures. Each is the tests' or pytest's own: the program defines none.
def f(x):
    return x + 1


TESTS_PYTEST = """
import pytest
from solution import *

SEEN = []


@pytest.fixture(name="cases")
def _cases_fixture():
    return [(1, 2), (41, 42), (-3, -2)]


@pytest.fixture(params=[0, 10])
def offset(request):
    return request.param


@pytest.fixture(scope="module")
def big():
    yield 10 ** 6


@pytest.fixture(autouse=True)
def count():
    SEEN.append(1)
    yield
    SEEN.append(2)


@pytest.fixture
def path_of(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path / "out.txt"


@pytest.fixture
def marker():
    SEEN.append("m")


def test_cases(cases):
    for x, want in cases:
        assert f(x) == want


def test_offset(offset):
    assert f(offset) == offset + 1


def test_big(big, path_of, capsys):
    path_of.write_text(str(f(big)))
    print(f(big))
    assert path_of.read_text() == "1000001"
    assert capsys.readouterr().out == "1000001\\n"


@pytest.mark.usefixtures("marker")
def test_usefixtures():
    assert "m" in SEEN and f(0) == 1


class TestInClass:
    @pytest.fixture
    def base(self):
        return 5

    def test_base(self, base):
        assert f(base) == 6
"""
