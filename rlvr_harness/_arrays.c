/* The array interface, checked where native code reads it (issue 15, raw memory).
 *
 * numpy makes an array of whatever memory an object's __array_interface__ names: a 'data'
 * address (an int) or a buffer with any 'offset', with any 'strides'. Candidate code can set
 * that attribute on anything (a class of its own, a function, numpy's own DummyArray behind
 * np.lib.stride_tricks.as_strided) and so read and write any address of the check's process,
 * with no audit event: the channel's nonce, the tests' expected values, the harness's code.
 * __array_struct__ is the same with a capsule.
 *
 * Native libraries read these attributes through the interpreter's C API, called through
 * their own global offset tables: _PyObject_LookupAttr / PyObject_GetOptionalAttr and
 * PyObject_GetAttr. install() points those entries of every loaded extension module (and
 * prepare(path), of one about to be imported) at wrappers that pass every other name through
 * untouched and hand the value read under one of the two names to the checker given to arm()
 * (rlvr_harness/arrays.py), whose answer numpy reads instead: a copy of plain values naming
 * memory of a genuine array or an immutable bytes object, bounds checked, or an error.
 * arm() takes the checker once per process (a second call is refused), before any candidate
 * code runs, so what a candidate can do with this module is patch more libraries. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#define RLVR_GOT 1
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

typedef int (*lookup_fn)(PyObject *, PyObject *, PyObject **);
typedef PyObject *(*getattr_fn)(PyObject *, PyObject *);

static PyObject *checker = NULL;   /* arrays.py's check(obj, name, value), set once */
static PyObject *suffixes = NULL;  /* a tuple of bytes: the extension modules' file suffixes */
static PyObject *prefixes = NULL;  /* a tuple of bytes: the library tree, for prepare() */
static lookup_fn real_lookup = NULL;
static getattr_fn real_getattr = NULL;
static long patched_slots = 0;

static int
interface_name(PyObject *name)
{
    if (!PyUnicode_Check(name))
        return 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(name);
    if (n == 19 && PyUnicode_CompareWithASCIIString(name, "__array_interface__") == 0)
        return 1;
    if (n == 16 && PyUnicode_CompareWithASCIIString(name, "__array_struct__") == 0)
        return 1;
    return 0;
}

/* Steals value. */
static PyObject *
checked(PyObject *obj, PyObject *name, PyObject *value)
{
    PyObject *r;
    if (checker == NULL) {
        Py_DECREF(value);
        PyErr_SetString(PyExc_TypeError, "refused by the grader: the array interface is not checked in this process");
        return NULL;
    }
    r = PyObject_CallFunctionObjArgs(checker, obj, name, value, NULL);
    Py_DECREF(value);
    return r;
}

static int
guarded_lookup(PyObject *obj, PyObject *name, PyObject **result)
{
    int r = real_lookup(obj, name, result);
    if (r == 1 && interface_name(name)) {
        *result = checked(obj, name, *result);
        return *result == NULL ? -1 : 1;
    }
    return r;
}

static PyObject *
guarded_getattr(PyObject *obj, PyObject *name)
{
    PyObject *v = real_getattr(obj, name);
    if (v != NULL && interface_name(name))
        return checked(obj, name, v);
    return v;
}

/* numpy's own methods that free memory a view still uses (issue 15, raw memory): each left an
 * array on freed memory, a read/write of whatever the allocator puts there next (the channel's
 * nonce, the tests' expected values). seal(ndarray) puts three entries of ndarray's own
 * (static) type dict in front of numpy's:
 * - resize(..., refcheck=False) runs with refcheck=True: numpy's own check that nothing else
 *   holds the array (a view would keep pointing at the old, reallocated memory);
 * - __setstate__ no longer frees the memory the array owned before (numpy freed it whatever
 *   view still pointed into it): the old memory is left to the views (leaked, a few bytes for
 *   the empty array an unpickling fills);
 * - `base`, where it is a memoryview numpy made (np.frombuffer, np.asarray of a buffer), is
 *   handed out holding one buffer export of it for the life of the process, so its release()
 *   (and __exit__) raises BufferError: released, the bytearray under it could be resized and
 *   the array would read freed memory.
 * The originals are held here only. seal() is called by arrays.arm() where numpy is loaded
 * before the check's code, and by PyType_Ready's wrapper (extension tables, below) where an
 * extension module readies numpy.ndarray later. */
