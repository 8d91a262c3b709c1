/* The version tags of dicts (PEP 509), for the harness's pristine restorer (runner.py).
 *
 * CPython gives every dict a tag that changes whenever the dict does. The restorer puts back
 * what a candidate rebound in builtins and the modules the tests use, before the tests and
 * after each step; with the tags it skips the dicts nobody touched without reading their
 * values (reading a value increfs it, and every object so touched sits on a page the check's
 * child then copies: ~1.4 ms a HumanEval check). This used to go through ctypes, which left
 * ctypes loaded in every check: its types are reachable from object.__subclasses__() without
 * an import, and a ctypes Union reads any address with no audit event.
 *
 * changed(dicts, tags) -> list of the indices whose dict's tag differs from tags[i] (None: differs);
 * tags(dicts) -> tuple of the current tags (a class stands for its own namespace dict); put_back(d, items) sets again what changed (below);
 * held(seqs, idents) -> which lists, sets, bytearrays and objects' classes and dicts changed (below);
 * new_keys(d, known) -> the keys of d not in the set known (below). Reading a tag tells nobody anything secret: the
 * module is harmless in a candidate's hands. Optional: without it the restorer compares every
 * value (runner._VERSION is None). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dlfcn.h>
#include <stdio.h>

#if PY_VERSION_HEX >= 0x030C0000
/* 3.12 deprecated ma_version_tag (watchers replace it): the restorer reads every value. */
#define RLVR_NO_TAGS 1
#endif

/* A dict, or a class's own namespace dict (what vars(cls) shows through a read-only proxy):
 * the fingerprint of pytest's and the harness's classes reads their tags without holding the
 * writable dicts themselves. Borrowed; NULL when `o` is neither. */
static PyObject *
as_dict(PyObject *o)
{
    if (PyType_Check(o))
        o = ((PyTypeObject *)o)->tp_dict;
    return (o != NULL && PyDict_Check(o)) ? o : NULL;
}

static PyObject *
tags(PyObject *self, PyObject *dicts)
{
#ifdef RLVR_NO_TAGS
    PyErr_SetString(PyExc_NotImplementedError, "no dict version tags on this interpreter");
    return NULL;
#else
    if (!PyTuple_CheckExact(dicts)) {
        PyErr_SetString(PyExc_TypeError, "tags() takes a tuple of dicts");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(dicts);
    PyObject *out = PyTuple_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = as_dict(PyTuple_GET_ITEM(dicts, i));
        if (d == NULL) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_TypeError, "tags() takes a tuple of dicts or classes");
            return NULL;
        }
        PyObject *tag = PyLong_FromUnsignedLongLong(((PyDictObject *)d)->ma_version_tag);
        if (tag == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, tag);
    }
    return out;
#endif
}

static PyObject *
changed(PyObject *self, PyObject *args)
{
#ifdef RLVR_NO_TAGS
    PyErr_SetString(PyExc_NotImplementedError, "no dict version tags on this interpreter");
    return NULL;
#else
    PyObject *dicts, *known;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &dicts, &PyList_Type, &known))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(dicts);
    if (PyList_GET_SIZE(known) != n) {
        PyErr_SetString(PyExc_ValueError, "changed() takes as many tags as dicts");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *d = as_dict(PyTuple_GET_ITEM(dicts, i));
        PyObject *tag = PyList_GET_ITEM(known, i);
        if (d != NULL && tag == Py_None) {  /* no tag known yet: changed */
            PyObject *index = PyLong_FromSsize_t(i);
            if (index == NULL || PyList_Append(out, index) < 0) {
                Py_XDECREF(index);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(index);
            continue;
        }
        if (d == NULL || !PyLong_CheckExact(tag)) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_TypeError, "changed() takes dicts or classes and int tags");
            return NULL;
        }
        unsigned long long want = PyLong_AsUnsignedLongLong(tag);
        if (want == (unsigned long long)-1 && PyErr_Occurred()) {
            Py_DECREF(out);
            return NULL;
        }
        if (((PyDictObject *)d)->ma_version_tag != want) {
            PyObject *index = PyLong_FromSsize_t(i);
            if (index == NULL || PyList_Append(out, index) < 0) {
                Py_XDECREF(index);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(index);
        }
    }
    return out;
