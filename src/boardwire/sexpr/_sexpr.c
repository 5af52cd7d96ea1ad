/* The S-expression tree's compiled inner loops: materialise a lazy list, write a tree.

   What `boardwire.sexpr.node` does in Python (`SList._materialize` through parse.py's
   reader, `SList.to_bytes`), for the spans the fast scan (index.py) already validated:
   same tokens, same whitespace, same teardrop leniency, same tree. Python keeps the
   reference implementation and is used whenever this module is missing or declines
   (it raises ValueError; the caller then runs the Python reader, which reports errors
   with positions).

   Memory: short tokens (atoms and whitespace of at most INTERN_MAX bytes) are shared
   through a bounded table, and each list's whitespace is a tuple shared between lists
   with the same whitespace (node.py turns it into a list when someone edits it). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define INTERN_MAX 24
#define TABLE_SIZE (1 << 18)      /* slots of the token table (power of two) */
#define TABLE_LIMIT (1 << 17)     /* entries before the table is emptied */
#define WS_LIMIT (1 << 16)        /* whitespace tuples before that cache is emptied */

static PyTypeObject *slist_type = NULL;
static Py_ssize_t off_kids, off_ws, off_tail, off_src, off_start, off_end, off_parent, off_implicit;
static PyObject *empty_bytes = NULL, *zero = NULL, *ws_cache = NULL;

#define SLOT(o, off) (*(PyObject **)((char *)(o) + (off)))

static void set_slot(PyObject *o, Py_ssize_t off, PyObject *v) { /* steals v */
    PyObject *old = SLOT(o, off);
    SLOT(o, off) = v;
    Py_XDECREF(old);
}

/* ---- token table ------------------------------------------------------------------ */

static PyObject **table = NULL;
static Py_ssize_t table_used = 0;

static void table_clear(void) {
    if (!table) return;
    for (Py_ssize_t i = 0; i < TABLE_SIZE; i++) Py_CLEAR(table[i]);
    table_used = 0;
}

static PyObject *token(const char *s, Py_ssize_t n) { /* new reference */
    if (n == 0) { Py_INCREF(empty_bytes); return empty_bytes; }
    if (n > INTERN_MAX || !table) return PyBytes_FromStringAndSize(s, n);
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; }
    Py_ssize_t i = (Py_ssize_t)(h & (TABLE_SIZE - 1));
    for (;;) {
        PyObject *t = table[i];
        if (t == NULL) break;
        if (PyBytes_GET_SIZE(t) == n && memcmp(PyBytes_AS_STRING(t), s, n) == 0) {
            Py_INCREF(t);
            return t;
        }
        i = (i + 1) & (TABLE_SIZE - 1);
    }
    PyObject *t = PyBytes_FromStringAndSize(s, n);
    if (!t) return NULL;
    if (table_used >= TABLE_LIMIT) { table_clear(); return t; }
    Py_INCREF(t);
    table[i] = t;
    table_used++;
    return t;
}

/* ---- growable arrays ----------------------------------------------------------------- */

typedef struct { PyObject **v; Py_ssize_t n, cap; } Vec;

static int vec_push(Vec *a, PyObject *o) { /* steals o */
    if (a->n == a->cap) {
        Py_ssize_t cap = a->cap ? a->cap * 2 : 256;
        PyObject **v = PyMem_Realloc(a->v, cap * sizeof(PyObject *));
        if (!v) { Py_DECREF(o); PyErr_NoMemory(); return -1; }
        a->v = v; a->cap = cap;
    }
    a->v[a->n++] = o;
    return 0;
}

static void vec_free(Vec *a) {
    for (Py_ssize_t i = 0; i < a->n; i++) Py_DECREF(a->v[i]);
    PyMem_Free(a->v);
}

typedef struct { PyObject *node; Py_ssize_t base; int td; int implicit; } Frame;

static int is_ws(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0; }
static int is_sep(unsigned char c) { return is_ws(c) || c == '(' || c == ')'; }