typedef struct {  /* the public head of numpy's PyArrayObject_fields (ABI-stable since 1.7) */
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} np_fields;
#define NP_OWNDATA 0x0004

static PyTypeObject *ndarray_type = NULL;
static PyMethodDef *orig_resize = NULL, *orig_setstate = NULL;
static PyGetSetDef *orig_base = NULL;
static PyObject *pinned = NULL;  /* id(memoryview) -> capsule of the export held on it */

static PyObject *
call_def(PyMethodDef *def, PyObject *self, PyObject *args, PyObject *kwds)
{
    int flags = def->ml_flags & ~(METH_CLASS | METH_STATIC | METH_COEXIST);
    Py_ssize_t nargs = PyTuple_GET_SIZE(args), nkw = kwds != NULL ? PyDict_GET_SIZE(kwds) : 0;
    if (flags == (METH_VARARGS | METH_KEYWORDS))
        return ((PyCFunctionWithKeywords)(void (*)(void))def->ml_meth)(self, args, kwds);
    if (nkw == 0 && flags == METH_VARARGS)
        return def->ml_meth(self, args);
    if (flags == (METH_FASTCALL | METH_KEYWORDS) || (nkw == 0 && flags == METH_FASTCALL)) {
        PyObject **stack = PyMem_Malloc((size_t)(nargs + nkw + 1) * sizeof(PyObject *));
        PyObject *names = NULL, *key, *value, *r;
        Py_ssize_t pos = 0, i;
        if (stack == NULL)
            return PyErr_NoMemory();
        for (i = 0; i < nargs; i++)
            stack[i] = PyTuple_GET_ITEM(args, i);
        if (nkw > 0) {
            names = PyTuple_New(nkw);
            if (names == NULL) {
                PyMem_Free(stack);
                return NULL;
            }
            for (i = 0; PyDict_Next(kwds, &pos, &key, &value); i++) {
                Py_INCREF(key);
                PyTuple_SET_ITEM(names, i, key);
                stack[nargs + i] = value;
            }
        }
        if (flags == METH_FASTCALL)
            r = ((_PyCFunctionFast)(void (*)(void))def->ml_meth)(self, stack, nargs);
        else
            r = ((_PyCFunctionFastWithKeywords)(void (*)(void))def->ml_meth)(self, stack, nargs, names);
        Py_XDECREF(names);
        PyMem_Free(stack);
        return r;
    }
    return PyErr_Format(PyExc_TypeError, "refused by the grader: ndarray.%s called in a way not known here", def->ml_name);
}

static PyObject *
sealed_resize(PyObject *self, PyObject *args, PyObject *kwds)
{
    PyObject *kw = NULL, *r, *given = kwds != NULL ? PyDict_GetItemString(kwds, "refcheck") : NULL;
    int off = given != NULL ? !PyObject_IsTrue(given) : 0;
    if (off) {
        kw = PyDict_Copy(kwds);
        if (kw == NULL || PyDict_SetItemString(kw, "refcheck", Py_True) < 0) {
            Py_XDECREF(kw);
            return NULL;
        }
    }
    r = call_def(orig_resize, self, args, kw != NULL ? kw : kwds);
    Py_XDECREF(kw);
    if (r == NULL && off && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "refused by the grader: ndarray.resize(refcheck=False) of an array "
                        "something else holds (a view of it would be left on freed memory)");
    }
    return r;
}

static PyObject *
type_attr(const char *name, PyObject *self)
{
    PyObject *d = PyDict_GetItemString(ndarray_type->tp_dict, name);
    descrgetfunc get = d != NULL ? Py_TYPE(d)->tp_descr_get : NULL;
    if (get == NULL)
        return PyErr_Format(PyExc_TypeError, "refused by the grader: ndarray.%s not found", name);
    return get(d, self, (PyObject *)ndarray_type);
}

/* The fields this file reads and writes are where numpy keeps them: checked on the array
 * itself against what numpy's own getters say (fail closed). */
