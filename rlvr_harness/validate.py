"""Runs INSIDE a validator sandbox (never the candidate's): the Kattis/ICPC output-validator
protocol. The validator is compiled once, then for each case runs as
`validator input answer feedback_dir [args] < team_output`; exit 42 accepts, 43 rejects,
anything else is a judge error. Each case is reported as passed (42), "WA: <feedback>" (43)
or "JE: <how>"."""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

from rlvr_harness.stdio import describe, harden_parent, prepare, run_process
from rlvr_harness.wire import CheckPayload, ValidateOptions

Report = Callable[[dict[str, Any]], None]
ACCEPT, REJECT = 42, 43


def run(payload: CheckPayload, report: Report, workdir: str, testdir: str = "") -> None:
    harden_parent()
    opts: ValidateOptions = payload.options
    files = dict(opts.files)
    for name, content in files.items():
        with open(os.path.join(workdir, os.path.basename(name)), "w", encoding="utf-8") as fh:
            fh.write(content)
    language = opts.language
    main = os.path.basename(opts.main)
    if language == "python":
        argv = [sys.executable, "-s", os.path.join(workdir, main)]
    elif opts.binary:  # built by an earlier validator check of this run
        import base64

        path = os.path.join(workdir, "validator_bin")
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(opts.binary))
        os.chmod(path, 0o755)
        argv = [path]
    else:
        built = prepare(files[main], language, "", 1024, report, workdir)
        if built is None:
            return
        argv = built[0]
        if opts.send_binary and language in ("c", "cpp"):
            # Sent before any team output is read, so nothing a candidate wrote can shape it.
            import base64

            with open(argv[0], "rb") as fh:
                report({"ev": "test", "id": "binary", "outcome": "passed", "output": base64.b64encode(fh.read()).decode()})
    args = list(opts.args)
    cpu = opts.case_cpu_s
    for case in opts.cases:
        i = case.i
        paths = {}
        for key in ("input", "answer", "output"):
            paths[key] = os.path.join("/tmp", f"v_{key}")
            with open(paths[key], "w", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(getattr(case, key))
        fb = "/tmp/v_feedback/"
        os.makedirs(fb, exist_ok=True)
        for f in os.listdir(fb):
            os.unlink(os.path.join(fb, f))
        res = run_process(argv + [paths["input"], paths["answer"], fb] + args, paths["output"], cpu, cpu * 3 + 5, 1 << 16)
        feedback = ""
        for name in ("judgemessage.txt", "teammessage.txt"):
            try:
                with open(os.path.join(fb, name), encoding="utf-8", errors="replace") as fh:
                    feedback = feedback or fh.read().strip().splitlines()[0][:300]
            except (OSError, IndexError):
                pass
        if res.exit_code == ACCEPT:
            report({"ev": "test", "id": f"case:{i}", "outcome": "passed", "msg": feedback})
        elif res.exit_code == REJECT:
            report({"ev": "test", "id": f"case:{i}", "outcome": "failed", "msg": f"WA: {feedback}"})
        else:
            report({"ev": "test", "id": f"case:{i}", "outcome": "error", "msg": f"JE: validator {describe(res, cpu)}"})
    report({"ev": "done"})