#endif
}

/* put_back(d, items) -> number of keys set: d[k] = v for each (k, v) of the tuple `items` whose
 * value in d is not v (absent included). Values are compared by identity with borrowed
 * references: nothing is increfed that is already in place, so a dict nobody changed costs no
 * copy-on-write page of its values. Keys are the snapshot's own exact strs or other hashables
 * taken from the dict itself: their hash and equality are the dict's own. */
static PyObject *
put_back(PyObject *self, PyObject *args)
{
    PyObject *d, *items;
    if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &d, &PyTuple_Type, &items))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(items), set = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *kv = PyTuple_GET_ITEM(items, i);
        if (!PyTuple_CheckExact(kv) || PyTuple_GET_SIZE(kv) != 2) {
            PyErr_SetString(PyExc_TypeError, "put_back() takes a tuple of (key, value) pairs");
            return NULL;
        }
        PyObject *k = PyTuple_GET_ITEM(kv, 0), *v = PyTuple_GET_ITEM(kv, 1);
        PyObject *have = PyDict_GetItemWithError(d, k);
        if (have == v)
            continue;
        if (have == NULL && PyErr_Occurred())
            return NULL;
        if (PyDict_SetItem(d, k, v) < 0)
            return NULL;
        set++;
    }
    return PyLong_FromSsize_t(set);
}

static int
append_index(PyObject *out, Py_ssize_t i)
{
    PyObject *index = PyLong_FromSsize_t(i);
    if (index == NULL)
        return -1;
    int rc = PyList_Append(out, index);
    Py_DECREF(index);
    return rc;
}

/* Does the list or set `seq` still hold exactly `items` (a tuple taken by iterating it), the
 * same objects in the same order? A set iterates in the order of its table: unchanged, the
 * same order; changed, anything (a restore then puts back what was already there). Identity
 * only: no element's hash or equality runs. 1 same, 0 not, -1 error. */
static int
same_items(PyObject *seq, PyObject *items)
{
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    if (PyList_CheckExact(seq)) {
        if (PyList_GET_SIZE(seq) != n)
            return 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (PyList_GET_ITEM(seq, i) != PyTuple_GET_ITEM(items, i))
                return 0;
        return 1;
    }
    if (PyAnySet_CheckExact(seq)) {
        if (PySet_GET_SIZE(seq) != n)
            return 0;
        PyObject *it = PyObject_GetIter(seq);
        if (it == NULL)
            return -1;
        PyObject *x;
        Py_ssize_t i = 0;
        int same = 1;
        while ((x = PyIter_Next(it)) != NULL) {
            if (i >= n || x != PyTuple_GET_ITEM(items, i))
                same = 0;
            Py_DECREF(x);
            i++;
            if (!same)
                break;
        }
        Py_DECREF(it);
        if (PyErr_Occurred())
            return -1;
        return same && i == n;
    }
    PyErr_SetString(PyExc_TypeError, "held() compares lists and sets");
    return -1;
}

/* held(seqs, idents) -> (indices of seqs changed, indices of idents changed): the restorer's
 * state below module and class dicts (runner._held). seqs: ((list, set or bytearray, its items
 * as a tuple (bytes for a bytearray), ...), ...); idents: ((object, its class, its own dict or
 * None), ...): changed when the object's class is another, or its dict is another object.
 * Nothing but identities and sizes is read: no code of anyone's runs. */