static PyObject *new_node(PyObject *parent, int implicit) {
    PyObject *node = slist_type->tp_alloc(slist_type, 0);
    if (!node) return NULL;
    Py_INCREF(Py_None); SLOT(node, off_src) = Py_None;
    Py_INCREF(zero); SLOT(node, off_start) = zero;
    Py_INCREF(zero); SLOT(node, off_end) = zero;
    Py_INCREF(parent); SLOT(node, off_parent) = parent;
    PyObject *flag = implicit ? Py_True : Py_False;
    Py_INCREF(flag); SLOT(node, off_implicit) = flag;
    return node;
}

/* Close the list of frame f: move its children and whitespace off the stacks. */
static int close_frame(Frame *f, Vec *kids, Vec *ws, PyObject *tail) { /* steals tail */
    Py_ssize_t n = kids->n - f->base;
    PyObject *list = PyList_New(n);
    PyObject *tup = PyTuple_New(n);
    if (!list || !tup) { Py_XDECREF(list); Py_XDECREF(tup); Py_DECREF(tail); return -1; }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyList_SET_ITEM(list, i, kids->v[f->base + i]);
        PyTuple_SET_ITEM(tup, i, ws->v[f->base + i]);
    }
    kids->n = ws->n = f->base;
    PyObject *shared = PyDict_SetDefault(ws_cache, tup, tup);
    if (!shared) { Py_DECREF(list); Py_DECREF(tup); Py_DECREF(tail); return -1; }
    Py_INCREF(shared);
    Py_DECREF(tup);
    if (PyDict_GET_SIZE(ws_cache) > WS_LIMIT) PyDict_Clear(ws_cache);
    set_slot(f->node, off_kids, list);
    set_slot(f->node, off_ws, shared);
    set_slot(f->node, off_tail, tail);
    return 0;
}

static PyObject *decline(const char *what, Py_ssize_t pos) {
    PyErr_Format(PyExc_ValueError, "%s at byte %zd", what, pos);
    return NULL;
}

