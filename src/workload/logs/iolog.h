/*
 * write_iolog= (iolog_write.c): the log of what a job did, in fio 3.33's
 * version 3 format, which read_iolog= replays (workload/replay/); the
 * actions an entry of such a log is.
 */
#ifndef IOBENCH_WORKLOAD_LOGS_IOLOG_H
#define IOBENCH_WORKLOAD_LOGS_IOLOG_H

struct job;
struct io_unit;

enum replay_kind { RP_ADD, RP_OPEN, RP_CLOSE, RP_IO, RP_WAIT };

/* iolog_write.c: write_iolog=. Open (appending, through the device guard,
 * as iobench's own output) and write the header and an "add" per file;
 * then one line per file opened or closed and per I/O issued. */
int iolog_write_open(struct job *j);
void iolog_write_file(struct job *j, unsigned file, enum replay_kind what);
void iolog_write_io(struct job *j, const struct io_unit *u);
/* A sync the job issues itself: logged at the offset of the last I/O. */
void iolog_write_sync(struct job *j, const struct io_unit *u);
void iolog_write_close(struct job *j);

#endif