static PyObject *
held(PyObject *self, PyObject *args)
{
    PyObject *seqs, *idents;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &seqs, &PyTuple_Type, &idents))
        return NULL;
    PyObject *seq_out = PyList_New(0), *ident_out = PyList_New(0);
    if (seq_out == NULL || ident_out == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seqs); i++) {
        PyObject *entry = PyTuple_GET_ITEM(seqs, i);
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) < 2) {
            PyErr_SetString(PyExc_TypeError, "held() takes (sequence, items, ...) entries");
            goto fail;
        }
        PyObject *seq = PyTuple_GET_ITEM(entry, 0), *items = PyTuple_GET_ITEM(entry, 1);
        int same;
        if (PyByteArray_CheckExact(seq) && PyBytes_CheckExact(items)) {
            Py_ssize_t n = PyBytes_GET_SIZE(items);
            same = PyByteArray_GET_SIZE(seq) == n && memcmp(PyByteArray_AS_STRING(seq), PyBytes_AS_STRING(items), n) == 0;
        } else if (PyTuple_CheckExact(items)) {
            same = same_items(seq, items);
            if (same < 0)
                goto fail;
        } else {
            PyErr_SetString(PyExc_TypeError, "held() takes a tuple or bytes of items");
            goto fail;
        }
        if (!same && append_index(seq_out, i) < 0)
            goto fail;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(idents); i++) {
        PyObject *entry = PyTuple_GET_ITEM(idents, i);
        if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 3) {
            PyErr_SetString(PyExc_TypeError, "held() takes (object, class, dict or None) entries");
            goto fail;
        }
        PyObject *obj = PyTuple_GET_ITEM(entry, 0), *cls = PyTuple_GET_ITEM(entry, 1), *own = PyTuple_GET_ITEM(entry, 2);
        int same = (PyObject *)Py_TYPE(obj) == cls;
        if (same && own != Py_None) {
            PyObject *now = PyObject_GenericGetDict(obj, NULL);
            if (now == NULL) {
                PyErr_Clear();
                same = 0;
            } else {
                same = now == own;
                Py_DECREF(now);
            }
        }
        if (!same && append_index(ident_out, i) < 0)
            goto fail;
    }
    return Py_BuildValue("(NN)", seq_out, ident_out);
fail:
    Py_XDECREF(seq_out);
    Py_XDECREF(ident_out);
    return NULL;
}

/* new_keys(d, known) -> the keys of d not in the set known, in d's order (runner._new_modules):
 * borrowed, where a Python loop over sys.modules increfs every name on a page the child copies.
 * A key that is not an exact str is held while its hash runs. */
