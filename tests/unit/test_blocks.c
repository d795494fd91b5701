/*
 * block_error_percentiles' ranking (results/blocks.c): unwritten blocks
 * left out, failures ranked after the blocks done, by trims; the states'
 * counts; nothing to rank when every block is unwritten.
 */
#include "check.h"
#include "results/results.h"

int main(void)
{
	static const double plist[] = { 1, 50, 90, 95, 99.99, 100 };
	uint32_t out[6];
	unsigned counts[BLOCK_STATE_CNT];
	struct block_info b[10] = { 0 };

	CHECK(block_percentiles(b, 10, plist, 6, out, counts) == 0, "all unwritten: nothing ranked");
	CHECK(counts[BLOCK_UNWRITTEN] == 10, "all unwritten: counted (%u)", counts[BLOCK_UNWRITTEN]);

	/* 2 unwritten, 6 done with 3..8 trims, a write failure after 1 trim,
	 * a trim failure after 2: the failures rank last, by their trims */
	for (int i = 2; i < 8; i++)
		b[i] = (struct block_info){ .trims = (uint32_t)(i + 1), .state = i % 2 ? BLOCK_WRITTEN : BLOCK_TRIMMED };
	b[8] = (struct block_info){ .trims = 1, .state = BLOCK_WRITE_FAILURE };
	b[9] = (struct block_info){ .trims = 2, .state = BLOCK_TRIM_FAILURE };
	unsigned n = block_percentiles(b, 10, plist, 6, out, counts);
	CHECK(n == 6, "ranked (%u)", n);
	/* ranked (8 of them): 3 4 5 6 7 8 | 1 (write failure) 2 (trim failure) */
	CHECK(out[0] == 3, "1st: the fewest trims of the done ones (%u)", out[0]);
	CHECK(out[1] == 7, "50th: index 4 of 8 (%u)", out[1]);
	CHECK(out[2] == 2, "90th: index 7, the trim failure after 2 trims (%u)", out[2]);
	CHECK(out[3] == 2, "95th (%u)", out[3]);
	CHECK(out[4] == 2, "99.99th (%u)", out[4]);
	CHECK(out[5] == 2, "100th: the last block (%u)", out[5]);
	CHECK(counts[BLOCK_UNWRITTEN] == 2 && counts[BLOCK_TRIMMED] == 3 && counts[BLOCK_WRITTEN] == 3 &&
	      counts[BLOCK_TRIM_FAILURE] == 1 && counts[BLOCK_WRITE_FAILURE] == 1, "states counted");
	CHECK(block_percentiles(b, 10, plist, 0, out, counts) == 0 && counts[BLOCK_WRITTEN] == 3,
	      "no percentiles: the counts still");
	b[8].trims = 9; /* a write failure with more trims than the trim failure */
	static const double p2[] = { 80, 90 };
	block_percentiles(b, 10, p2, 2, out, counts);
	CHECK(out[0] == 2 && out[1] == 9, "failures by trims: 2 (80th, index 6) then 9 (90th, index 7) (%u %u)",
	      out[0], out[1]);
	return check_done("blocks");
}
