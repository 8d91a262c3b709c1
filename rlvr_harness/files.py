"""The files a check starts with, by name. The worker writes them (sandbox/zygote.py
check_files), the runner reads them (runner.py), and the grader compiles a candidate under the
same name (prepared.pack_program): one place, so neither needs the other to know them."""

# Where a check sees its environment's venv: its interpreter is /env/bin/python there, whichever
# cache folder holds the environment. The sandbox mounts it there (sandbox/root.py, local.py,
# gvisor.py); the environment's modules are compiled under that name (envs/store.py).
ENV_AT = "/env"
# Where a check sees its base interpreter, wherever it is installed (sandbox/interpreter.py).
PYTHON_AT = "/python"

WORKDIR_SOLUTION = "solution.py"
TEST_MODULE = "test_solution.py"
TESTS_FILENAME = "tests.py"  # asserts-style test code; a trusted file for the guard
# What the pytest test module's file holds on disk: pytest is given the source from memory.
TEST_PLACEHOLDER = "# the tests are not on disk: the grader gives pytest their source from memory\n"