static int
layout_matches(PyObject *self)
{
    np_fields *f = (np_fields *)self;
    PyObject *ndim = NULL, *face = NULL, *flags = NULL, *own = NULL, *base = NULL, *data;
    int ok = 0;
    if (!PyObject_TypeCheck(self, ndarray_type))
        return 0;
    ndim = type_attr("ndim", self);
    face = type_attr("__array_interface__", self);
    flags = type_attr("flags", self);
    base = orig_base->get(self, orig_base->closure);
    if (ndim == NULL || face == NULL || flags == NULL || base == NULL || !PyDict_Check(face))
        goto done;
    own = PyObject_GetAttrString(flags, "owndata");
    data = PyDict_GetItemString(face, "data");
    if (own == NULL || data == NULL || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1)
        goto done;
    ok = PyLong_AsLong(ndim) == f->nd && PyLong_AsVoidPtr(PyTuple_GET_ITEM(data, 0)) == (void *)f->data
         && (base == Py_None ? f->base == NULL : f->base == base)
         && (PyObject_IsTrue(own) == 1) == ((f->flags & NP_OWNDATA) != 0);
done:
    Py_XDECREF(ndim);
    Py_XDECREF(face);
    Py_XDECREF(flags);
    Py_XDECREF(own);
    Py_XDECREF(base);
    PyErr_Clear();
    return ok;
}

static PyObject *
sealed_setstate(PyObject *self, PyObject *args, PyObject *kwds)
{
    if (!layout_matches(self)) {
        PyErr_SetString(PyExc_TypeError, "refused by the grader: ndarray.__setstate__ where numpy's array "
                        "layout is not the one known here");
        return NULL;
    }
    ((np_fields *)self)->flags &= ~NP_OWNDATA;  /* numpy would free it under every view */
    return call_def(orig_setstate, self, args, kwds);
}

static void
drop_export(PyObject *capsule)
{
    (void)capsule;  /* never: pinned lives as long as the process */
}

static PyObject *
sealed_base(PyObject *self, void *closure)
{
    PyObject *b = orig_base->get(self, orig_base->closure), *key, *capsule;
    Py_buffer *view;
    (void)closure;
    if (b == NULL || !PyMemoryView_Check(b))
        return b;
    key = PyLong_FromVoidPtr(b);
    if (key == NULL || PyDict_GetItemWithError(pinned, key) != NULL || PyErr_Occurred()) {
        Py_XDECREF(key);
        if (PyErr_Occurred()) {
            Py_DECREF(b);
            return NULL;
        }
        return b;
    }
    view = PyMem_Malloc(sizeof(Py_buffer));
    if (view == NULL || PyObject_GetBuffer(b, view, PyBUF_FULL_RO) < 0) {
        PyMem_Free(view);
        Py_DECREF(key);
        Py_DECREF(b);
        return NULL;
    }
    capsule = PyCapsule_New(view, NULL, drop_export);
    if (capsule == NULL || PyDict_SetItem(pinned, key, capsule) < 0) {
        Py_XDECREF(capsule);
        Py_DECREF(key);
        Py_DECREF(b);
        return NULL;  /* the export stays held: fail closed */
    }
    Py_DECREF(capsule);
    Py_DECREF(key);
    return b;
}

static PyMethodDef sealed_defs[] = {
    {"resize", (PyCFunction)(void (*)(void))sealed_resize, METH_VARARGS | METH_KEYWORDS, NULL},
    {"__setstate__", (PyCFunction)(void (*)(void))sealed_setstate, METH_VARARGS | METH_KEYWORDS, NULL},
};
static PyGetSetDef sealed_base_def = {"base", sealed_base, NULL, NULL, NULL};

