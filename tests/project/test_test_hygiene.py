"""The tests' own hygiene: no fixture, of any scope, reaches the user's caches.

A module-scoped fixture that starts a grader is set up before the function-scoped autouse
fixture that gave each test a private environments root: it used the machine's ~/.cache
environments and result cache (tests/conftest.py now redirects them for the session and for
each module before any fixture of that scope starts)."""

from __future__ import annotations

import os

import pytest


def _where_the_grader_keeps_things() -> dict[str, str]:
    from rlvr_grade.cache import default_cache_path
    from rlvr_grade.envs.paths import envs_root
    from rlvr_grade.sandbox.root import farm_base

    return {"environments": envs_root(), "result cache": default_cache_path(), "roots": farm_base(),
            "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))}


@pytest.fixture(scope="session")
def seen_by_a_session_fixture() -> dict[str, str]:
    return _where_the_grader_keeps_things()


@pytest.fixture(scope="module")
def seen_by_a_module_fixture() -> dict[str, str]:
    return _where_the_grader_keeps_things()


@pytest.mark.parametrize("scope", ["session", "module", "function"])
def test_fixtures_of_every_scope_keep_the_graders_things_in_this_session_s_folder(
        scope, seen_by_a_session_fixture, seen_by_a_module_fixture, tmp_path_factory):
    seen = {"session": seen_by_a_session_fixture, "module": seen_by_a_module_fixture,
            "function": _where_the_grader_keeps_things()}[scope]
    base = os.path.realpath(tmp_path_factory.getbasetemp())
    outside = {what: path for what, path in seen.items()
               if os.path.commonpath([base, os.path.realpath(path)]) != base}
    assert not outside, f"a {scope}-scoped fixture reaches caches outside this session's folder {base}: {outside}"


def test_each_module_has_its_own_environments_root(seen_by_a_session_fixture, seen_by_a_module_fixture):
    # A module's graders find no environment another module built (and the session's is not theirs).
    assert seen_by_a_module_fixture["environments"] != seen_by_a_session_fixture["environments"]
    assert seen_by_a_module_fixture["result cache"] != seen_by_a_session_fixture["result cache"]
