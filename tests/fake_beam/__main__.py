"""Serve the fake Beam gateway from the command line, for reproducing runs by hand:

    python -m tests.fake_beam --port 50100 &
    BEAM_TOKEN=fake-token GATEWAY_HOST=127.0.0.1 GATEWAY_PORT=50100 \\
        rlvr-grade score rows.jsonl -o out.jsonl --backend beam --concurrency 64
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from tests.fake_beam import FakeGateway


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fake_beam", description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    ap.add_argument("--python", default=sys.executable, help="interpreter that `python3` in a sandbox means")
    ap.add_argument("--token", default="fake-token", help="the bearer token clients must send")
    ap.add_argument("--die-after-creates", type=int, default=None, help="go away when sandbox number N+1 is requested")
    ap.add_argument("--create-delay", type=float, default=0.0, help="seconds each sandbox create takes")
    args = ap.parse_args()
    gw = FakeGateway(python=args.python, port=args.port, token=args.token)
    gw.die_after_creates = args.die_after_creates
    gw.create_delay = args.create_delay
    gw.start()
    print(f"fake beam gateway on 127.0.0.1:{gw.port} token={gw.token}", flush=True)
    done = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: done.set())
    while not done.wait(0.2):
        if gw.dead:
            break
    gw.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