static int
seal_type(PyTypeObject *t)
{
    PyObject *resize, *setstate, *base, *nr = NULL, *ns = NULL, *nb = NULL;
    if (ndarray_type != NULL)
        return ndarray_type == t ? 0 : -1;
    if (t->tp_dict == NULL || (t->tp_flags & Py_TPFLAGS_HEAPTYPE) || strcmp(t->tp_name, "numpy.ndarray") != 0)
        return -1;
    resize = PyDict_GetItemString(t->tp_dict, "resize");
    setstate = PyDict_GetItemString(t->tp_dict, "__setstate__");
    base = PyDict_GetItemString(t->tp_dict, "base");
    if (resize == NULL || setstate == NULL || base == NULL || !PyObject_TypeCheck(resize, &PyMethodDescr_Type)
        || !PyObject_TypeCheck(setstate, &PyMethodDescr_Type) || !PyObject_TypeCheck(base, &PyGetSetDescr_Type))
        return -1;
    if (pinned == NULL && (pinned = PyDict_New()) == NULL)
        return -1;
    orig_resize = ((PyMethodDescrObject *)resize)->d_method;
    orig_setstate = ((PyMethodDescrObject *)setstate)->d_method;
    orig_base = ((PyGetSetDescrObject *)base)->d_getset;
    if (orig_base->get == NULL)
        return -1;
    sealed_base_def.set = orig_base->set;
    sealed_base_def.doc = orig_base->doc;
    nr = PyDescr_NewMethod(t, &sealed_defs[0]);
    ns = PyDescr_NewMethod(t, &sealed_defs[1]);
    nb = PyDescr_NewGetSet(t, &sealed_base_def);
    if (nr == NULL || ns == NULL || nb == NULL || PyDict_SetItemString(t->tp_dict, "resize", nr) < 0
        || PyDict_SetItemString(t->tp_dict, "__setstate__", ns) < 0 || PyDict_SetItemString(t->tp_dict, "base", nb) < 0) {
        Py_XDECREF(nr);
        Py_XDECREF(ns);
        Py_XDECREF(nb);
        return -1;
    }
    Py_DECREF(nr);
    Py_DECREF(ns);
    Py_DECREF(nb);
    PyType_Modified(t);
    ndarray_type = t;
    return 0;
}

/* seal(ndarray) -> True once numpy.ndarray's three methods are sealed in this process. */
static PyObject *
seal(PyObject *self, PyObject *arg)
{
    if (!PyType_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "seal(numpy.ndarray)");
        return NULL;
    }
    if (seal_type((PyTypeObject *)arg) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "refused by the grader: not numpy's ndarray as known here");
        return NULL;
    }
    Py_RETURN_TRUE;
}

static PyObject *
sealed(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(ndarray_type != NULL);
}

static int
guarded_type_ready(PyTypeObject *t)
{
    int r = PyType_Ready(t);
    if (r == 0 && ndarray_type == NULL && !(t->tp_flags & Py_TPFLAGS_HEAPTYPE) && t->tp_name != NULL
        && strcmp(t->tp_name, "numpy.ndarray") == 0 && seal_type(t) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ImportError, "refused by the grader: numpy.ndarray could not be sealed");
        return -1;
    }
    return r;
}

#ifdef RLVR_GOT
#if defined(__x86_64__)
#define R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define R_GLOB_DAT R_X86_64_GLOB_DAT
#else
#define R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define R_GLOB_DAT R_AARCH64_GLOB_DAT
#endif

static const char *self_path = NULL;
static unsigned long long seen_adds = 0;
static const char *only_path = NULL;  /* prepare(): that object only */

static int
wanted(const char *name)
{
    Py_ssize_t i, n;
    size_t len;
    if (name == NULL || name[0] == '\0' || suffixes == NULL)
        return 0;
    if (self_path != NULL && strcmp(name, self_path) == 0)
        return 0;
    if (only_path != NULL)
        return strcmp(name, only_path) == 0;
    len = strlen(name);
    n = PyTuple_GET_SIZE(suffixes);
    for (i = 0; i < n; i++) {
        PyObject *s = PyTuple_GET_ITEM(suffixes, i);
        size_t sl = (size_t)PyBytes_GET_SIZE(s);
        if (sl <= len && memcmp(name + len - sl, PyBytes_AS_STRING(s), sl) == 0)
            return 1;
    }
    return 0;
}

static void
write_slot(void **slot, void *value, ElfW(Addr) relro_lo, ElfW(Addr) relro_hi)
{
    /* What the loader made read-only after relocating: the RELRO segment's whole pages. A
     * slot outside it sits on a writable page. A slot never straddles a page. */
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)slot & ~(page - 1);
    uintptr_t lo = (uintptr_t)relro_lo & ~(page - 1), hi = (uintptr_t)relro_hi & ~(page - 1);
    int in_relro = (uintptr_t)slot >= lo && (uintptr_t)slot < hi;
    if (*slot == value)
        return;
    if (in_relro && mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0)
        return;
    *slot = value;
    patched_slots++;
    if (in_relro)
        mprotect((void *)start, (size_t)page, PROT_READ);
}