static PyObject *
new_keys(PyObject *self, PyObject *args)
{
    PyObject *d, *known;
    if (!PyArg_ParseTuple(args, "O!O", &PyDict_Type, &d, &known))
        return NULL;
    if (!PyAnySet_Check(known)) {
        PyErr_SetString(PyExc_TypeError, "new_keys() takes a dict and a set of keys");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(d, &pos, &k, &v)) {
        int exact = PyUnicode_CheckExact(k), has;
        if (exact) {
            has = PySet_Contains(known, k);
        } else {
            Py_INCREF(k);
            has = PySet_Contains(known, k);
            Py_DECREF(k);
        }
        if (has < 0 || (!has && PyList_Append(out, k) < 0)) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

/* -- array.array's item setter, sealed (red team rtx, issue 15: raw memory) -----------------
 * Every way an array takes an item (a[i] = v, append, insert, extend, fromlist, the
 * constructor) calls its type's setitem(ap, i, v), which the index check has already passed;
 * setitem then converts v, and for anything but an exact int or float that runs v's
 * __index__/__float__: Python code that can empty the array, which takes a fresh small buffer,
 * and the write lands i items past it. With id() and buffer_info() giving addresses, that is a
 * write anywhere (array_setitem_index_frees_its_buffer: a float's type pointer became
 * bytearray's and every address was readable and writable). seal_array_items swaps each
 * typecode's setitem for one that converts v first, with no write pending, and checks the index
 * again after the conversion. The layout is CPython's (Modules/arraymodule.c, 3.8-3.13),
 * checked against each array passed in before anything is written. */
struct rlvr_arrayobject;
struct rlvr_arraydescr {
    char typecode;
    int itemsize;
    PyObject *(*getitem)(struct rlvr_arrayobject *, Py_ssize_t);
    int (*setitem)(struct rlvr_arrayobject *, Py_ssize_t, PyObject *);
    int (*compareitems)(const void *, const void *, Py_ssize_t);
    const char *formats;
    int is_integer_type;
    int is_signed;
};
struct rlvr_arrayobject {
    PyObject_VAR_HEAD
    char *ob_item;
    Py_ssize_t allocated;
    const struct rlvr_arraydescr *ob_descr;
    PyObject *weakreflist;
    Py_ssize_t ob_exports;
};
typedef int (*array_setitem)(struct rlvr_arrayobject *, Py_ssize_t, PyObject *);
#define RLVR_TYPECODES 32
static const struct rlvr_arraydescr *sealed_descr[RLVR_TYPECODES];
static array_setitem sealed_orig[RLVR_TYPECODES];
static int sealed_count;

static array_setitem
original_setitem(const struct rlvr_arraydescr *d)
{
    for (int k = 0; k < sealed_count; k++) {
        if (sealed_descr[k] == d) {
            return sealed_orig[k];
        }
    }
    return NULL;
}

static int
sealed_setitem(struct rlvr_arrayobject *ap, Py_ssize_t i, PyObject *v)
{
    const struct rlvr_arraydescr *d = ap->ob_descr;
    array_setitem orig = original_setitem(d);
    if (orig == NULL) {
        PyErr_SetString(PyExc_SystemError, "array: an item type the grader did not seal");
        return -1;
    }
    /* i < 0: a check of the value only (ins1), nothing is written; exact ints and floats and
     * the character typecodes convert without running Python code */
    if (i < 0 || PyLong_CheckExact(v) || PyFloat_CheckExact(v) ||
            (!d->is_integer_type && d->typecode != 'f' && d->typecode != 'd')) {
        return orig(ap, i, v);
    }
    PyObject *plain;
    if (d->is_integer_type) {
        plain = PyNumber_Index(v);
    }
    else {
        double x = PyFloat_AsDouble(v);
        plain = (x == -1.0 && PyErr_Occurred()) ? NULL : PyFloat_FromDouble(x);
    }
    if (plain == NULL) {
        return -1;
    }
    if (i >= Py_SIZE(ap)) {
        Py_DECREF(plain);
        PyErr_SetString(PyExc_IndexError, "array changed size while an item was converted");
        return -1;
    }
    int r = orig(ap, i, plain);
    Py_DECREF(plain);
    return r;
}

static int
patch_setitem(const struct rlvr_arraydescr *d, array_setitem fn)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t at = (uintptr_t)&d->setitem;
    uintptr_t start = at & ~(uintptr_t)(page - 1);
    size_t len = (at + sizeof(fn) > start + (uintptr_t)page) ? 2 * (size_t)page : (size_t)page;
    if (mprotect((void *)start, len, PROT_READ | PROT_WRITE) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    ((struct rlvr_arraydescr *)d)->setitem = fn;
    mprotect((void *)start, len, PROT_READ);
    return 0;
}

/* seal_array_items(arrays) -> how many item types are sealed now. `arrays`: one array.array of
 * each typecode; each one's descriptor is checked (typecode, item size) before it is patched. */
static PyObject *
seal_array_items(PyObject *self, PyObject *arrays)
{
    if (!PyTuple_Check(arrays)) {
        PyErr_SetString(PyExc_TypeError, "seal_array_items takes a tuple of arrays");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(arrays); k++) {
        PyObject *a = PyTuple_GET_ITEM(arrays, k);
        if (strcmp(Py_TYPE(a)->tp_name, "array.array") != 0 ||
                Py_TYPE(a)->tp_basicsize != (Py_ssize_t)sizeof(struct rlvr_arrayobject)) {
            PyErr_SetString(PyExc_TypeError, "not an array.array of the layout this module knows");
            return NULL;
        }
        PyObject *tc = PyObject_GetAttrString(a, "typecode");
        PyObject *isz = tc == NULL ? NULL : PyObject_GetAttrString(a, "itemsize");
        if (isz == NULL) {
            Py_XDECREF(tc);
            return NULL;
        }
        const struct rlvr_arraydescr *d = ((struct rlvr_arrayobject *)a)->ob_descr;
        int ok = PyUnicode_Check(tc) && PyUnicode_GET_LENGTH(tc) == 1 &&
                 PyUnicode_READ_CHAR(tc, 0) == (Py_UCS4)(unsigned char)d->typecode &&
                 PyLong_AsLong(isz) == d->itemsize;
        Py_DECREF(tc);
        Py_DECREF(isz);
        if (!ok) {
            PyErr_SetString(PyExc_TypeError, "an array whose descriptor is not the layout this module knows");
            return NULL;
        }
        if (d->setitem == sealed_setitem || original_setitem(d) != NULL) {
            continue;
        }
        if (sealed_count >= RLVR_TYPECODES) {
            PyErr_SetString(PyExc_OverflowError, "too many array item types");
            return NULL;
        }
        sealed_descr[sealed_count] = d;
        sealed_orig[sealed_count] = d->setitem;
        sealed_count++;
        if (patch_setitem(d, sealed_setitem) != 0) {
            sealed_count--;
            return NULL;
        }
    }
    return PyLong_FromLong(sealed_count);
}

/* mmap.mmap's item assignment (red team rtx): `m[i] = v` checks i against the map's size, then
 * converts v, whose __index__ may resize (mremap moves it) or close the map: the byte is written
 * through the old pointer. Sealed as array.array's setter is: the index, the value and a slice's
 * bounds are converted to exact ints first (whatever Python code that runs), then the module's own
 * setter runs on plain ints, which run nothing. The setter is replaced in the type's slot and in
 * its `__setitem__`/`__delitem__` wrappers, and in the module's static slot table, so a map type
 * made by importing mmap again (multi-phase init makes a new class) gets the sealed one too. */
static objobjargproc mmap_orig;

static int
mmap_sealed_ass(PyObject *self, PyObject *item, PyObject *value)
{
    PyObject *i2 = NULL, *v2 = NULL;
    int r = -1;
    if (PySlice_Check(item)) {
        Py_ssize_t a, b, c;
        if (PySlice_Unpack(item, &a, &b, &c) < 0)
            return -1;
        PyObject *pa = PyLong_FromSsize_t(a), *pb = PyLong_FromSsize_t(b), *pc = PyLong_FromSsize_t(c);
        if (pa && pb && pc)
            i2 = PySlice_New(pa, pb, pc);
        Py_XDECREF(pa);
        Py_XDECREF(pb);
        Py_XDECREF(pc);
        if (i2 == NULL)
            return -1;
        item = i2;
    }
    else if (!PyLong_CheckExact(item) && PyIndex_Check(item)) {
        if ((i2 = PyNumber_Index(item)) == NULL)
            return -1;
        item = i2;
    }
    if (value != NULL && !PyLong_CheckExact(value) && PyIndex_Check(value)) {
        if ((v2 = PyNumber_Index(value)) == NULL)
            goto done;
        value = v2;
    }
    r = mmap_orig(self, item, value);
done:
    Py_XDECREF(i2);
    Py_XDECREF(v2);
    return r;
}

/* the wrapper descriptors (`__setitem__`, `__delitem__`) of a type whose slot is `from` call `to` */
static void
mmap_rewrap(PyTypeObject *t)
{
    static const char *names[] = {"__setitem__", "__delitem__"};
    for (int k = 0; k < 2; k++) {
        PyObject *d = PyDict_GetItemString(t->tp_dict, names[k]);
        if (d != NULL && Py_IS_TYPE(d, &PyWrapperDescr_Type) && ((PyWrapperDescrObject *)d)->d_wrapped == (void *)mmap_orig)
            ((PyWrapperDescrObject *)d)->d_wrapped = (void *)mmap_sealed_ass;
    }
}

/* seal_mmap_items(mmap_type) -> True once sealed. */
static PyObject *
seal_mmap_items(PyObject *self, PyObject *t)
{
    if (!PyType_Check(t) || strcmp(((PyTypeObject *)t)->tp_name, "mmap.mmap") != 0 ||
            !(((PyTypeObject *)t)->tp_flags & Py_TPFLAGS_HEAPTYPE) || ((PyTypeObject *)t)->tp_as_mapping == NULL) {
        PyErr_SetString(PyExc_TypeError, "seal_mmap_items takes mmap.mmap");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)t;
    objobjargproc now = type->tp_as_mapping->mp_ass_subscript;
    if (now == mmap_sealed_ass)
        Py_RETURN_TRUE;
    if (now == NULL || (mmap_orig != NULL && now != mmap_orig)) {
        PyErr_SetString(PyExc_TypeError, "an mmap type whose setter this module does not know");
        return NULL;
    }
    /* the module's static slot table: {Py_mp_ass_subscript, setter}, found in the module's own
     * mapped file by its two words; exactly one, or nothing is patched */
    Dl_info info;
    if (!dladdr((void *)now, &info) || info.dli_fname == NULL) {
        PyErr_SetString(PyExc_OSError, "the mmap module's file is not known");
        return NULL;
    }
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) {
        PyErr_SetFromErrno(PyExc_OSError);
        return NULL;
    }
    PyType_Slot *found = NULL;
    int hits = 0, writable = 0;
    char line[4096];
    while (fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        int off = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &lo, &hi, perms, &off) < 3 || perms[0] != 'r')
            continue;
        char *path = line + off;
        path[strcspn(path, "\n")] = 0;
        if (strcmp(path, info.dli_fname) != 0)
            continue;
        for (uintptr_t at = lo; at + sizeof(PyType_Slot) <= hi; at += sizeof(void *)) {
            PyType_Slot *slot = (PyType_Slot *)at;
            if (slot->slot == Py_mp_ass_subscript && slot->pfunc == (void *)now) {
                found = slot;
                writable = perms[1] == 'w';  /* its page is put back as it was */
                hits++;
            }
        }
    }
    fclose(maps);
    if (hits != 1) {
        PyErr_Format(PyExc_OSError, "the mmap module's slot table is not where this module looks (%d)", hits);
        return NULL;
    }
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)found & ~(uintptr_t)(page - 1);
    size_t len = ((uintptr_t)found + sizeof(PyType_Slot) > start + (uintptr_t)page) ? 2 * (size_t)page : (size_t)page;
    if (!writable && mprotect((void *)start, len, PROT_READ | PROT_WRITE) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return NULL;
    }
    mmap_orig = now;
    found->pfunc = (void *)mmap_sealed_ass;
    if (!writable)
        mprotect((void *)start, len, PROT_READ);
    type->tp_as_mapping->mp_ass_subscript = mmap_sealed_ass;
    mmap_rewrap(type);
    PyType_Modified(type);
    Py_RETURN_TRUE;
}

