# ruff: noqa
import contextlib, io, tempfile
def f(x):
    buf = io.StringIO()
    with contextlib.ExitStack() as st:
        st.enter_context(contextlib.redirect_stdout(buf))
        tmp = st.enter_context(tempfile.TemporaryFile("w+"))
        print(x + 1)
        tmp.write(buf.getvalue()); tmp.seek(0)
        v = tmp.read()
    return type(x)(eval(v))
