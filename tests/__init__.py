"""Test package (so `python -m tests.fake_beam` works).

Before anything imports grpc (the fake Beam gateway, beam-client): its fork handlers crash
forks made while its threads run, such as the local sandbox's zygote spawns in later tests,
and its C core would log connection events into the test output."""

import os

os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")
os.environ.setdefault("GRPC_VERBOSITY", "NONE")