/* marshal.loads parses the buffer it is given after the audit hook saw a copy of it: a bytearray
 * (or any writable buffer) could be rewritten in between, by another thread or a finalizer that
 * runs while the parse allocates, so bytes the guard found to hold no code object could hold one
 * when parsed. Sealed, marshal.loads copies anything but an exact bytes object into one first (the
 * static method table entry is patched, so a marshal module made again has it too): what the
 * hook checks is what is parsed. */
static PyCFunction marshal_loads_orig;

static PyObject *
marshal_loads_sealed(PyObject *module, PyObject *arg)
{
    if (PyBytes_CheckExact(arg))
        return marshal_loads_orig(module, arg);
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *copy = PyBytes_FromStringAndSize(view.buf, view.len);
    PyBuffer_Release(&view);
    if (copy == NULL)
        return NULL;
    PyObject *r = marshal_loads_orig(module, copy);
    Py_DECREF(copy);
    return r;
}

/* seal_marshal_loads(marshal.loads) -> True once sealed. */
static PyObject *
seal_marshal_loads(PyObject *self, PyObject *f)
{
    if (!PyCFunction_Check(f) || ((PyCFunctionObject *)f)->m_ml == NULL) {
        PyErr_SetString(PyExc_TypeError, "seal_marshal_loads takes marshal.loads");
        return NULL;
    }
    PyMethodDef *def = ((PyCFunctionObject *)f)->m_ml;
    PyObject *owner = PyCFunction_GET_SELF(f);
    const char *owner_name = owner != NULL && PyModule_Check(owner) ? PyModule_GetName(owner) : NULL;
    if (owner_name == NULL || strcmp(owner_name, "marshal") != 0 || strcmp(def->ml_name, "loads") != 0 ||
            def->ml_flags != METH_O) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "seal_marshal_loads takes marshal.loads");
        return NULL;
    }
    if (def->ml_meth == (PyCFunction)marshal_loads_sealed)
        Py_RETURN_TRUE;
    if (marshal_loads_orig != NULL) {
        PyErr_SetString(PyExc_TypeError, "a marshal.loads this module does not know");
        return NULL;
    }
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) {
        PyErr_SetFromErrno(PyExc_OSError);
        return NULL;
    }
    uintptr_t at = (uintptr_t)&def->ml_meth;
    int found = 0, writable = 0;
    char line[4096];
    while (fgets(line, sizeof line, maps)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= at && at + sizeof(void *) <= hi) {
            found = perms[0] == 'r';
            writable = perms[1] == 'w';
            break;
        }
    }
    fclose(maps);
    if (!found) {
        PyErr_SetString(PyExc_OSError, "marshal's method table is not mapped where this module looks");
        return NULL;
    }
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = at & ~(uintptr_t)(page - 1);
    size_t len = (at + sizeof(void *) > start + (uintptr_t)page) ? 2 * (size_t)page : (size_t)page;
    if (!writable && mprotect((void *)start, len, PROT_READ | PROT_WRITE) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return NULL;
    }
    marshal_loads_orig = def->ml_meth;
    def->ml_meth = (PyCFunction)marshal_loads_sealed;
    if (!writable)
        mprotect((void *)start, len, PROT_READ);
    Py_RETURN_TRUE;
}

