/*
 * The nqueens GPU kernels: one source for two APIs. It compiles as OpenCL C 1.2 and, behind the
 * prelude below, as CUDA C under NVRTC (which defines __CUDACC__). Nothing else differs between
 * the two: the same lines run on pocl's CPU device in the tests and on an NVIDIA GPU.
 *
 * What they count. A task is a board of a d4 start constellation (its border queens placed:
 * nqueens::algo::d4::constellation) with its first free rows filled by the host. The board's
 * free rows (those without a border queen) are numbered k = 0, 1, ..., m - 1 from the top. For
 * each constellation c the host uploads, for every free row k:
 *   table[c * MAX_ROWS + k]   bits 0..n: the squares of free row k attacked by the border queens
 *                             along a diagonal or anti-diagonal (their columns are in the task's
 *                             cols); bits 30..31: the gap, the rows from free row k to free row
 *                             k + 1 (1 to 3), 0 for the last free row (so n <= 30);
 *   rows[c * MAX_ROWS + k]    the board row of free row k;
 * and stab[c], the symmetries other than the identity that map its border to itself, as bits
 * 1 << i for nqueens::symmetry::Symmetry::ALL[i] (1 Rot90, 2 Rot180, 3 Rot270, 4 MirrorColumns,
 * 5 MirrorRows, 6 Transpose, 7 AntiTranspose).
 * A task holds the columns taken (cols), the diagonals and anti-diagonals of the queens the host
 * placed in free rows, as seen at its first free row k0 (ld: a queen at column j attacks column
 * j + d, d rows below; rd: column j - d), and at = (c << 5) | k0.
 *
 * nq_count counts the completions of tasks of constellations without a symmetry of their own
 * (each is one class of 8 boards): out[2t] = completions, out[2t + 1] = queen placements (with
 * NQ_NODES defined; the last row's popcount included). It adds the popcount of the free squares
 * at the last free row instead of placing its queen.
 *
 * nq_classify takes tasks of constellations with a symmetry (a few per cent), whose board
 * boards[32 t + r] (the column of every row filled before k0) comes along. It places every
 * queen and classifies each completed board as nqueens::algo::d4::search::classify_with_events
 * does: a representative if and only if it is lexicographically no larger than its image under
 * each symmetry of stab[c], of an orbit of 8 / (1 + f) boards where f of them fix it.
 * out[5t .. 5t + 5] = completions, representatives of orbit 8, 4 and 2, placements.
 *
 * How. Persistent threads: each thread takes the next task from one atomic counter until none
 * is left, so a slow task holds one thread, not a block, and the host orders tasks from the most
 * work to the least (against the warp tail). Each thread runs an iterative depth-first search
 * with an explicit stack and 32-bit masks. nq_count keeps its stack, the four masks of each
 * level (at most MAX_DEPTH: the host leaves a task at most MAX_DEPTH - 1 free rows below its
 * first), in local (OpenCL) or shared (CUDA) memory, level by level with the work group's lanes
 * side by side (entry level * NQ_WG + lane, 16 bytes each), so that the lanes of a warp touch
 * consecutive words and no bank twice: the layout of ygch/n_queens's CUDA kernel, which keeps
 * the stack out of each thread's local memory (2,048 threads of 208 bytes would not fit a
 * multiprocessor's L1). NQ_WG, the work-group size, is set by the launcher when it compiles.
 */

#ifdef __CUDACC__
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned long long ulong;
#define KERNEL extern "C" __global__
#define GLOBAL
#define LOCAL __shared__
#define LANE (threadIdx.x)
#define UINT4(a, b, c, d) make_uint4((a), (b), (c), (d))
#define POPCOUNT(x) __popc(x)
#define NEXT_TASK(counter) atomicAdd((counter), 1u)
#else
#define KERNEL __kernel
#define GLOBAL __global
#define LOCAL __local
#define LANE ((uint)get_local_id(0))
#define UINT4(a, b, c, d) ((uint4)((a), (b), (c), (d)))
#define POPCOUNT(x) popcount(x)
#define NEXT_TASK(counter) atomic_inc(counter)
#endif

