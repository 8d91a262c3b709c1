/* The check child's sandbox set-up in C: the same steps, in the same order, as the Python
 * path in zygote.Zygote._child (child_descriptors, isolation.join_cgroup / enter_filesystem,
 * zygote.write_files, isolation.drop_privileges, the death signal, the workdir, the seccomp
 * filter), for a root worker with a mount template.
 *
 * Why C: every Python object the child touches after fork is copied on write, and the Python
 * set-up touched ~230 pages (~2.5 ms a check). Here nothing Python is read after the arguments
 * are parsed. Everything that varies per check is computed by the worker before it forks
 * (zygote.Zygote._c_spec), so this file holds no policy of its own: only system calls.
 *
 * On failure: "error: <step>: <strerror>" goes to the setup pipe (the worker then reports a
 * sandbox_error, as for the Python path) and OSError is raised.
 *
 * CHILD_PROTOCOL names what enter() takes and does. Bump it with every change of this file,
 * together with zygote.C_PROTOCOL and zygote.C_SOURCE_SHA256 (tests/sandbox/test_child_protocol.py fails
 * until the three agree): the worker refuses an extension built from another version of this
 * file (a stale build after `git pull` without `make install`, whose enter() would fail every
 * check's set-up) and sets checks up in Python instead, with a warning `doctor` shows. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442 /* the same number on every architecture (Linux 5.12) */
#endif
#define RLVR_AT_RECURSIVE 0x8000
#define RLVR_MOUNT_ATTR_RDONLY 0x1
#define RLVR_MOUNT_ATTR_NOSUID 0x2

struct rlvr_mount_attr {
    unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

/* `len` bytes of `data` written to `path` in one write (the id map files take one) */
static int write_file(const char *path, const char *data, int len)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int ok = write(fd, data, (size_t)len) == len;
    close(fd);
    return ok ? 0 : -1;
}

/* `pair` as (bytes, bytes): sets *first and *second, or a TypeError naming `what` */
static int bytes_pair(PyObject *pair, const char *what, PyObject **first, PyObject **second)
{
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyBytes_Check(PyTuple_GET_ITEM(pair, 0))
        || !PyBytes_Check(PyTuple_GET_ITEM(pair, 1))) {
        PyErr_Format(PyExc_TypeError, "%s: (bytes, bytes)", what);
        return -1;
    }
    *first = PyTuple_GET_ITEM(pair, 0);
    *second = PyTuple_GET_ITEM(pair, 1);
    return 0;
}

/* mkdir -p, each missing level 0777 (less the umask), as os.makedirs does */
static int make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) < 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int fail(int setup_fd, const char *step)
{
    int err = errno;
    char msg[512];
    int n = snprintf(msg, sizeof msg, "error: %s: %s\n", step, strerror(err));
    if (setup_fd >= 0 && n > 0) {
        ssize_t w = write(setup_fd, msg, (size_t)n);
        (void)w;
    }
    errno = err;
    PyErr_Format(PyExc_OSError, "check setup, %s: %s", step, strerror(err));
    return -1;
}

static int write_all(int fd, const char *data, Py_ssize_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, data, (size_t)len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        data += w;
        len -= w;
    }
    return 0;
}

static int close_from(unsigned int first, unsigned int last)
{
    if (first > last)
        return 0;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0)
        return 0;
#endif
    for (unsigned int fd = first; fd <= last && fd < 65536; fd++)
        close((int)fd);
    return 0;
}

/* enter(res_w, out_w, err_w, setup_w, chan, template, cgroup_files, tmp_opts, keep,
 *       proc_opts, dirs, files, uid, rlimits, own_userns, seccomp, workdir, hostname) -> chan
 *
 * chan: where the result channel goes (close-on-exec; the worker's seccomp program keeps it
 * there: seccomp.channel_guard), the setup pipe at chan + 1, the template at chan + 2;
 * template: the worker's mount template of this check's root (isolation.make_template);
 * keep: tuple of (path bytes under /tmp, the same path relative to /tmp): the root's
 * directories under /tmp (a venv in a CI checkout), bound back read-only into the fresh /tmp;
 * tmp_opts: the options of the check's one tmpfs, whose folders tmp and shm are bound at /tmp
 * and /dev/shm (isolation.mount_check_tmp: they share its size cap);
 * cgroup_files: tuple of bytes (each gets "0": moves this thread, i.e. this process);
 * proc_opts: the /proc mount options (b"subset=pid", or b"" where the kernel lacks it);
 * dirs: tuple of (path bytes, mode) made after the mounts; files: tuple of (path bytes, data bytes),
 * written 0444; rlimits: tuple of (resource, limit) set soft = hard; seccomp: bytes of
 * struct sock_filter, or None; uid: the uid and gid to drop to; own_userns: 1 for a user namespace
 * of the check's own after the drop (isolation.own_user_namespace: its own keyrings);
 * namespaces: the clone flags unshared after the setns (isolation.check_namespaces: mount and
 * cgroup always, ipc and uts too where the slot has none of its own); `hostname` is set only
 * with CLONE_NEWUTS among them. */
