/* The router's inner loops: A* over a layered grid, and stamping capsules into grids.
 *
 * Arrays come in through the buffer protocol (numpy arrays from the Python side), so
 * this module needs only Python's headers. A node is n = (layer * H + y) * W + x.
 *
 * Grids (int32, one value per node or per (y, x) cell):
 *   fixed   owner of the fixed obstacles' keep-away area for a track centre: 0 free,
 *           -1 no net may pass, k > 0 only net k may pass.
 *   occ     how many routed-track keep-away areas of other nets cover the node.
 *   vfixed  the same as fixed for a through via's centre (all layers at once).
 *   vocc    the same as occ for a via's centre.
 *   hist    history cost of the node (negotiated congestion), in cost units.
 *   target  a node is a target when target[n] == tgen.
 * Workspace (per call, reused): g (int32 cost), stamp (int32 generation), move (uint8:
 * 0..7 the planar direction it was reached by, 8 + layer for a via from that layer,
 * 255 for a source).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

/* Directions counter-clockwise from +x: E, NE, N, NW, W, SW, S, SE (grid y grows down:
 * "N" is -y). */
static const int DX[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int DY[8] = {0, -1, -1, -1, 0, 1, 1, 1};

typedef struct { int64_t f; int32_t g; int32_t n; } Entry;

typedef struct { Entry *a; Py_ssize_t len, cap; } Heap;

static int heap_push(Heap *h, int64_t f, int32_t g, int32_t n) {
    if (h->len == h->cap) {
        Py_ssize_t cap = h->cap ? h->cap * 2 : 4096;
        Entry *a = (Entry *)realloc(h->a, cap * sizeof(Entry));
        if (!a) return -1;
        h->a = a; h->cap = cap;
    }
    Py_ssize_t i = h->len++;
    while (i > 0) {
        Py_ssize_t p = (i - 1) / 2;
        if (h->a[p].f <= f) break;
        h->a[i] = h->a[p];
        i = p;
    }
    h->a[i].f = f; h->a[i].g = g; h->a[i].n = n;
    return 0;
}

static Entry heap_pop(Heap *h) {
    Entry top = h->a[0];
    Entry last = h->a[--h->len];
    Py_ssize_t i = 0;
    for (;;) {
        Py_ssize_t c = 2 * i + 1;
        if (c >= h->len) break;
        if (c + 1 < h->len && h->a[c + 1].f < h->a[c].f) c++;
        if (h->a[c].f >= last.f) break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->len) h->a[i] = last;
    return top;
}

static int get_buf(PyObject *o, Py_buffer *b, int writable, Py_ssize_t need, const char *name) {
    if (PyObject_GetBuffer(o, b, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0)
        return -1;
    if (b->len < need) {
        PyErr_Format(PyExc_ValueError, "%s holds %zd bytes, needs %zd", name, b->len, need);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* search(fixed, occ, vfixed, vocc, hist, target, g, stamp, move, dims, window, masks,
 *        net, sources, source_costs, costs, pref) -> (cost, [nodes]) or None
 * dims = (L, H, W); window = (x0, y0, x1, y1) inclusive; masks = (planar layer mask,
 * via landing layer mask); costs = (step, diag, via, bend, ripup, gen, tgen,
 * deadline, heuristic weight percent, pref penalty percent); pref: bytes, one per
 * layer (0 none, 1 horizontal preferred, 2 vertical preferred). ripup 0: nodes covered
 * by other nets' routes are blocked; > 0: they cost that much more. via < 0: no vias.
 * deadline: seconds on the monotonic clock (CLOCK_MONOTONIC, Python's time.monotonic
 * on Linux), <= 0 for none; the search gives None at once when it has passed, and
 * stops with None when it passes (checked every DEADLINE_EVERY expansions).
 * No path: None, or False when the search never met the window's edge (every node it
 * could reach lies inside the window: a larger window finds no path either).
 */
#define DEADLINE_EVERY 1024

static double monotonic_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *o[9], *srcs, *scost, *pref_o;
    int L, H, W, x0, y0, x1, y1, net;
    long long lmask, vmask;
    int step, diag, via, bend, ripup, gen, tgen, hweight, prefpen;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOOOOOOOO(iii)(iiii)(LL)iOO(iiiiiiidii)O",
                          &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &o[8],
                          &L, &H, &W, &x0, &y0, &x1, &y1, &lmask, &vmask, &net, &srcs, &scost,
                          &step, &diag, &via, &bend, &ripup, &gen, &tgen, &deadline,
                          &hweight, &prefpen, &pref_o))
        return NULL;
    if (deadline > 0 && monotonic_s() > deadline)
        Py_RETURN_NONE;  /* out of time before it starts */
    Py_ssize_t N = (Py_ssize_t)L * H * W, C = (Py_ssize_t)H * W;
    Py_buffer b[12];
    const char *names[9] = {"fixed", "occ", "vfixed", "vocc", "hist", "target", "g", "stamp", "move"};
    Py_ssize_t need[9] = {N * 4, N * 4, C * 4, C * 4, N * 4, N * 4, N * 4, N * 4, N};
    int wr[9] = {0, 0, 0, 0, 0, 0, 1, 1, 1};
    int got = 0;
    for (; got < 9; got++)
        if (get_buf(o[got], &b[got], wr[got], need[got], names[got]) < 0) goto fail;
    if (get_buf(srcs, &b[9], 0, 0, "sources") < 0) goto fail;
    got++;
    if (get_buf(scost, &b[10], 0, b[9].len, "source_costs") < 0) goto fail;
    got++;
    if (get_buf(pref_o, &b[11], 0, L, "pref") < 0) goto fail;
    got++;
    {
        const int32_t *fixed = b[0].buf, *occ = b[1].buf, *vfixed = b[2].buf, *vocc = b[3].buf;
        const int32_t *hist = b[4].buf, *target = b[5].buf;
        int32_t *g = b[6].buf, *stamp = b[7].buf;
        uint8_t *move = b[8].buf;
        const int32_t *sn = b[9].buf, *sc = b[10].buf;
        const uint8_t *pref = b[11].buf;
        Py_ssize_t ns = b[9].len / 4;
        Heap heap = {NULL, 0, 0};
        int found = -1;
        int32_t found_g = 0;
        long long expanded = 0;
        int timed_out = 0;
        /* the heuristic: octile distance to the targets' bounding box */
        int tx0 = W, ty0 = H, tx1 = -1, ty1 = -1;
        Py_BEGIN_ALLOW_THREADS
        for (int l = 0; l < L; l++)
            for (int y = y0; y <= y1; y++) {
                const int32_t *row = target + ((Py_ssize_t)l * H + y) * W;
                for (int x = x0; x <= x1; x++)
                    if (row[x] == tgen) {
                        if (x < tx0) tx0 = x;
                        if (x > tx1) tx1 = x;
                        if (y < ty0) ty0 = y;
                        if (y > ty1) ty1 = y;
                    }
            }
        Py_END_ALLOW_THREADS
        if (tx1 < 0) {  /* no target inside the window */
            for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
            Py_RETURN_NONE;
        }
        int minstep = step < diag ? step : diag;
        int dstep = diag - step;  /* extra cost of a diagonal over a straight step */
        #define HEUR(x, y) ({ int _dx = (x) < tx0 ? tx0 - (x) : ((x) > tx1 ? (x) - tx1 : 0); \
            int _dy = (y) < ty0 ? ty0 - (y) : ((y) > ty1 ? (y) - ty1 : 0); \
            int _mn = _dx < _dy ? _dx : _dy, _mx = _dx < _dy ? _dy : _dx; \
            (int64_t)((int64_t)_mx * step + (int64_t)_mn * dstep) * hweight / 100; })
        (void)minstep;
        int failed = 0, clipped = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < ns; i++) {
            int32_t n = sn[i];
            if (n < 0 || n >= N) continue;
            int x = n % W, y = (n / W) % H;
            if (x < x0 || x > x1 || y < y0 || y > y1) { clipped = 1; continue; }
            if (stamp[n] == gen && g[n] <= sc[i]) continue;
            stamp[n] = gen; g[n] = sc[i]; move[n] = 255;
            if (heap_push(&heap, sc[i] + HEUR(x, y), sc[i], n) < 0) { failed = 1; break; }
        }
        while (!failed && heap.len) {
            Entry e = heap_pop(&heap);
            int32_t n = e.n;
            if (e.g != g[n]) continue;  /* a stale entry */
            if (target[n] == tgen) { found = n; found_g = e.g; break; }
            if (deadline > 0 && ++expanded % DEADLINE_EVERY == 0 && monotonic_s() > deadline) {
                timed_out = 1;
                break;
            }
            int l = (int)(n / C), cell = (int)(n % C), y = cell / W, x = cell % W;
            uint8_t came = move[n];
            if (lmask >> l & 1) {
                for (int d = 0; d < 8; d++) {
                    int nx = x + DX[d], ny = y + DY[d];
                    if (nx < x0 || nx > x1 || ny < y0 || ny > y1) {
                        if (nx >= 0 && nx < W && ny >= 0 && ny < H) clipped = 1;
                        continue;
                    }
                    int32_t m = n + DY[d] * W + DX[d];
                    int32_t fv = fixed[m];
                    if (fv != 0 && fv != net) continue;
                    int64_t c = (d & 1) ? diag : step;
                    if (pref[l] && prefpen) {
                        int against = (pref[l] == 1) ? (DY[d] != 0) : (DX[d] != 0);
                        if (against) c += (int64_t)step * prefpen / ((d & 1) ? 200 : 100);
                    }
                    if (occ[m] > 0) {
                        if (!ripup) continue;
                        c += ripup;
                    }
                    c += hist[m];
                    if (came < 8) {
                        int dd = d > came ? d - came : came - d;
                        if (dd > 4) dd = 8 - dd;
                        if (dd >= 3) c += bend * 8;  /* acute turns: almost never */
                        else c += bend * dd;
                    }
                    int64_t ng = e.g + c;
                    if (ng > INT32_MAX / 2) continue;
                    if (stamp[m] == gen && g[m] <= ng) continue;
                    stamp[m] = gen; g[m] = (int32_t)ng; move[m] = (uint8_t)d;
                    if (heap_push(&heap, ng + HEUR(nx, ny), (int32_t)ng, m) < 0) { failed = 1; break; }
                }
            }
            if (via >= 0 && came < 8 + 64 && (came < 8 || came == 255)) {
                /* a through via here: allowed by the via grids on every layer */
                int32_t vf = vfixed[cell];
                if ((vf == 0 || vf == net) && (vocc[cell] == 0 || ripup)) {
                    int64_t vc = via + (vocc[cell] > 0 ? ripup : 0);
                    for (int l2 = 0; l2 < L; l2++) {
                        if (l2 == l || !(vmask >> l2 & 1)) continue;
                        int32_t m = (int32_t)((Py_ssize_t)l2 * C + cell);
                        int32_t fv = fixed[m];
                        if ((lmask >> l2 & 1) && fv != 0 && fv != net) continue;
                        int64_t c = vc;
                        if (lmask >> l2 & 1) {
                            if (occ[m] > 0) {
                                if (!ripup) continue;
                                c += ripup;
                            }
                            c += hist[m];
                        }
                        int64_t ng = e.g + c;
                        if (ng > INT32_MAX / 2) continue;
                        if (stamp[m] == gen && g[m] <= ng) continue;
                        stamp[m] = gen; g[m] = (int32_t)ng; move[m] = (uint8_t)(8 + l);
                        if (heap_push(&heap, ng + HEUR(x, y), (int32_t)ng, m) < 0) { failed = 1; break; }
                    }
                }
            }
        }
        Py_END_ALLOW_THREADS
        free(heap.a);
        if (failed) {
            for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
            return PyErr_NoMemory();
        }
        if (found < 0) {
            for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
            /* False: every node reachable was expanded and none lay past the window,
             * so no larger window can find a path either */
            if (!clipped && !timed_out) Py_RETURN_FALSE;
            Py_RETURN_NONE;
        }
        PyObject *path = PyList_New(0);
        int32_t n = found;
        for (Py_ssize_t guard = 0; path && guard <= N; guard++) {
            PyObject *v = PyLong_FromLong(n);
            if (!v || PyList_Append(path, v) < 0) { Py_XDECREF(v); Py_CLEAR(path); break; }
            Py_DECREF(v);
            uint8_t mv = move[n];
            if (mv == 255) break;
            if (mv < 8) n -= DY[mv] * W + DX[mv];
            else n = (int32_t)((Py_ssize_t)(mv - 8) * C + n % C);
        }
        for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
        if (!path) return NULL;
        if (PyList_Reverse(path) < 0) { Py_DECREF(path); return NULL; }
        PyObject *out = Py_BuildValue("(iN)", found_g, path);
        return out;
    }
