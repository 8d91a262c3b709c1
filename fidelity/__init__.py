"""Differential fidelity: rlvr-grade against the reference graders on real benchmark data.

`make fidelity` (or `.venv/bin/python -m fidelity --help`). One module per dataset adapter
(humaneval, humanevalplus, mbpp, leetcode, classeval), each with `collect(ctx)` -> the cases,
`reference(ctx, cases)` -> the reference verdicts and `references(ctx)` -> the reference's name
per group; core.py compares and reports, grader.py runs the project's CLI, refrun.py and
refs/ run the references unsandboxed in their own venv."""