/* The frame fence (strict.py, docs/fidelity.md "Program code the tests run"): while a step of the
 * tests runs, every frame of code the registry does not hold (the program's) that the check's
 * thread enters from outside such a frame is fenced: `enter()` before it runs, `leave()` when it
 * returns, raises or yields. A call of the tests (`f(x)`) reaches the program through a frame,
 * and so do what the tests run without a call: an operator, a subscript, len()/str()/hash(),
 * a generator's next step, a property, a key function a builtin calls back, a __del__.
 * Inside a fenced frame the interpreter's own evaluator runs (no cost to the program's code);
 * outside, every Python call goes through fence_eval (CPython does not inline a call while a
 * PEP 523 evaluator is set). 3.11's frame layout only: elsewhere the module has no fence_frames
 * and the harness fences the tests' calls alone. fence_frames() answers once per process (the
 * worker, before any candidate): the switch it returns is held by the harness alone, and a
 * candidate that imports this module gets nothing from calling it again. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define Py_BUILD_CORE 1
#include <internal/pycore_frame.h>
#undef Py_BUILD_CORE
#define RLVR_FENCE 1

static PyObject *fence_codes;  /* the registry's table: id(code) -> (code, flags) */
static PyObject *fence_enter, *fence_leave;
static PyThreadState *fence_thread;
static int fence_on, fence_depth, fence_given, fence_failed;

