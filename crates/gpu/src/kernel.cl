/*
 * The nqueens GPU kernel: one source for two APIs. It compiles as OpenCL C 1.2 and, behind the
 * prelude below, as CUDA C under NVRTC (which defines __CUDACC__). Nothing else differs between
 * the two: the same lines run on pocl's CPU device in the tests and on an NVIDIA GPU.
 *
 * What it counts. A task is a board of a d4 start constellation (its border queens placed:
 * nqueens::algo::d4::constellation) with its first free rows filled by the host. The board's
 * free rows (those without a border queen) are numbered k = 0, 1, ..., m - 1 from the top. For
 * each constellation the host uploads, for every free row k:
 *   attack[c * MAX_ROWS + k]  the squares of free row k attacked by the border queens along a
 *                             diagonal or anti-diagonal (their columns are in the task's cols);
 *   gap[c * MAX_ROWS + k]     the rows from free row k to free row k + 1 (1, or more where
 *                             border rows lie between), 0 for the last free row.
 * A task holds the columns taken (cols), the diagonals and anti-diagonals of the queens the host
 * placed in free rows, as seen at its first free row k0 (ld: a queen at column j attacks column
 * j + d, d rows below; rd: column j - d), and at = (c << 5) | k0.
 *
 * How. Persistent threads: each thread takes the next task from one atomic counter until none
 * is left, so a slow task holds one thread, not a block, and the host orders tasks from the most
 * work to the least (against the warp tail). Each thread runs an iterative depth-first search
 * with an explicit stack (the masks of each level), 32-bit masks (n <= 32), and adds the
 * popcount of the free squares at the last free row instead of placing its queen. With NQ_NODES
 * defined it also counts queen placements (the last row's popcount included).
 */

#ifdef __CUDACC__
typedef unsigned int uint;
typedef unsigned char uchar;
typedef unsigned long long ulong;
#define KERNEL extern "C" __global__
#define GLOBAL
#define POPCOUNT(x) __popc(x)
#define NEXT_TASK(counter) atomicAdd((counter), 1u)
#else
#define KERNEL __kernel
#define GLOBAL __global
#define POPCOUNT(x) popcount(x)
#define NEXT_TASK(counter) atomic_inc(counter)
#endif

/* The most free rows a board of the GPU path has: n <= 32. */
#define MAX_ROWS 32

KERNEL void nq_count(GLOBAL const uint *task_cols, GLOBAL const uint *task_ld,
                     GLOBAL const uint *task_rd, GLOBAL const uint *task_at, const uint tasks,
                     GLOBAL const uint *attack, GLOBAL const uchar *gap, const uint full,
                     GLOBAL uint *next_task, GLOBAL ulong *solutions, GLOBAL ulong *nodes)
{
    uint s_avail[MAX_ROWS];
    uint s_cols[MAX_ROWS];
    uint s_ld[MAX_ROWS];
    uint s_rd[MAX_ROWS];
    for (;;) {
        const uint t = NEXT_TASK(next_task);
        if (t >= tasks)
            return;
        const uint at = task_at[t];
        const uint base = (at >> 5) * MAX_ROWS;
        uint k = at & 31u;
        uint cols = task_cols[t];
        uint ld = task_ld[t];
        uint rd = task_rd[t];
        uint avail = full & ~(cols | ld | rd | attack[base + k]);
        uint g = gap[base + k];
        ulong count = 0;
        ulong placed = 0;
        if (g == 0) {
            count = POPCOUNT(avail);
            placed = count;
        } else {
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
                    g = gap[base + k];
                    continue;
                }
                const uint bit = avail & (0u - avail);
                avail ^= bit;
                const uint ncols = cols | bit;
                const uint nld = (ld | bit) << g;
                const uint nrd = (rd | bit) >> g;
                const uint nav = full & ~(ncols | nld | nrd | attack[base + k + 1]);
                const uint ng = gap[base + k + 1];
#ifdef NQ_NODES
                placed += 1;
#endif
                if (ng == 0) {
                    count += POPCOUNT(nav);
#ifdef NQ_NODES
                    placed += POPCOUNT(nav);
#endif
                    continue;
                }
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
                g = ng;
            }
        }
        solutions[t] = count;
        nodes[t] = placed;
    }
}