/* The stride of the tables: a constellation's free rows (n <= 30 leaves fewer). */
#define MAX_ROWS 32
/* The deepest stack of nq_count: a task's free rows (the host keeps them below this). The
 * launchers set it (-D MAX_DEPTH=...) one above the most free rows a task of theirs keeps
 * (scheduler.rs: stack_levels), since the stack's shared memory limits the threads resident. */
#ifndef MAX_DEPTH
#define MAX_DEPTH 16
#endif
/* The work-group size, which the launcher sets (-D NQ_WG=...) and launches with. */
#ifndef NQ_WG
#define NQ_WG 128
#endif

/* The arguments both kernels take, in this order (the launchers pass one list). */
#define NQ_ARGS                                                                                 \
    GLOBAL const uint *task_cols, GLOBAL const uint *task_ld, GLOBAL const uint *task_rd,       \
        GLOBAL const uint *task_at, const uint tasks, GLOBAL const uint *table,                  \
        GLOBAL const uchar *rows, GLOBAL const uchar *stab, const uint full, const uint n,       \
        GLOBAL const uchar *boards, GLOBAL uint *next_task, GLOBAL ulong *out

KERNEL void nq_count(NQ_ARGS)
{
    LOCAL uint4 stack[MAX_DEPTH * NQ_WG];
#ifdef NQ_SHARED_ROWS
    LOCAL uint entries[MAX_DEPTH * NQ_WG];
#endif
    const uint lane = LANE;
    for (;;) {
        const uint t = NEXT_TASK(next_task);
        if (t >= tasks)
            return;
        const uint at = task_at[t];
        const uint base = (at >> 5) * MAX_ROWS;
        const uint k = at & 31u;
        const uint cols = task_cols[t];
        const uint entry = table[base + k];
        /* The gap bits lie beyond the board: `full` clears them with the attacks'. */
        const uint avail = full & ~(cols | task_ld[t] | task_rd[t] | entry);
        ulong count = 0;
        ulong placed = 0;
        if ((entry >> 30) == 0) {
            count = POPCOUNT(avail);
            placed = count;
        } else if (avail != 0) {
            /* A frame's level is the queens in its columns (the border's and one a free row), so
             * the entry of the free row below a frame whose columns with the new queen are ncols
             * is table[first + POPCOUNT(ncols)] (unsigned arithmetic wraps back). */
#ifndef NQ_SHARED_ROWS
            const uint first = base + k - POPCOUNT(cols);
#else
            /* The task's entries, by level above its first (1 .. its free rows - 1). */
            {
                uint j = 1, e = entry;
                while ((e >> 30) != 0) {
                    e = table[base + k + j];
                    entries[j * NQ_WG + lane] = e;
                    ++j;
                }
            }
            const uint level0 = POPCOUNT(cols);
#endif
            /* A frame: the columns with the gap to the next free row in bits 30..31, the
             * diagonals, the anti-diagonals, and the squares still to try in its row. */
            stack[lane] = UINT4(cols | (entry & 0xC0000000u), task_ld[t], task_rd[t], avail);
            uint top = 1;
            /* Each pass places one queen, in the top frame's row: no pass only pops (a frame
             * left with no square is popped as its last queen is placed) and every lane runs
             * the same lines, as in ygch/n_queens's kernel. */
            do {
                const uint i = (top - 1) * NQ_WG + lane;
                const uint4 f = stack[i];
                const uint bit = f.w & (0u - f.w);
                const uint rest = f.w ^ bit;
                stack[i].w = rest;
                top -= (rest == 0u) ? 1u : 0u;
                const uint ncols = (f.x | bit) & full;
#ifdef NQ_SHARED_ROWS
                const uint next = entries[(POPCOUNT(ncols) - level0) * NQ_WG + lane];
#else
                const uint next = table[first + POPCOUNT(ncols)];
#endif
                const uint g = f.x >> 30;
                const uint nld = (f.y | bit) << g;
                const uint nrd = (f.z | bit) >> g;
                const uint nav = full & ~(ncols | nld | nrd | next);
#ifdef NQ_NODES
                placed += 1;
#endif
                if ((next >> 30) == 0) {
                    count += POPCOUNT(nav);
#ifdef NQ_NODES
                    placed += POPCOUNT(nav);
#endif
                } else if (nav != 0) {
                    stack[top * NQ_WG + lane] = UINT4(ncols | (next & 0xC0000000u), nld, nrd, nav);
                    ++top;
                }
            } while (top != 0);
        }
        out[2 * t] = count;
        out[2 * t + 1] = placed;
    }
}