/* materialize(node, src, start, end): fill the lazy list ``node`` from src[start:end]. */
static PyObject *materialize(PyObject *self, PyObject *args) {
    PyObject *root;
    Py_buffer buf;
    Py_ssize_t start, end;
    if (!slist_type) { PyErr_SetString(PyExc_RuntimeError, "configure() first"); return NULL; }
    if (!PyArg_ParseTuple(args, "Oy*nn", &root, &buf, &start, &end)) return NULL;
    if (Py_TYPE(root) != slist_type || start < 0 || end > buf.len || start >= end) {
        PyBuffer_Release(&buf);
        return decline("not a span of an SList", start);
    }
    const unsigned char *s = buf.buf;
    Vec kids = {0}, ws = {0};
    Frame *frames = NULL;
    Py_ssize_t nframes = 0, capframes = 0, pos = start;
    PyObject *result = NULL;
    int gc_was = PyGC_Disable();

    if (s[pos] != '(') { decline("span does not start with '('", pos); goto done; }
    for (;;) {
        Py_ssize_t w0 = pos;
        while (pos < end && is_ws(s[pos])) pos++;
        if (pos >= end) { decline("span ends inside a list", pos); goto done; }
        Py_ssize_t wlen = pos - w0, t0 = pos;
        unsigned char c = s[pos];
        if (c == '(') {
            pos++;
            PyObject *node;
            if (nframes == 0) {
                if (t0 != start) { decline("text before the list", t0); goto done; }
                node = root;
                Py_INCREF(node);
            } else {
                node = new_node(frames[nframes - 1].node, 0);
                if (!node) goto done;
                Py_INCREF(node);
                PyObject *w = token((const char *)s + w0, wlen);
                if (!w || vec_push(&ws, w) < 0 || vec_push(&kids, node) < 0) { Py_DECREF(node); goto done; }
            }
            if (nframes == capframes) {
                capframes = capframes ? capframes * 2 : 32;
                Frame *f = PyMem_Realloc(frames, capframes * sizeof(Frame));
                if (!f) { Py_DECREF(node); PyErr_NoMemory(); goto done; }
                frames = f;
            }
            frames[nframes].node = node;  /* the frame owns this reference */
            frames[nframes].base = kids.n;
            frames[nframes].td = 0;
            frames[nframes].implicit = 0;
            nframes++;
            continue;
        }
        if (c == ')') {
            pos++;
            PyObject *tail = token((const char *)s + w0, wlen);
            if (!tail) goto done;
            Frame *f = &frames[nframes - 1];
            if (close_frame(f, &kids, &ws, tail) < 0) goto done;
            Py_DECREF(f->node);
            nframes--;
            if (nframes == 0) break;
            continue;
        }
        if (c == '"') {
            pos++;
            while (pos < end && s[pos] != '"') {
                if (s[pos] == '\n') { decline("line break in a string", pos); goto done; }
                if (s[pos] == '\\') {
                    pos++;
                    if (pos >= end || s[pos] == '\n') { decline("bad escape", pos); goto done; }
                }
                pos++;
            }
            if (pos >= end) { decline("unterminated string", t0); goto done; }
            pos++;
        } else if (c == '|') {
            pos++;
            while (pos < end && s[pos] != '|') pos++;
            if (pos >= end) { decline("unterminated |...|", t0); goto done; }
            pos++;
        } else if (c == ';') {
            decline("';' comment", t0); goto done;
        } else {
            while (pos < end && !is_sep(s[pos])) pos++;
        }
        PyObject *t = token((const char *)s + t0, pos - t0);
        PyObject *w = t ? token((const char *)s + w0, wlen) : NULL;
        if (!t || !w) { Py_XDECREF(t); goto done; }
        Frame *f = &frames[nframes - 1];
        Py_ssize_t nk = kids.n - f->base;
        if (f->td && nk > 0) {
            /* KiCad's teardrop parser: a keyword without its '(' opens a list. */
            PyObject *node = new_node(f->node, 1);
            if (!node) { Py_DECREF(t); Py_DECREF(w); goto done; }
            Py_INCREF(node);
            if (vec_push(&ws, w) < 0 || vec_push(&kids, node) < 0) { Py_DECREF(node); Py_DECREF(t); goto done; }
            if (nframes == capframes) {
                capframes *= 2;
                Frame *nf = PyMem_Realloc(frames, capframes * sizeof(Frame));
                if (!nf) { Py_DECREF(node); Py_DECREF(t); PyErr_NoMemory(); goto done; }
                frames = nf;
            }
            frames[nframes].node = node;
            frames[nframes].base = kids.n;
            frames[nframes].td = (pos - t0 == 9 && memcmp(s + t0, "teardrops", 9) == 0);
            frames[nframes].implicit = 1;
            nframes++;
            if (vec_push(&ws, (Py_INCREF(empty_bytes), empty_bytes)) < 0 || vec_push(&kids, t) < 0) goto done;
            continue;
        }
        if (nk == 0 && pos - t0 == 9 && memcmp(s + t0, "teardrops", 9) == 0) f->td = 1;
        if (vec_push(&ws, w) < 0 || vec_push(&kids, t) < 0) goto done;
    }
    if (pos != end) { decline("text after the list", pos); goto done; }
    /* children of the root now point at it; the root keeps its own parent */
    PyObject *flag = Py_False;
    Py_INCREF(flag);
    set_slot(root, off_implicit, flag);
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (Py_ssize_t i = 0; i < nframes; i++) Py_DECREF(frames[i].node);
    if (!result) {  /* a failed fill leaves the node lazy: the Python reader fills it */
        Py_INCREF(Py_None);
        set_slot(root, off_kids, Py_None);
        Py_INCREF(Py_None);
        set_slot(root, off_ws, Py_None);
    }
    PyMem_Free(frames);
    vec_free(&kids);
    vec_free(&ws);
    if (gc_was) PyGC_Enable();
    PyBuffer_Release(&buf);
    return result;
}