static void
patch_relocs(ElfW(Addr) base, const ElfW(Rela) *rel, size_t size, const ElfW(Sym) *symtab,
             const char *strtab, ElfW(Addr) relro_lo, ElfW(Addr) relro_hi)
{
    size_t i, n = size / sizeof(ElfW(Rela));
    for (i = 0; i < n; i++) {
        unsigned long type = ELF64_R_TYPE(rel[i].r_info);
        const char *sym;
        void **slot;
        if (type != R_JUMP_SLOT && type != R_GLOB_DAT)
            continue;
        sym = strtab + symtab[ELF64_R_SYM(rel[i].r_info)].st_name;
        slot = (void **)(base + rel[i].r_offset);
        if (strcmp(sym, "_PyObject_LookupAttr") == 0 || strcmp(sym, "PyObject_GetOptionalAttr") == 0)
            write_slot(slot, (void *)guarded_lookup, relro_lo, relro_hi);
        else if (strcmp(sym, "PyObject_GetAttr") == 0)
            write_slot(slot, (void *)guarded_getattr, relro_lo, relro_hi);
        else if (strcmp(sym, "PyType_Ready") == 0)
            write_slot(slot, (void *)guarded_type_ready, relro_lo, relro_hi);
    }
}

static int
patch_object(struct dl_phdr_info *info, size_t size, void *data)
{
    ElfW(Addr) base = info->dlpi_addr, relro_lo = 0, relro_hi = 0;
    const ElfW(Dyn) *dyn = NULL;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *rela = NULL, *jmprel = NULL;
    size_t relasz = 0, pltrelsz = 0;
    int i;
    (void)size;
    if (data != NULL)
        *(unsigned long long *)data = info->dlpi_adds;
    if (!wanted(info->dlpi_name))
        return 0;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(base + ph->p_vaddr);
        else if (ph->p_type == PT_GNU_RELRO) {
            relro_lo = base + ph->p_vaddr;
            relro_hi = relro_lo + ph->p_memsz;
        }
    }
    if (dyn == NULL)
        return 0;
#define RLVR_PTR(v) ((v) < base ? (v) + base : (v))
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)RLVR_PTR(dyn->d_un.d_ptr); break;
        case DT_STRTAB: strtab = (const char *)RLVR_PTR(dyn->d_un.d_ptr); break;
        case DT_RELA: rela = (const ElfW(Rela) *)RLVR_PTR(dyn->d_un.d_ptr); break;
        case DT_RELASZ: relasz = dyn->d_un.d_val; break;
        case DT_JMPREL: jmprel = (const ElfW(Rela) *)RLVR_PTR(dyn->d_un.d_ptr); break;
        case DT_PLTRELSZ: pltrelsz = dyn->d_un.d_val; break;
        default: break;
        }
    }
#undef RLVR_PTR
    if (symtab == NULL || strtab == NULL)
        return 0;
    if (rela != NULL)
        patch_relocs(base, rela, relasz, symtab, strtab, relro_lo, relro_hi);
    if (jmprel != NULL)
        patch_relocs(base, jmprel, pltrelsz, symtab, strtab, relro_lo, relro_hi);
    return 0;
}

static int
count_adds(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(unsigned long long *)data = info->dlpi_adds;
    return 1;
}
#endif /* RLVR_GOT */

/* install() -> number of table entries pointed at the wrappers so far. Walks the loaded
 * objects only when one was loaded since the last walk. */
static PyObject *
install(PyObject *self, PyObject *unused)
{
#ifdef RLVR_GOT
    unsigned long long adds = 0;
    if (checker == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "arm() first");
        return NULL;
    }
    dl_iterate_phdr(count_adds, &adds);
    if (adds != seen_adds) {
        dl_iterate_phdr(patch_object, NULL);
        seen_adds = adds;
    }
#endif
    return PyLong_FromLong(patched_slots);
}

/* prepare(path): load the extension module file `path` (under the library tree arm() was
 * given) without initialising it, and patch it, so its module code runs patched from its
 * first line: the import that follows finds it loaded. Returns the entries patched so far. */
