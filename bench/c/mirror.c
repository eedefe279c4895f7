/* The yardstick of scripts/compare-reference.sh: the classic bitmask n-queens counter with mirror
 * halving, one thread, as found in most textbooks and benchmarks (M. Richards' bit-vector
 * formulation; cf. "Backtracking Algorithms in MCPL using Bit Patterns and Recursion", 1997).
 * Written for this repository so the README's ratios reproduce from a clone.
 *
 * Rows are filled top to bottom; three masks carry the attacked columns, diagonals and
 * anti-diagonals of the next row; the lowest free square is tried first. Mirror halving: the
 * row-0 queen stands in the left half (each solution there has a distinct mirror image), and for
 * odd n also in the middle column with the row-1 queen in the left half; the sum is doubled.
 *
 * Build: cc -O3 -march=native -o mirror mirror.c        Usage: mirror N   (1 <= N <= 31)
 * Prints Q(N), the number of solutions (OEIS A000170), on stdout.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t all; /* the n low bits: every column */

static uint64_t place(uint32_t cols, uint32_t diag, uint32_t anti) {
    if (cols == all) return 1;
    uint64_t count = 0;
    uint32_t free = all & ~(cols | diag | anti);
    while (free) {
        uint32_t bit = free & -free;
        free ^= bit;
        count += place(cols | bit, (diag | bit) << 1, (anti | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv) {
    char *end;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end != '\0' || n < 1 || n > 31) {
        fprintf(stderr, "usage: mirror N   (N a board size in 1..31)\n");
        return 2;
    }
    all = (1u << n) - 1;
    uint64_t count = 0;
    for (long c = 0; c < n / 2; c++) {
        uint32_t bit = 1u << c;
        count += place(bit, bit << 1, bit >> 1);
    }
    count *= 2;
    if (n % 2 == 1) {
        uint32_t mid = 1u << (n / 2);
        uint64_t half = 0;
        for (long c = 0; c < n / 2 - 1; c++) { /* row 1 left of the middle, off its diagonals */
            uint32_t bit = 1u << c;
            half += place(mid | bit, ((mid << 1) | bit) << 1, ((mid >> 1) | bit) >> 1);
        }
        count += n == 1 ? 1 : 2 * half;
    }
    printf("%llu\n", (unsigned long long)count);
    return 0;
}