/* ---- writing --------------------------------------------------------------------------- */

typedef struct { char *p; Py_ssize_t n, cap; } Out;

static int out_put(Out *o, const char *s, Py_ssize_t n) {
    if (o->n + n > o->cap) {
        Py_ssize_t cap = o->cap * 2 > o->n + n ? o->cap * 2 : o->n + n + 4096;
        char *p = PyMem_Realloc(o->p, cap);
        if (!p) { PyErr_NoMemory(); return -1; }
        o->p = p; o->cap = cap;
    }
    memcpy(o->p + o->n, s, n);
    o->n += n;
    return 0;
}

static int out_obj(Out *o, PyObject *b) {
    if (PyBytes_CheckExact(b)) return out_put(o, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b));
    Py_buffer v;
    if (PyObject_GetBuffer(b, &v, PyBUF_SIMPLE) < 0) return -1;
    int r = out_put(o, v.buf, v.len);
    PyBuffer_Release(&v);
    return r;
}

static int write_node(Out *o, PyObject *node, int depth) {
    if (depth > 1000) { PyErr_SetString(PyExc_ValueError, "tree too deep"); return -1; }
    PyObject *kids = SLOT(node, off_kids);
    if (kids == NULL) { PyErr_SetString(PyExc_ValueError, "node without children slot"); return -1; }
    if (kids == Py_None) {  /* lazy: copy the span */
        Py_ssize_t a = PyLong_AsSsize_t(SLOT(node, off_start));
        Py_ssize_t b = PyLong_AsSsize_t(SLOT(node, off_end));
        if ((a == -1 || b == -1) && PyErr_Occurred()) return -1;
        Py_buffer v;
        if (PyObject_GetBuffer(SLOT(node, off_src), &v, PyBUF_SIMPLE) < 0) return -1;
        int r = (a < 0 || b > v.len || a > b) ? (PyErr_SetString(PyExc_ValueError, "bad span"), -1)
                                             : out_put(o, (const char *)v.buf + a, b - a);
        PyBuffer_Release(&v);
        return r;
    }
    PyObject *ws = SLOT(node, off_ws);
    if (!PyList_CheckExact(kids) || !(PyList_CheckExact(ws) || PyTuple_CheckExact(ws))) {
        PyErr_SetString(PyExc_ValueError, "unexpected children storage"); return -1;
    }
    Py_ssize_t n = PyList_GET_SIZE(kids);
    if (PySequence_Fast_GET_SIZE(ws) != n) { PyErr_SetString(PyExc_ValueError, "ws/kids differ"); return -1; }
    PyObject **wv = PySequence_Fast_ITEMS(ws);
    if (SLOT(node, off_implicit) != Py_True && out_put(o, "(", 1) < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *kid = PyList_GET_ITEM(kids, i);
        if (out_obj(o, wv[i]) < 0) return -1;
        if (Py_TYPE(kid) == slist_type) {
            if (write_node(o, kid, depth + 1) < 0) return -1;
        } else if (out_obj(o, kid) < 0) {
            return -1;
        }
    }
    if (out_obj(o, SLOT(node, off_tail)) < 0) return -1;
    return out_put(o, ")", 1);
}

/* to_bytes(node, size_hint=0, lead=b"", trail=b""): lead + the text of ``node`` + trail
   (``node`` an exact SList, else ValueError). One buffer: no list of pieces. */
static PyObject *to_bytes(PyObject *self, PyObject *args) {
    PyObject *node, *lead = NULL, *trail = NULL;
    Py_ssize_t hint = 0;
    if (!slist_type) { PyErr_SetString(PyExc_RuntimeError, "configure() first"); return NULL; }
    if (!PyArg_ParseTuple(args, "O|nSS", &node, &hint, &lead, &trail)) return NULL;
    if (Py_TYPE(node) != slist_type) { PyErr_SetString(PyExc_ValueError, "not an SList"); return NULL; }
    Out o = {NULL, 0, 0};
    o.cap = hint > 0 ? hint + 64 : 4096;
    o.p = PyMem_Malloc(o.cap);
    if (!o.p) return PyErr_NoMemory();
    PyObject *res = NULL;
    if ((!lead || out_obj(&o, lead) == 0) && write_node(&o, node, 0) == 0
        && (!trail || out_obj(&o, trail) == 0))
        res = PyBytes_FromStringAndSize(o.p, o.n);
    PyMem_Free(o.p);
    return res;
}

