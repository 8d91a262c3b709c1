"""Trace the system calls real checks make after their seccomp filter is loaded: the evidence
sandbox/seccomp.py's allowlist is built from (not a list of dangers).

    .venv/bin/python scripts/trace_syscalls.py OUT_DIR [--workloads humaneval,mbpp,pytest,stdio,langs]
                                              [--pytest tests/test_x.py ...] [--no-seccomp]

Every seed interpreter of the local backend is started under `strace -f -ff` (so its workers,
their check children and whatever those exec are traced); the chosen workloads are graded with
generous limits (strace slows everything). Then, for each process that loaded the checks'
filter and for all it forked or exec'd after that, every call is counted by name and, for the
calls the filter looks into, by argument: ioctl requests, prctl options, fcntl commands, socket
families, clone flags, madvise advice, mmap/mprotect protections. Prints the table; writes
OUT_DIR/summary.json. Needs root and strace. With `--no-seccomp` the checks run unfiltered, to
see what a refused call's program would have done next."""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

LINE = re.compile(r"^(?:\d+:\d+:\d+(?:\.\d+)?\s+)?([a-z_0-9]+)\((.*)$")
ARG_OF = {"ioctl": 1, "prctl": 0, "fcntl": 1, "socket": 0, "socketpair": 0, "clone": 0, "madvise": 2,
          "mmap": 2, "mprotect": 2, "personality": 0, "setsockopt": 1, "getsockopt": 1, "clone3": 0,
          "arch_prctl": 0, "futex": 1, "rt_sigprocmask": 0, "prlimit64": 1, "setrlimit": 0, "sched_setscheduler": 1,
          "kill": 1, "tgkill": 2, "mremap": 3, "open": 1, "openat": 2, "unshare": 0, "seccomp": 0}


def _split_args(text: str) -> list[str]:
    out, depth, cur, quote = [], 0, [], False
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\":
                cur.append(text[i + 1] if i + 1 < len(text) else "")
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
            cur.append(ch)
        elif ch in "([{":
            depth += 1
            cur.append(ch)
        elif ch in ")]}":
            if depth == 0:
                out.append("".join(cur).strip())
                return out
            depth -= 1
            cur.append(ch)
        elif ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
        i += 1
    out.append("".join(cur).strip())
    return out


def parse(out_dir: str) -> dict:
    files = {int(f.rsplit(".", 1)[1]): f for f in glob.glob(os.path.join(out_dir, "t.*"))}
    children: dict[int, list[int]] = collections.defaultdict(list)
    lines: dict[int, list[str]] = {}
    for pid, path in files.items():
        with open(path, errors="replace") as fh:
            lines[pid] = fh.read().splitlines()
        for ln in lines[pid]:
            m = re.match(r"^(clone3?|fork|vfork)\(.*\)\s*=\s*(\d+)(?:\s*/\*\s*(\d+) in strace's PID NS)?", ln)
            if m:  # --decode-pids=pidns: a pid of a nested namespace reads "= 3 /* 12345 in strace's PID NS */"
                children[pid].append(int(m.group(3) or m.group(2)))
    names: collections.Counter = collections.Counter()
    args: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failed: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    filtered = 0

    def walk(pid: int, after: bool) -> None:
        nonlocal filtered
        if pid not in lines:
            return
        on = after
        for ln in lines[pid]:
            if not on:
                # The filter loaded (the seed's probes fail with EFAULT: not those).
                if ("PR_SET_SECCOMP, SECCOMP_MODE_FILTER" in ln or ln.startswith("seccomp(SECCOMP_SET_MODE_FILTER")) \
                        and ln.rstrip().endswith("= 0"):
                    on = True
                    filtered += 1
                continue
            m = LINE.match(ln)
            if not m or ln.startswith("+++") or ln.startswith("---"):
                continue
            name, rest = m.group(1), m.group(2)
            names[name] += 1
            if name in ARG_OF:
                parts = _split_args(rest)
                k = ARG_OF[name]
                if k < len(parts):
                    args[name][parts[k][:60]] += 1
            res = rest.rsplit("=", 1)[-1].strip()
            if res.startswith("-1"):
                failed[name][res.split(" ")[1] if " " in res else res] += 1
        for child in children.get(pid, []):
            walk(child, on)

    roots = set(files) - {c for cs in children.values() for c in cs}
    for r in roots:
        walk(r, False)
    return {"filtered_processes": filtered, "calls": dict(names.most_common()),
            "args": {k: dict(v.most_common()) for k, v in args.items()},
            "failed": {k: dict(v.most_common()) for k, v in failed.items()}}