static int
programs_code(PyCodeObject *co)
{
    PyObject *key = PyLong_FromVoidPtr(co);
    if (key == NULL) {
        PyErr_Clear();
        return 1;
    }
    PyObject *entry = PyDict_GetItemWithError(fence_codes, key);
    Py_DECREF(key);
    if (entry == NULL) {
        PyErr_Clear();
        return 1;
    }
    return !(PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) >= 1 && PyTuple_GET_ITEM(entry, 0) == (PyObject *)co);
}

static void
fence_call(PyObject *fn)
{
    /* the frame's pending exception (a throw into a generator, a raise on the way out) is kept */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    /* no collection while the state is read and put back: a finalizer or gc.callbacks of the
     * program's would run inside, unfenced (red team rty); it runs after, fenced */
    int gc_was = PyGC_Disable();
    PyObject *r = PyObject_CallNoArgs(fn);
    if (gc_was)
        PyGC_Enable();
    if (r == NULL) {
        PyErr_Clear();  /* the step fails: switch() says so when it stops (fail closed) */
        fence_failed = 1;
    }
    Py_XDECREF(r);
    PyErr_Restore(et, ev, tb);
}

static PyObject *
fence_eval(PyThreadState *ts, struct _PyInterpreterFrame *f, int throwflag)
{
    if (!fence_on || fence_depth || ts != fence_thread)
        return _PyEval_EvalFrameDefault(ts, f, throwflag);
    /* entered outside a fenced frame: the program's code or anyone's? (errors kept aside) */
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    int program = programs_code(f->f_code);
    PyErr_Restore(et, ev, tb);
    if (!program)
        return _PyEval_EvalFrameDefault(ts, f, throwflag);
    fence_depth = 1;
    fence_call(fence_enter);
    _PyInterpreterState_SetEvalFrameFunc(ts->interp, _PyEval_EvalFrameDefault);
    PyObject *r = _PyEval_EvalFrameDefault(ts, f, throwflag);
    if (fence_on)
        _PyInterpreterState_SetEvalFrameFunc(ts->interp, fence_eval);
    fence_call(fence_leave);
    fence_depth = 0;
    return r;
}