/* The square (r, c) of an n x n board under symmetry s (1..7, as in the comment above):
 * its row in *r2 and column in *c2. */
#ifdef __CUDACC__
__device__
#endif
static inline void nq_map(uint s, uint n, uint r, uint c, uint *r2, uint *c2)
{
    const uint m = n - 1 - r, k = n - 1 - c;
    switch (s) {
    case 1: *r2 = c; *c2 = m; break;
    case 2: *r2 = m; *c2 = k; break;
    case 3: *r2 = k; *c2 = r; break;
    case 4: *r2 = r; *c2 = k; break;
    case 5: *r2 = m; *c2 = c; break;
    case 6: *r2 = c; *c2 = r; break;
    default: *r2 = k; *c2 = m; break;
    }
}

KERNEL void nq_classify(NQ_ARGS)
{
    uint s_avail[MAX_ROWS];
    uint s_cols[MAX_ROWS];
    uint s_ld[MAX_ROWS];
    uint s_rd[MAX_ROWS];
    uchar board[MAX_ROWS];
    uchar image[MAX_ROWS];
    for (;;) {
        const uint t = NEXT_TASK(next_task);
        if (t >= tasks)
            return;
        const uint at = task_at[t];
        const uint c = at >> 5;
        const uint base = c * MAX_ROWS;
        const uint symmetries = stab[c];
        for (uint r = 0; r < n; ++r)
            board[r] = boards[MAX_ROWS * t + r];
        uint k = at & 31u;
        uint cols = task_cols[t];
        uint ld = task_ld[t];
        uint rd = task_rd[t];
        uint avail = full & ~(cols | ld | rd | table[base + k]);
        ulong found[5] = {0, 0, 0, 0, 0};
        uint sp = 0;
        for (;;) {
            if (avail == 0) {
                if (sp == 0)
                    break;
                --sp;
                --k;
                avail = s_avail[sp];
                cols = s_cols[sp];
                ld = s_ld[sp];
                rd = s_rd[sp];
                continue;
            }
            const uint bit = avail & (0u - avail);
            avail ^= bit;
            board[rows[base + k]] = (uchar)POPCOUNT(bit - 1u);
#ifdef NQ_NODES
            found[4] += 1;
#endif
            const uint g = table[base + k] >> 30;
            if (g == 0) {
                /* A completed board: a representative of its orbit under the symmetries? */
                found[0] += 1;
                uint fixed = 0, least = 1;
                for (uint s = 1; s < 8 && least; ++s) {
                    if (((symmetries >> s) & 1u) == 0)
                        continue;
                    for (uint r = 0; r < n; ++r) {
                        uint r2, c2;
                        nq_map(s, n, r, board[r], &r2, &c2);
                        image[r2] = (uchar)c2;
                    }
                    int order = 0;
                    for (uint r = 0; r < n && order == 0; ++r)
                        order = board[r] < image[r] ? -1 : (board[r] > image[r] ? 1 : 0);
                    if (order > 0)
                        least = 0;
                    else if (order == 0)
                        ++fixed;
                }
                if (least)
                    found[fixed == 0 ? 1 : (fixed == 1 ? 2 : 3)] += 1;
                continue;
            }
            const uint ncols = cols | bit;
            const uint nld = (ld | bit) << g;
            const uint nrd = (rd | bit) >> g;
            const uint nav = full & ~(ncols | nld | nrd | table[base + k + 1]);
            if (nav == 0)
                continue;
            s_avail[sp] = avail;
            s_cols[sp] = cols;
            s_ld[sp] = ld;
            s_rd[sp] = rd;
            ++sp;
            ++k;
            avail = nav;
            cols = ncols;
            ld = nld;
            rd = nrd;
        }
        for (uint i = 0; i < 5; ++i)
            out[5 * t + i] = found[i];
    }
}