def run(out_dir: str, workloads: list[str], pytest_files: list[str], seccomp: bool) -> None:
    from rlvr_grade.sandbox import local

    real = subprocess.Popen

    class Traced(real):  # type: ignore[misc, valid-type]
        def __init__(self, argv, *a, **kw):
            if isinstance(argv, list) and argv and argv[0] == sys.executable:
                argv = [shutil.which("strace"), "-f", "-ff", "-qq", "--decode-pids=pidns", "-s", "24", "-o", os.path.join(out_dir, "t"), *argv]
            super().__init__(argv, *a, **kw)

    local.subprocess.Popen = Traced  # type: ignore[attr-defined]
    if not seccomp:
        orig = local.LocalBackend.__init__

        def no_filter(self, *a, **kw):
            kw["seccomp"] = False
            orig(self, *a, **kw)

        local.LocalBackend.__init__ = no_filter  # type: ignore[method-assign]
    from bench import workloads as wl

    from rlvr_grade.api import Grader

    rows_by = {
        "humaneval": (lambda: wl.humaneval_canonical(1).rows, {"preset": "humaneval"}),
        "mbpp": (lambda: (w.rows if not isinstance(w := wl.mbpp_asserts(), str) else []), {"preset": "mbpp"}),
        "pytest": (lambda: wl.pytest_style(40, 40).rows, {"test_style": "pytest"}),
        "stdio": (lambda: (w.rows if not isinstance(w := wl.stdio_style(60), str) else []), {"test_style": "stdio"}),
        "langs": (_language_rows, {"test_style": "stdio"}),
    }
    for name in workloads:
        make, opts = rows_by[name]
        rows = make()
        with Grader(cache=None, timeout=60, concurrency=2, **opts) as g:
            outs = g.grade(rows)
        bad = collections.Counter(o.status for o in outs)
        print(f"{name}: {len(rows)} rows, {dict(bad)}", file=sys.stderr)
    if pytest_files:
        import pytest

        pytest.main(["-q", "-p", "no:cacheprovider", *pytest_files])


def _language_rows() -> list[dict]:
    c = '#include <stdio.h>\n#include <math.h>\n#include <stdlib.h>\n#include <string.h>\nint main(){long n; if(scanf("%ld",&n)!=1) return 1; double *a=malloc(8*n); for(long i=0;i<n;i++) a[i]=sqrt(i); char buf[64]; snprintf(buf,64,"%ld",n*2); puts(buf); free(a); return 0;}\n'
    cpp = ('#include <bits/stdc++.h>\nusing namespace std;\nint main(){ios::sync_with_stdio(false);cin.tie(nullptr);long long n;cin>>n;'
           'vector<long long> v(n);iota(v.begin(),v.end(),0);map<int,int> m;unordered_map<int,int> u;for(int i=0;i<n;i++){m[i]=i;u[i]=i;}'
           'sort(v.rbegin(),v.rend());string s=to_string(n*2);thread t([]{});t.join();cout<<s<<"\\n";}\n')
    java = ('import java.util.*;\nimport java.io.*;\npublic class Main { public static void main(String[] a) throws IOException {'
            ' BufferedReader r=new BufferedReader(new InputStreamReader(System.in)); long n=Long.parseLong(r.readLine().trim());'
            ' List<Long> l=new ArrayList<>(); for(long i=0;i<n;i++) l.add(i); Collections.sort(l); HashMap<Long,Long> h=new HashMap<>();'
            ' for (long x: l) h.put(x,x); StringBuilder sb=new StringBuilder(); sb.append(n*2); System.out.println(sb); } }\n')
    js = ('const lines=require("fs").readFileSync(0,"utf8").trim().split("\\n"); const n=Number(lines[0]);'
          ' const a=[...Array(n).keys()].sort((x,y)=>y-x); const m=new Map(); for(const x of a) m.set(x,x);'
          ' console.log(String(n*2));\n')
    py = "import sys\nn=int(sys.stdin.readline())\nprint(sorted(range(n))[-1]+n+1 if n else 0)\n"
    tests = [{"input": "5\n", "output": "10\n"}, {"input": "1000\n", "output": "2000\n"}]
    return [{"completion": src, "tests": tests, "language": lang}
            for lang, src in (("c", c), ("cpp", cpp), ("java", java), ("javascript", js), ("python", py))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--workloads", default="humaneval,mbpp,pytest,stdio,langs")
    ap.add_argument("--pytest", nargs="*", default=[])
    ap.add_argument("--no-seccomp", action="store_true")
    ap.add_argument("--parse-only", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not args.parse_only:
        run(args.out, [w for w in args.workloads.split(",") if w], args.pytest, not args.no_seccomp)
    summary = parse(args.out)
    with open(os.path.join(args.out, "summary.json"), "w") as fh:
        json.dump(summary, fh, indent=1)
    print(f"processes that loaded the filter: {summary['filtered_processes']}")
    for name, n in summary["calls"].items():
        extra = summary["args"].get(name)
        print(f"{n:9d}  {name}" + (f"  {dict(list(extra.items())[:12])}" if extra else ""))


if __name__ == "__main__":
    main()
