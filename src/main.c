/*
 * iobench entry point: one malloc arena for the whole process, then argv to
 * the command table in cmd/commands.c.
 */
#include "cmd/commands.h"

#include <malloc.h>

int main(int argc, char **argv)
{
	/* One malloc arena for all job threads: they allocate only at setup
	 * and on a histogram's first value in a new power of two, so sharing
	 * costs nothing, and 64 cloned jobs do not pin 16 arenas' pages. */
	mallopt(M_ARENA_MAX, 1);
	return cmd_main(argc, argv);
}