static Py_ssize_t member_offset(PyTypeObject *type, const char *name) {
    PyObject *d = PyDict_GetItemString(type->tp_dict, name);
    if (!d || Py_TYPE(d) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "%s is not a slot of %s", name, type->tp_name);
        return -1;
    }
    PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
    if (m->type != T_OBJECT_EX) { PyErr_Format(PyExc_TypeError, "slot %s: unexpected kind", name); return -1; }
    return m->offset;
}

/* configure(SList): learn where the node's slots live. */
static PyObject *configure(PyObject *self, PyObject *arg) {
    if (!PyType_Check(arg)) { PyErr_SetString(PyExc_TypeError, "expected the SList class"); return NULL; }
    PyTypeObject *type = (PyTypeObject *)arg;
    const char *names[] = {"_kids", "_ws", "_tail", "_src", "_start", "_end", "parent", "implicit"};
    Py_ssize_t *offs[] = {&off_kids, &off_ws, &off_tail, &off_src, &off_start, &off_end, &off_parent,
                          &off_implicit};
    for (int i = 0; i < 8; i++) {
        Py_ssize_t off = member_offset(type, names[i]);
        if (off < 0) return NULL;
        *offs[i] = off;
    }
    Py_INCREF(type);
    Py_XSETREF(slist_type, type);
    Py_RETURN_NONE;
}

static PyObject *clear_caches(PyObject *self, PyObject *unused) {
    table_clear();
    PyDict_Clear(ws_cache);
    Py_RETURN_NONE;
}

/* ---- numbers out of range ---------------------------------------------------------- */

/* A token of a list's atoms that may be a number beyond ``limit``: anything but a plain
   decimal with at most three integer digits (KiCad writes millimetres so: 123.456). */
static int maybe_big(const unsigned char *t, Py_ssize_t n) {
    Py_ssize_t i = 0, digits = 0;
    if (i < n && (t[i] == '-' || t[i] == '+')) i++;
    if (i >= n) return 0;
    unsigned char c = t[i];
    if (c == 'i' || c == 'I' || c == 'n' || c == 'N') return 1;  /* inf, nan */
    if (!(c == '.' || (c >= '0' && c <= '9'))) return 0;         /* a keyword */
    while (i < n && t[i] >= '0' && t[i] <= '9') { i++; digits++; }
    if (digits > 3) return 1;
    if (i < n && t[i] == '.') { i++; while (i < n && t[i] >= '0' && t[i] <= '9') i++; }
    return i < n;  /* an exponent (1e12) or anything else after the digits */
}

/* beyond(src, start, end, limit, heads) -> (token offset, head offset, item offset) | None:
   the first atom of src[start:end] that reads whole as a number (strtod) that is not
   finite or whose magnitude exceeds ``limit``, in a list whose keyword is in the set
   ``heads``; the item is the list directly inside the root that holds it. Strings and
   |...| blobs are skipped. One pass over the bytes, no objects made. */