fail:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return NULL;
}

/* stamp(grid, H, W, segs, values, mode): for each capsule (x0, y0, x1, y1, r) in grid
 * units (float64, five per capsule), every cell whose centre is closer than r to the
 * segment is changed: mode 0 "owner" (0 -> v; another owner -> -1), mode 1 add v,
 * mode 2 set v. Returns the number of cells touched. */
static PyObject *stamp(PyObject *self, PyObject *args) {
    PyObject *go, *so, *vo;
    int H, W, mode;
    if (!PyArg_ParseTuple(args, "OiiOOi", &go, &H, &W, &so, &vo, &mode))
        return NULL;
    Py_buffer gb, sb, vb;
    if (get_buf(go, &gb, 1, (Py_ssize_t)H * W * 4, "grid") < 0) return NULL;
    if (get_buf(so, &sb, 0, 0, "segs") < 0) { PyBuffer_Release(&gb); return NULL; }
    Py_ssize_t ns = sb.len / (5 * sizeof(double));
    if (get_buf(vo, &vb, 0, ns * 4, "values") < 0) {
        PyBuffer_Release(&gb); PyBuffer_Release(&sb); return NULL;
    }
    int32_t *grid = gb.buf;
    const double *s = sb.buf;
    const int32_t *vals = vb.buf;
    long long touched = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < ns; i++) {
        double ax = s[5 * i], ay = s[5 * i + 1], bx = s[5 * i + 2], by = s[5 * i + 3], r = s[5 * i + 4];
        int32_t v = vals[i];
        double r2 = r * r;
        int cx0 = (int)floor((ax < bx ? ax : bx) - r), cx1 = (int)ceil((ax > bx ? ax : bx) + r);
        int cy0 = (int)floor((ay < by ? ay : by) - r), cy1 = (int)ceil((ay > by ? ay : by) + r);
        if (cx0 < 0) cx0 = 0;
        if (cy0 < 0) cy0 = 0;
        if (cx1 > W - 1) cx1 = W - 1;
        if (cy1 > H - 1) cy1 = H - 1;
        double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
        for (int y = cy0; y <= cy1; y++) {
            for (int x = cx0; x <= cx1; x++) {
                double px = x - ax, py = y - ay, t = 0;
                if (len2 > 0) {
                    t = (px * dx + py * dy) / len2;
                    if (t < 0) t = 0; else if (t > 1) t = 1;
                }
                double ex = px - t * dx, ey = py - t * dy;
                if (ex * ex + ey * ey >= r2) continue;
                int32_t *c = grid + (Py_ssize_t)y * W + x;
                if (mode == 0) *c = (*c == 0) ? v : (*c == v ? v : -1);
                else if (mode == 1) *c += v;
                else *c = v;
                touched++;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&gb); PyBuffer_Release(&sb); PyBuffer_Release(&vb);
    return PyLong_FromLongLong(touched);
}

/* seg_dist(ax, ay, bx, by, cx, cy, dx, dy) -> float: the distance between segments ab
 * and cd (0 when they cross); a segment may be a point (a == b). In C because the
 * checks of placed routes (verify.seg_dist) make millions of them. */
static double point_seg(double px, double py, double ax, double ay, double bx, double by) {
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy, t = 0.0;
    if (l2 != 0) {
        t = ((px - ax) * dx + (py - ay) * dy) / l2;
        if (t < 0) t = 0; else if (t > 1) t = 1;
    }
    return hypot(px - ax - t * dx, py - ay - t * dy);
}

static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

static PyObject *seg_dist(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "seg_dist takes 8 numbers");
        return NULL;
    }
    double v[8];
    for (int i = 0; i < 8; i++) {
        v[i] = PyFloat_AsDouble(args[i]);
        if (v[i] == -1.0 && PyErr_Occurred()) return NULL;
    }
    double ax = v[0], ay = v[1], bx = v[2], by = v[3], cx = v[4], cy = v[5], dx = v[6], dy = v[7];
    double o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
    double o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
    if (o1 * o2 < 0 && o3 * o4 < 0) return PyFloat_FromDouble(0.0);
    double d = point_seg(ax, ay, cx, cy, dx, dy), e = point_seg(bx, by, cx, cy, dx, dy);
    if (e < d) d = e;
    e = point_seg(cx, cy, ax, ay, bx, by);
    if (e < d) d = e;
    e = point_seg(dx, dy, ax, ay, bx, by);
    if (e < d) d = e;
    return PyFloat_FromDouble(d);
}

static PyMethodDef methods[] = {
    {"seg_dist", (PyCFunction)(void (*)(void))seg_dist, METH_FASTCALL, "Distance between two segments."},
    {"search", search, METH_VARARGS, "A* over the layered grid (see the module source)."},
    {"stamp", stamp, METH_VARARGS, "Stamp capsules into an int32 grid."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_maze", "The router's compiled inner loops.", -1, methods};

PyMODINIT_FUNC PyInit__maze(void) { return PyModule_Create(&module); }
