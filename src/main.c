/*
 * iobench entry point: hands argv to the command table in cmd/commands.c.
 */
#include "cmd/command.h"

int main(int argc, char **argv)
{
	return cmd_main(argc, argv);
}