static PyObject *
fence_switch(PyObject *self, PyObject *args)
{
    PyObject *enter = Py_None, *leave = Py_None;
    if (!PyArg_ParseTuple(args, "|OO", &enter, &leave))
        return NULL;
    PyThreadState *ts = PyThreadState_Get();
    if (enter == Py_None) {
        int failed = fence_failed;
        fence_on = fence_failed = 0;
        _PyInterpreterState_SetEvalFrameFunc(ts->interp, _PyEval_EvalFrameDefault);
        return PyBool_FromLong(failed);
    }
    if (!PyCallable_Check(enter) || !PyCallable_Check(leave)) {
        PyErr_SetString(PyExc_TypeError, "enter and leave must be callable");
        return NULL;
    }
    Py_INCREF(enter);
    Py_INCREF(leave);
    Py_XSETREF(fence_enter, enter);
    Py_XSETREF(fence_leave, leave);
    fence_on = 1;
    fence_depth = fence_failed = 0;
    fence_thread = ts;
    _PyInterpreterState_SetEvalFrameFunc(ts->interp, fence_eval);
    Py_RETURN_NONE;
}

static PyMethodDef fence_switch_def = {"fence_switch", fence_switch, METH_VARARGS,
                                       "switch(enter, leave): fence the program's frames; switch(): stop, True if enter or leave failed"};

/* fence_frames(codes) -> switch, once per process */
static PyObject *
fence_frames(PyObject *self, PyObject *codes)
{
    if (!PyDict_Check(codes)) {
        PyErr_SetString(PyExc_TypeError, "fence_frames takes the registry's dict of codes");
        return NULL;
    }
    if (fence_given) {
        PyErr_SetString(PyExc_RuntimeError, "the frame fence is given once per process");
        return NULL;
    }
    fence_given = 1;
    Py_INCREF(codes);
    fence_codes = codes;
    return PyCFunction_New(&fence_switch_def, NULL);
}
#endif

static PyMethodDef methods[] = {
    {"held", held, METH_VARARGS, "held(seqs, idents) -> (indices of seqs changed, indices of idents changed)"},
    {"put_back", put_back, METH_VARARGS, "put_back(d, items) -> how many of the items were set again in d"},
    {"tags", tags, METH_O, "tags(dicts) -> the version tag of each dict in the tuple"},
    {"changed", changed, METH_VARARGS, "changed(dicts, tags) -> indices of the dicts whose tag differs"},
    {"new_keys", new_keys, METH_VARARGS, "new_keys(d, known) -> the keys of the dict d not in the set known, in d's order"},
    {"seal_array_items", seal_array_items, METH_O, "seal_array_items(arrays) -> how many array item types are sealed"},
    {"seal_mmap_items", seal_mmap_items, METH_O, "seal_mmap_items(mmap.mmap) -> True once its item setter is sealed"},
    {"seal_marshal_loads", seal_marshal_loads, METH_O, "seal_marshal_loads(marshal.loads) -> True once it parses a copy of what it is given"},
#ifdef RLVR_FENCE
    {"fence_frames", fence_frames, METH_O, "fence_frames(codes) -> switch(enter, leave) / switch(), once per process"},
#endif
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dictver", NULL, -1, methods};

PyMODINIT_FUNC
PyInit__dictver(void)
{
    return PyModule_Create(&module);
}
