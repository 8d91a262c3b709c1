"""The allowlisted root (sandbox/root.py): what it lists, how a Root becomes a Layout and a
farm, the ELF reader it resolves shared libraries with. The containment itself (a check sees
nothing else) is tested against the real sandbox in test_adversarial.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr_grade.sandbox import root
from rlvr_grade.sandbox.local import CHECK_PATH
from rlvr_harness import files


def _ldd(path: str) -> set[str]:
    out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return {os.path.realpath(line.split("=>")[1].split("(")[0].strip()) for line in out.splitlines()
            if "=>" in line and "/" in line.split("=>")[1]}


@pytest.mark.skipif(shutil.which("ldd") is None, reason="needs ldd to compare with")
def test_the_elf_closure_finds_what_the_dynamic_loader_loads():
    binaries = [os.path.realpath(sys.executable)]
    dynload = os.path.join(os.path.dirname(os.__file__), "lib-dynload")
    binaries += [os.path.join(dynload, n) for n in sorted(os.listdir(dynload)) if n.endswith(".so")][:40]
    found, unresolved = root.elf_closure(binaries)
    real = {os.path.realpath(p) for p in found}
    for b in binaries:
        missing = _ldd(b) - real
        assert not missing, (b, missing)
    assert not unresolved


def test_read_elf_reads_the_interpreter_and_refuses_what_is_not_elf(tmp_path):
    elf = root.read_elf(os.path.realpath(sys.executable))
    assert elf is not None and elf.cls == 2 and elf.interp and elf.interp.startswith("/")
    (tmp_path / "text").write_text("#!/bin/sh\n")
    assert root.read_elf(str(tmp_path / "text")) is None
    assert root.read_elf(str(tmp_path / "missing")) is None


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=0, max_size=512))
def test_read_elf_never_raises_on_garbage(tmp_path_factory, blob):
    path = tmp_path_factory.mktemp("elf") / "x"
    # Half the examples start like a 64-bit ELF, so the parser goes past the magic.
    path.write_bytes((b"\x7fELF\x02\x01\x01" + blob) if blob[:1] < b"\x80" else blob)
    root.read_elf(str(path))


def test_a_layout_keeps_each_symlink_on_the_way_and_only_the_listed_files(tmp_path):
    (tmp_path / "real" / "lib").mkdir(parents=True)
    (tmp_path / "real" / "lib" / "libx.so.1.2").write_text("x")
    (tmp_path / "real" / "lib" / "libx.so.1").symlink_to("libx.so.1.2")
    (tmp_path / "real" / "lib" / "unlisted").write_text("no")
    (tmp_path / "alias").symlink_to("real")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "inside.txt").write_text("y")
    lay = root.Root(dirs=(str(tmp_path / "data"),), files=(str(tmp_path / "alias" / "lib" / "libx.so.1"),)).layout()
    links = dict(lay.links)
    assert links[str(tmp_path / "alias")] == "real"
    assert links[str(tmp_path / "real" / "lib" / "libx.so.1")] == "libx.so.1.2"
    assert [p for p, _ in lay.files] == [str(tmp_path / "real" / "lib" / "libx.so.1.2")]
    assert lay.mounts == ((str(tmp_path / "data"), str(tmp_path / "data")),)
    farm, fd = root.materialize(lay, str(tmp_path / "farms"))
    try:
        def inside(p: str) -> str:
            return farm + p

        assert open(inside(str(tmp_path / "alias" / "lib" / "libx.so.1"))).read() == "x"  # through both links
        assert not os.path.exists(inside(str(tmp_path / "real" / "lib" / "unlisted")))
        assert os.listdir(inside(str(tmp_path / "data"))) == []  # a mount point: the worker shows the folder there
        assert sorted(os.listdir(farm)) == sorted({"dev", "etc", "proc", "tmp", str(tmp_path).split("/")[1]})
        again, fd2 = root.materialize(lay, str(tmp_path / "farms"))
        os.close(fd2)
        assert again == farm  # the same content: the same farm
    finally:
        os.close(fd)


def test_a_changed_file_gets_a_new_farm_and_the_old_one_is_swept_once_unlocked(tmp_path):
    (tmp_path / "f").write_text("one")
    lay = root.Root(files=(str(tmp_path / "f"),)).layout()
    base = str(tmp_path / "farms")
    first, fd = root.materialize(lay, base)
    os.unlink(tmp_path / "f")
    (tmp_path / "f").write_text("two")  # a package upgrade: a new inode
    second, fd2 = root.materialize(lay, base)
    assert second != first and open(second + str(tmp_path / "f")).read() == "two"
    os.utime(first, (0, 0))  # unused for long, but still held (fd): kept
    assert root.sweep(base, keep=os.path.basename(second)) == []
    os.close(fd)
    assert root.sweep(base, keep=os.path.basename(second)) == [first]
    os.close(fd2)


def test_a_farm_folder_someone_else_can_write_is_refused(tmp_path):
    base = tmp_path / "shared"
    base.mkdir()
    base.chmod(0o777)
    with pytest.raises(OSError, match="not a private folder"):
        root.materialize(root.Root().layout(), str(base))


def test_the_python_root_lists_the_interpreter_not_the_checkout_nor_the_base_site_packages():
    import rlvr_grade

    r = root.python_root()
    lay = r.layout()
    shown = {p for p, _ in lay.mounts}
    checkout = os.path.dirname(os.path.dirname(os.path.abspath(rlvr_grade.__file__)))
    import rlvr_harness

    assert ("/harness/rlvr_harness", os.path.realpath(os.path.dirname(rlvr_harness.__file__))) in lay.mounts  # at its fixed place
    assert os.path.dirname(os.path.abspath(rlvr_grade.__file__)) not in shown  # the grader's package does not
    assert checkout not in shown and not any(p.startswith(checkout + "/tests") for p in shown)
    assert os.path.realpath(os.path.dirname(os.__file__)) in shown  # the stdlib
    base_site = os.path.join(os.path.realpath(os.path.dirname(os.__file__)), "site-packages")
    if os.path.isdir(base_site) and base_site not in map(os.path.realpath, sys.path):
        assert base_site in lay.hidden
    files = {p for p, _ in lay.files}
    assert os.path.realpath(sys.executable) in files
    assert not lay.missing
    # the package (the sealed harness) and the grader's own venv are shown wherever the checkout
    # lives, /var/tmp included: what is under it, and the folders on the way to it, are not "else"
    def elsewhere(x: str) -> bool:
        return not (x == checkout or x.startswith(checkout + "/") or checkout.startswith(x.rstrip("/") + "/"))

    for p in ("/srv", "/opt", "/home", "/run", "/var", "/mnt", "/media", "/sys"):
        others = [x for x in [*shown, *files, *lay.dirs] if elsewhere(x)]
        assert not any(x == p or x.startswith(p + "/") for x in others), p


@pytest.mark.parametrize("language", ["c", "cpp", "java", "javascript"])
def test_a_toolchain_root_holds_its_compiler_and_what_it_loads(language):
    from rlvr_harness import languages

    if not languages.available()[language]:
        pytest.skip(f"{language} toolchain not installed")
    r = root.toolchain_root(language, CHECK_PATH)
    assert r.files or r.dirs
    lay = root.root_for(language, CHECK_PATH).layout()
    assert not lay.missing
    tool = shutil.which(languages.LANGUAGES[language].tools[0], path=CHECK_PATH)
    needed, _ = root.elf_closure([os.path.realpath(tool)])
    have = {os.path.realpath(p) for p, _ in lay.files} | {os.path.realpath(p) for p, _ in lay.mounts}
    for lib in needed:
        real = os.path.realpath(lib)
        assert real in have or any(real.startswith(m + "/") for m in have), lib


def test_the_grader_paths_are_built_once_as_real_paths(tmp_path, monkeypatch):
    # The hide list was built in three places (local.py, zygote.py, and not at all for gVisor).
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    monkeypatch.chdir(tmp_path / "link")
    paths = root.grader_paths([str(tmp_path / "link" / "in.jsonl"), "/", str(real)])
    assert str(real) in paths and str(real / "in.jsonl") in paths and os.path.realpath(os.path.expanduser("~")) in paths
    assert "/" not in paths and len(paths) == len(set(paths)) and str(tmp_path / "link") not in paths


def test_a_root_masks_the_grader_paths_inside_what_it_shows_and_nothing_else():
    r = root.Root(dirs=("/opt/env", "/usr/lib/python3"), hidden=("/usr/lib/python3/site-packages",))
    masked = r.masking(["/opt/env/inputs", "/opt", "/opt/env", "/home/me", "/opt/environment"])
    assert masked.hidden == ("/opt/env/inputs", "/usr/lib/python3/site-packages") and masked.dirs == r.dirs
    assert r.masking(["/home/me"]) is r


@pytest.mark.skipif(shutil.which("runsc") is None, reason="no runsc here")
def test_the_gvisor_backend_masks_the_grader_paths_as_the_local_one_does():
    from rlvr_grade.sandbox.gvisor import GvisorBackend

    backend = GvisorBackend(hide=["/inputs/run1"])
    assert backend.hide[-1] == "/inputs/run1" and os.path.realpath(os.getcwd()) in backend.hide


@pytest.mark.skipif(os.geteuid() != 0, reason="a seed's world needs root here")
def test_a_farm_built_in_a_seeds_world_links_the_hosts_files(tmp_path):
    """In a local seed's world each host folder is a mount of its own, so os.link between two
    is EXDEV and every library was copied into each farm (~42 MB here); through the host's /
    (links.HOST_ROOT_FD) they are hard links again, and so are the world's own files
    (/env/pyvenv.cfg, the interpreter and libpython at /python), linked by the host names behind
    them (links.HOST_NAMES): libpython (23 MB) was copied into each farm without."""
    import functools

    from rlvr_grade.sandbox import local
    from rlvr_grade.sandbox.world import enter_world

    world = local.world_of("")
    if not world.fixed_names:
        pytest.skip("the default environment is not a venv with a stdlib snapshot here")
    base = root.farm_base()  # on the host's own filesystem, like the farms
    base = os.path.join(base, f".test-{os.getpid()}")
    fd = os.open("/", os.O_PATH | os.O_DIRECTORY)
    code = (f"import os; from rlvr_grade import links; from rlvr_grade.sandbox import root; links.HOST_ROOT_FD.append({fd}); "
            f"links.HOST_NAMES.extend({world.shown()!r}); "
            f"farm, _ = root.materialize(root.python_root().layout(), base={base!r}); "
            "fs = [os.path.join(r, n) for r, _, ns in os.walk(farm) for n in ns if os.path.isfile(os.path.join(r, n))]; "
            "print(sorted(f[len(farm):] for f in fs if os.stat(f).st_nlink == 1 and os.path.getsize(f)))")
    try:
        out = subprocess.run([os.path.join(root.ENV_AT, "bin", "python"), "-c", local.boot_code(code, inside=True)],
                             pass_fds=(fd,), cwd="/", capture_output=True, text=True, timeout=120,
                             preexec_fn=functools.partial(enter_world, world.shown(),
                                                          (root.ENV_AT, root.HARNESS_AT, files.PYTHON_AT)))
    finally:
        os.close(fd)
        shutil.rmtree(base, ignore_errors=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[0] == "[]", out.stdout[-1500:]


def test_a_runpath_is_retargeted_in_place_only_where_it_fits(tmp_path):
    """sandbox/world.py rewrites the interpreter copy's RUNPATH (the host's install folder)
    to $ORIGIN/../lib: the program then loads its library from beside itself, wherever it is;
    a string that does not fit is refused and the file left as it was."""
    from rlvr_grade.sandbox.world import retarget_runpath

    if shutil.which("gcc") is None:
        pytest.skip("no C compiler here")
    lib_dir = tmp_path / "a-long-install-folder-name" / "lib"
    lib_dir.mkdir(parents=True)
    (tmp_path / "x.c").write_text("int answer(void) { return 42; }\n")
    (tmp_path / "main.c").write_text("int answer(void);\nint main(void) { return answer() == 42 ? 0 : 1; }\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(lib_dir / "libx.so"), str(tmp_path / "x.c")], check=True)
    program = tmp_path / "bin" / "main"
    program.parent.mkdir()
    subprocess.run(["gcc", "-o", str(program), str(tmp_path / "main.c"), f"-L{lib_dir}", "-lx",
                    f"-Wl,-rpath,{lib_dir}", "-Wl,--enable-new-dtags"], check=True)
    before = program.read_bytes()
    assert not retarget_runpath(str(program), "$ORIGIN/" + "x" * 400)
    assert program.read_bytes() == before
    moved = tmp_path / "elsewhere"
    (moved / "bin").mkdir(parents=True)
    shutil.copytree(lib_dir, moved / "lib")
    shutil.copy2(program, moved / "bin" / "main")
    shutil.rmtree(tmp_path / "a-long-install-folder-name")
    assert subprocess.run([str(moved / "bin" / "main")], capture_output=True).returncode != 0  # its RUNPATH is gone
    assert retarget_runpath(str(moved / "bin" / "main"), "$ORIGIN/../lib")
    assert root.read_elf(str(moved / "bin" / "main")).runpath == ("$ORIGIN/../lib",)
    assert subprocess.run([str(moved / "bin" / "main")], env={}).returncode == 0