static PyObject *
prepare(PyObject *self, PyObject *arg)
{
#ifdef RLVR_GOT
    PyObject *b = NULL;
    char real[PATH_MAX];
    Py_ssize_t i, n;
    int ok = 0;
    void *handle;
    if (checker == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "arm() first");
        return NULL;
    }
    if (!PyUnicode_FSConverter(arg, &b))
        return NULL;
    if (realpath(PyBytes_AS_STRING(b), real) == NULL) {
        Py_DECREF(b);
        return PyLong_FromLong(patched_slots);  /* the import fails on its own */
    }
    Py_DECREF(b);
    n = PyTuple_GET_SIZE(prefixes);
    for (i = 0; i < n && !ok; i++) {
        PyObject *p = PyTuple_GET_ITEM(prefixes, i);
        size_t pl = (size_t)PyBytes_GET_SIZE(p);
        ok = pl > 0 && strncmp(real, PyBytes_AS_STRING(p), pl) == 0;
    }
    if (!ok || !wanted(real)) {
        PyErr_SetString(PyExc_PermissionError, "refused by the grader: not an extension module of the library tree");
        return NULL;
    }
    handle = dlopen(real, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (handle == NULL)
        handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
        return PyLong_FromLong(patched_slots);  /* the import reports why */
    only_path = real;
    dl_iterate_phdr(patch_object, NULL);
    only_path = NULL;
    dlclose(handle);  /* the import's own dlopen holds it from here */
    handle = dlopen(real, RTLD_NOW | RTLD_LOCAL);  /* and keep one reference, so it stays patched */
    (void)handle;
    return PyLong_FromLong(patched_slots);
#else
    return PyLong_FromLong(patched_slots);
#endif
}

/* arm(check, suffixes, prefixes): once per process. */
static PyObject *
arm(PyObject *self, PyObject *args)
{
    PyObject *check, *sfx, *pfx;
    if (!PyArg_ParseTuple(args, "OO!O!", &check, &PyTuple_Type, &sfx, &PyTuple_Type, &pfx))
        return NULL;
    if (checker != NULL) {
        PyErr_SetString(PyExc_PermissionError, "refused by the grader: already armed");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(sfx); i++)
        if (!PyBytes_CheckExact(PyTuple_GET_ITEM(sfx, i)))
            return PyErr_Format(PyExc_TypeError, "suffixes: bytes");
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(pfx); i++)
        if (!PyBytes_CheckExact(PyTuple_GET_ITEM(pfx, i)))
            return PyErr_Format(PyExc_TypeError, "prefixes: bytes");
    Py_INCREF(check);
    Py_INCREF(sfx);
    Py_INCREF(pfx);
    checker = check;
    suffixes = sfx;
    prefixes = pfx;
    Py_RETURN_NONE;
}

static PyObject *
armed(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(checker != NULL);
}

static PyObject *
supported(PyObject *self, PyObject *unused)
{
#ifdef RLVR_GOT
    Py_RETURN_TRUE;
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef methods[] = {
    {"arm", arm, METH_VARARGS, "arm(check, suffixes, prefixes): the checker, once per process."},
    {"armed", armed, METH_NOARGS, "Whether arm() was called in this process."},
    {"install", install, METH_NOARGS, "Patch every loaded extension module; entries patched so far."},
    {"prepare", prepare, METH_O, "prepare(path): load an extension module of the library tree and patch it first."},
    {"supported", supported, METH_NOARGS, "Whether this platform's tables can be patched."},
    {"seal", seal, METH_O, "seal(numpy.ndarray): resize, __setstate__ and base that leave no array on freed memory."},
    {"sealed", sealed, METH_NOARGS, "Whether numpy.ndarray is sealed in this process."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_arrays", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__arrays(void)
{
    PyObject *m = PyModule_Create(&module);
#ifdef RLVR_GOT
    Dl_info info;
    if (dladdr((void *)&PyInit__arrays, &info) && info.dli_fname != NULL)
        self_path = strdup(info.dli_fname);
#endif
#if PY_VERSION_HEX >= 0x030D0000
    real_lookup = PyObject_GetOptionalAttr;
#else
    real_lookup = _PyObject_LookupAttr;
#endif
    real_getattr = PyObject_GetAttr;
    return m;
}