static PyObject *beyond(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t start, end;
    double limit;
    PyObject *heads;
    if (!PyArg_ParseTuple(args, "y*nndO", &buf, &start, &end, &limit, &heads)) return NULL;
    if (!PyAnySet_Check(heads)) { PyBuffer_Release(&buf); PyErr_SetString(PyExc_TypeError, "heads: a set of bytes"); return NULL; }
    if (start < 0) start = 0;
    if (end > buf.len) end = buf.len;
    const unsigned char *s = buf.buf;
    enum { DEPTH = 128 };
    Py_ssize_t head[DEPTH], hlen[DEPTH];
    Py_ssize_t depth = 0, item = -1, pos = start;
    int first = 0;  /* the next atom is its list's keyword */
    PyObject *result = NULL;
    static unsigned char sep[256];  /* 1: whitespace, 2: ( or ) */
    if (!sep['(']) {
        sep[' '] = sep['\t'] = sep['\r'] = sep['\n'] = sep[0] = 1;
        sep['('] = sep[')'] = 2;
    }
    while (pos < end) {
        unsigned char c = s[pos];
        if (sep[c] == 1) { pos++; continue; }
        if (c == '(') {
            if (depth == 1) item = pos;
            if (depth < DEPTH) { head[depth] = -1; hlen[depth] = 0; }
            depth++; first = 1; pos++;
            continue;
        }
        if (c == ')') { if (depth > 0) depth--; first = 0; pos++; continue; }
        Py_ssize_t t0 = pos;
        if (c == '"') {
            pos++;
            while (pos < end && s[pos] != '"') pos += (s[pos] == '\\') ? 2 : 1;
            pos++;
            first = 0;
            continue;
        }
        if (c == '|') {
            pos++;
            while (pos < end && s[pos] != '|') pos++;
            pos++;
            first = 0;
            continue;
        }
        while (pos < end && !sep[s[pos]]) pos++;
        Py_ssize_t n = pos - t0, d = depth - 1;
        if (first) {
            first = 0;
            if (d >= 0 && d < DEPTH) { head[d] = t0; hlen[d] = n; }
            continue;
        }
        if (d < 0 || d >= DEPTH || head[d] < 0 || !maybe_big(s + t0, n)) continue;
        char tmp[64];
        if (n >= (Py_ssize_t)sizeof tmp) n = sizeof tmp - 1;  /* a longer token is no number strtod reads whole */
        memcpy(tmp, s + t0, n);
        tmp[n] = 0;
        char *stop;
        double v = PyOS_string_to_double(tmp, &stop, NULL);  /* locale-free strtod */
        if (v == -1.0 && PyErr_Occurred()) { PyErr_Clear(); continue; }
        if (stop != tmp + n || pos - t0 != n) continue;
        if (!(v != v || v > limit || v < -limit)) continue;
        PyObject *key = PyBytes_FromStringAndSize((const char *)s + head[d], hlen[d]);
        if (!key) break;
        int hit = PySet_Contains(heads, key);
        Py_DECREF(key);
        if (hit < 0) break;
        if (hit) { result = Py_BuildValue("(nnn)", t0, head[d], item); break; }
    }
    PyBuffer_Release(&buf);
    if (!result && !PyErr_Occurred()) Py_RETURN_NONE;
    return result;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_O, "configure(SList): learn the node class's slots."},
    {"materialize", materialize, METH_VARARGS,
     "materialize(node, src, start, end): fill a lazy list from a validated span (ValueError: "
     "declined; the node stays lazy)."},
    {"to_bytes", to_bytes, METH_VARARGS, "to_bytes(node, size_hint=0) -> bytes: the node's text."},
    {"beyond", beyond, METH_VARARGS,
     "beyond(src, start, end, limit, heads) -> (token, head, item) offsets | None: the first "
     "number beyond +-limit (or not finite) in a list whose keyword is in heads."},
    {"clear_caches", clear_caches, METH_NOARGS, "Forget the shared tokens and whitespace tuples."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_sexpr", NULL, -1, methods};

PyMODINIT_FUNC PyInit__sexpr(void) {
    empty_bytes = PyBytes_FromStringAndSize(NULL, 0);
    zero = PyLong_FromLong(0);
    ws_cache = PyDict_New();
    table = PyMem_Calloc(TABLE_SIZE, sizeof(PyObject *));
    if (!empty_bytes || !zero || !ws_cache || !table) return NULL;
    return PyModule_Create(&moduledef);
}