static PyObject *enter(PyObject *self, PyObject *args)
{
    int res_w, out_w, err_w, setup_w, chan, templ, uid, own_userns;
    PyObject *cgroup_files, *keep, *dirs, *files, *rlimits, *seccomp;
    const char *tmp_opts, *proc_opts, *workdir, *hostname;
    int namespaces;
    if (!PyArg_ParseTuple(args, "iiiiiiO!sO!yO!O!iO!iOssi", &res_w, &out_w, &err_w, &setup_w, &chan, &templ,
                          &PyTuple_Type, &cgroup_files, &tmp_opts, &PyTuple_Type, &keep,
                          &proc_opts, &PyTuple_Type, &dirs,
                          &PyTuple_Type, &files, &uid, &PyTuple_Type, &rlimits, &own_userns, &seccomp,
                          &workdir, &hostname, &namespaces))
        return NULL;

    /* child_descriptors: a session of its own, stdin /dev/null, stdout/stderr to the
     * collector, the channel at `chan`, the setup pipe beside it, the template beside that;
     * every other descriptor closed. */
    int setup_fd = setup_w;
    if (setsid() < 0)
        return fail(setup_fd, "setsid"), NULL;
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
        return fail(setup_fd, "stdio"), NULL;
    if (chan < 3)
        return PyErr_SetString(PyExc_ValueError, "chan: a descriptor above 2"), NULL;
    if (dup3(res_w, chan, O_CLOEXEC) < 0 || dup3(setup_w, chan + 1, O_CLOEXEC) < 0)
        return fail(setup_fd, "channel"), NULL;
    setup_fd = chan + 1;
    int last = chan + 1;
    int tfd = -1;
    if (templ >= 0) {
        if (dup3(templ, chan + 2, O_CLOEXEC) < 0)
            return fail(setup_fd, "template"), NULL;
        tfd = last = chan + 2;
    }
    close_from(3, (unsigned int)chan - 1);
    close_from((unsigned int)last + 1, ~0U);

    /* join_cgroup, before the root (which has no /sys) is entered */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cgroup_files); i++) {
        PyObject *p = PyTuple_GET_ITEM(cgroup_files, i);
        if (!PyBytes_Check(p))
            return PyErr_SetString(PyExc_TypeError, "cgroup_files: bytes"), NULL;
        int fd = open(PyBytes_AS_STRING(p), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, "0", 1) != 1)
            return fail(setup_fd, "join cgroup"), NULL;
        close(fd);
    }

    /* enter_filesystem: a copy of the worker's template (the root), fresh tmpfs /tmp and
     * /dev/shm (one tmpfs), its own /proc */
    if (tfd >= 0) {
        if (setns(tfd, CLONE_NEWNS) < 0)
            return fail(setup_fd, "setns"), NULL;
        close(tfd);
    }
    /* the cgroup namespace roots at the slot's cgroups just joined: /proc/self/cgroup shows "/",
     * not the grader's paths; a uts namespace of the check's gets a name of the check's, not
     * the host's (where the slot holds one, the worker named it so) */
    if ((namespaces & CLONE_NEWNS) == 0)
        return PyErr_SetString(PyExc_ValueError, "namespaces: CLONE_NEWNS is required"), NULL;
    if (unshare(namespaces) < 0)
        return fail(setup_fd, "unshare"), NULL;
    if ((namespaces & CLONE_NEWUTS) && sethostname(hostname, strlen(hostname)) < 0)
        return fail(setup_fd, "sethostname"), NULL;
    /* /proc first: the bindings below name the template's /tmp through /proc/self/fd */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, proc_opts[0] ? proc_opts : NULL) < 0)
        return fail(setup_fd, "mount /proc"), NULL;
    /* the host's /tmp, held before the fresh one covers it: where the interpreter lives */
    int old_tmp = -1;
    if (PyTuple_GET_SIZE(keep) > 0 && (old_tmp = open("/tmp", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
        return fail(setup_fd, "open /tmp"), NULL;
    if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, tmp_opts) < 0)
        return fail(setup_fd, "mount /tmp"), NULL;
    /* mount_check_tmp: /dev/shm and /tmp are folders of that one tmpfs (one cap for both);
     * /tmp's bound last, covering the tmpfs's top */
    if (mkdir("/tmp/tmp", 0700) < 0 || chmod("/tmp/tmp", 01777) < 0 || mkdir("/tmp/shm", 0700) < 0
        || chmod("/tmp/shm", 01777) < 0)
        return fail(setup_fd, "mkdir /tmp parts"), NULL;
    if (mount("/tmp/shm", "/dev/shm", NULL, MS_BIND, NULL) < 0)
        return fail(setup_fd, "bind /dev/shm"), NULL;
    if (mount("/tmp/tmp", "/tmp", NULL, MS_BIND, NULL) < 0)
        return fail(setup_fd, "bind /tmp"), NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(keep); i++) {
        PyObject *abs_path, *rel_path;
        if (bytes_pair(PyTuple_GET_ITEM(keep, i), "keep", &abs_path, &rel_path) < 0)
            return NULL;
        const char *path = PyBytes_AS_STRING(abs_path);
        char src[4200];
        snprintf(src, sizeof src, "/proc/self/fd/%d/%s", old_tmp, PyBytes_AS_STRING(rel_path));
        struct rlvr_mount_attr attr = {RLVR_MOUNT_ATTR_RDONLY | RLVR_MOUNT_ATTR_NOSUID, 0, 0, 0};
        if (make_dirs(path) < 0 || mount(src, path, NULL, MS_BIND | MS_REC, NULL) < 0
            || syscall(SYS_mount_setattr, AT_FDCWD, path, RLVR_AT_RECURSIVE, &attr, sizeof attr) < 0)
            return fail(setup_fd, "bind the interpreter's /tmp paths"), NULL;
    }
    if (old_tmp >= 0)
        close(old_tmp);
    /* make_check_dirs: each with its exact mode (chmod: the umask does not apply) */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(dirs); i++) {
        const char *dir_path;
        int mode;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(dirs, i), "yi", &dir_path, &mode))
            return NULL;
        if (mkdir(dir_path, 0700) < 0 || chmod(dir_path, (mode_t)mode) < 0)
            return fail(setup_fd, "mkdir"), NULL;
    }

    /* write_files */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(files); i++) {
        PyObject *file_path, *data;
        if (bytes_pair(PyTuple_GET_ITEM(files, i), "files", &file_path, &data) < 0)
            return NULL;
        int fd = open(PyBytes_AS_STRING(file_path), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0444);
        if (fd < 0 || write_all(fd, PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data)) < 0)
            return fail(setup_fd, "write files"), NULL;
        close(fd);
    }

    /* drop_privileges (root mode): the workdir to the check's uid, rlimits, the uid drop */
    if (chown(workdir, (uid_t)uid, (gid_t)uid) < 0)
        return fail(setup_fd, "chown"), NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(rlimits); i++) {
        PyObject *pair = PyTuple_GET_ITEM(rlimits, i);
        int res;
        unsigned long long lim;
        if (!PyTuple_Check(pair) || !PyArg_ParseTuple(pair, "iK", &res, &lim))
            return NULL;
        struct rlimit rl = {(rlim_t)lim, (rlim_t)lim};
        if (setrlimit(res, &rl) < 0)
            return fail(setup_fd, "setrlimit"), NULL;
    }
    if (setgroups(0, NULL) < 0 || setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) < 0
        || setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid) < 0)
        return fail(setup_fd, "drop uid"), NULL;
    /* own_user_namespace: dumpable again (the drop made /proc/self/*_map root's), a new user
     * namespace, the uid and gid mapped to themselves, no capability kept in it */
    if (own_userns) {
        char map[64];
        int n = snprintf(map, sizeof map, "%d %d 1", uid, uid);
        struct __user_cap_header_struct cap_header = {_LINUX_CAPABILITY_VERSION_3, 0};
        struct __user_cap_data_struct cap_data[2];
        memset(cap_data, 0, sizeof cap_data);
        if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0 || unshare(CLONE_NEWUSER) < 0)
            return fail(setup_fd, "user namespace"), NULL;
        if (write_file("/proc/self/setgroups", "deny", 4) < 0 || write_file("/proc/self/uid_map", map, n) < 0
            || write_file("/proc/self/gid_map", map, n) < 0)
            return fail(setup_fd, "map ids"), NULL;
        if (syscall(SYS_capset, &cap_header, cap_data) < 0)
            return fail(setup_fd, "capset"), NULL;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return fail(setup_fd, "no_new_privs"), NULL;
    /* not dumpable: /proc/<pid>/{mem,environ,...} of the check are root's, even to itself */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
        return fail(setup_fd, "dumpable"), NULL;
    /* after the uid drop, which clears it: the check dies with its worker */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
        return fail(setup_fd, "pdeathsig"), NULL;
    if (chdir(workdir) < 0)
        return fail(setup_fd, "chdir"), NULL;

    /* seccomp last: the steps above needed mount/unshare */
    if (seccomp != Py_None) {
        if (!PyBytes_Check(seccomp) || PyBytes_GET_SIZE(seccomp) % sizeof(struct sock_filter))
            return PyErr_SetString(PyExc_TypeError, "seccomp: a BPF program"), NULL;
        struct sock_fprog prog = {
            (unsigned short)(PyBytes_GET_SIZE(seccomp) / sizeof(struct sock_filter)),
            (struct sock_filter *)PyBytes_AS_STRING(seccomp),
        };
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
            return fail(setup_fd, "seccomp"), NULL;
    }
    return PyLong_FromLong(chan);
}

static PyMethodDef methods[] = {
    {"enter", enter, METH_VARARGS, "Set up a check child's sandbox (see the module comment)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_child", NULL, -1, methods};

#ifndef CHILD_PROTOCOL
#define CHILD_PROTOCOL 7
#endif

PyMODINIT_FUNC PyInit__child(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "PROTOCOL", CHILD_PROTOCOL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
