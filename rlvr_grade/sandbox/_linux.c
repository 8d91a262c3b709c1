/* The Linux calls Python 3.11's os module lacks, for sandbox/linux.py: unshare, setns, mount,
 * umount2, mount_setattr, pivot_root, prctl, capset and loading a seccomp program.
 *
 * Why C and not ctypes: every process that forks checks (the seed, each worker) would otherwise
 * hold _ctypes, and a check is a fork of it. Once _ctypes is loaded its types hang off
 * object.__subclasses__() with no import and no audit event, and a ctypes Union of a pointer
 * with an integer reads any address of the check's memory (red team A2): the channel's secret,
 * the tests' values. A module that offers nothing but these system calls (each refused to a
 * check by its seccomp filter) gives candidate code no memory access at all.
 *
 * Every function raises OSError(errno, "<call>: <strerror>") on failure. LINUX_API names what
 * the functions take; sandbox/linux.py refuses a build of another version (and falls back to
 * ctypes, with the warning linux.NATIVE_FALLBACK). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442 /* the same number on every architecture (Linux 5.12) */
#endif
#define RLVR_AT_RECURSIVE 0x8000

#ifndef LINUX_API
#define LINUX_API 1
#endif

struct rlvr_mount_attr {
    unsigned long long attr_set, attr_clr, propagation, userns_fd;
};

static PyObject *os_error(const char *what)
{
    int err = errno;
    PyObject *exc = PyObject_CallFunction(PyExc_OSError, "iN", err, PyUnicode_FromFormat("%s: %s", what, strerror(err)));
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *py_unshare(PyObject *self, PyObject *args)
{
    int flags;
    if (!PyArg_ParseTuple(args, "i", &flags))
        return NULL;
    if (unshare(flags) < 0)
        return os_error("unshare");
    Py_RETURN_NONE;
}

static PyObject *py_setns(PyObject *self, PyObject *args)
{
    int fd, nstype;
    if (!PyArg_ParseTuple(args, "ii", &fd, &nstype))
        return NULL;
    if (setns(fd, nstype) < 0)
        return os_error("setns");
    Py_RETURN_NONE;
}

/* mount(source or None, target, fstype or None, flags, data or None): str */
static PyObject *py_mount(PyObject *self, PyObject *args)
{
    const char *source, *target, *fstype, *data;
    unsigned long flags;
    if (!PyArg_ParseTuple(args, "zszkz", &source, &target, &fstype, &flags, &data))
        return NULL;
    if (mount(source, target, fstype, flags, data) < 0)
        return os_error("mount");
    Py_RETURN_NONE;
}

static PyObject *py_umount2(PyObject *self, PyObject *args)
{
    const char *target;
    int flags;
    if (!PyArg_ParseTuple(args, "si", &target, &flags))
        return NULL;
    if (umount2(target, flags) < 0)
        return os_error("umount");
    Py_RETURN_NONE;
}

/* mount_setattr_recursive(path, attr_set, attr_clr, propagation) */
static PyObject *py_mount_setattr(PyObject *self, PyObject *args)
{
    const char *path;
    unsigned long long set, clr, propagation;
    if (!PyArg_ParseTuple(args, "sKKK", &path, &set, &clr, &propagation))
        return NULL;
    struct rlvr_mount_attr attr = {set, clr, propagation, 0};
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, RLVR_AT_RECURSIVE, &attr, sizeof(attr)) < 0)
        return os_error("mount_setattr");
    Py_RETURN_NONE;
}

static PyObject *py_pivot_root(PyObject *self, PyObject *args)
{
    const char *new_root, *put_old;
    if (!PyArg_ParseTuple(args, "ss", &new_root, &put_old))
        return NULL;
    if (syscall(SYS_pivot_root, new_root, put_old) < 0)
        return os_error("pivot_root");
    Py_RETURN_NONE;
}

/* prctl(option, arg2) with integer arguments only (the name has its own call) */
static PyObject *py_prctl(PyObject *self, PyObject *args)
{
    int option;
    unsigned long arg2;
    if (!PyArg_ParseTuple(args, "ik", &option, &arg2))
        return NULL;
    if (option == PR_SET_NAME || option == PR_SET_SECCOMP) {
        PyErr_SetString(PyExc_ValueError, "prctl: this option takes a pointer (set_name, seccomp_load)");
        return NULL;
    }
    if (prctl(option, arg2, 0, 0, 0) < 0)
        return os_error("prctl");
    Py_RETURN_NONE;
}

static PyObject *py_set_name(PyObject *self, PyObject *args)
{
    const char *name;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "y#", &name, &len))
        return NULL;
    char buf[16] = {0};
    memcpy(buf, name, len < 15 ? (size_t)len : 15);
    if (prctl(PR_SET_NAME, buf, 0, 0, 0) < 0)
        return os_error("prctl");
    Py_RETURN_NONE;
}

/* Clear every capability of the calling thread (effective, permitted, inheritable). */
static PyObject *py_drop_capabilities(PyObject *self, PyObject *noargs)
{
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof(data));
    if (syscall(SYS_capset, &header, data) < 0)
        return os_error("capset");
    Py_RETURN_NONE;
}

/* Install a BPF program (bytes of struct sock_filter) on the calling thread. */
static PyObject *py_seccomp_load(PyObject *self, PyObject *args)
{
    PyObject *program;
    if (!PyArg_ParseTuple(args, "S", &program))
        return NULL;
    if (PyBytes_GET_SIZE(program) == 0 || PyBytes_GET_SIZE(program) % sizeof(struct sock_filter)) {
        PyErr_SetString(PyExc_ValueError, "seccomp_load: a BPF program");
        return NULL;
    }
    struct sock_fprog prog = {
        (unsigned short)(PyBytes_GET_SIZE(program) / sizeof(struct sock_filter)),
        (struct sock_filter *)PyBytes_AS_STRING(program),
    };
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
        return os_error("seccomp load");
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"unshare", py_unshare, METH_VARARGS, "unshare(flags)"},
    {"setns", py_setns, METH_VARARGS, "setns(fd, nstype)"},
    {"mount", py_mount, METH_VARARGS, "mount(source, target, fstype, flags, data): bytes or None"},
    {"umount2", py_umount2, METH_VARARGS, "umount2(target, flags)"},
    {"mount_setattr_recursive", py_mount_setattr, METH_VARARGS, "mount_setattr_recursive(path, set, clear, propagation)"},
    {"pivot_root", py_pivot_root, METH_VARARGS, "pivot_root(new_root, put_old)"},
    {"prctl", py_prctl, METH_VARARGS, "prctl(option, arg2)"},
    {"set_name", py_set_name, METH_VARARGS, "set_name(name): this process's comm (15 bytes)"},
    {"drop_capabilities", py_drop_capabilities, METH_NOARGS, "clear every capability of this thread"},
    {"seccomp_load", py_seccomp_load, METH_VARARGS, "seccomp_load(program): install a BPF filter"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_linux", NULL, -1, methods};

PyMODINIT_FUNC PyInit__linux(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "API", LINUX_API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
