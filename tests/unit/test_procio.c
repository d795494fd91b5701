/*
 * Per-process storage I/O: /proc/PID/io parsing, the growth between two
 * snapshots (a reused pid counts from zero, small growth is dropped, the
 * largest comes first), our own counters moving after a write and fsync,
 * and a child with a file open on a filesystem found by its device number.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "sys/procio.h"

int main(void)
{
	uint64_t r = 0, w = 0;
	CHECK(procio_parse("rchar: 10\nwchar: 20\nsyscr: 1\nsyscw: 2\nread_bytes: 4096\n"
			   "write_bytes: 8192\ncancelled_write_bytes: 0\n", &r, &w) == 0 &&
	      r == 4096 && w == 8192, "parse %llu %llu", (unsigned long long)r,
	      (unsigned long long)w);
	CHECK(procio_parse("rchar: 10\n", &r, &w) < 0, "a text without the fields is refused");

	struct procio_entry a[] = {
		{ .pid = 10, .start_ticks = 5, .comm = "old", .read_bytes = 100, .write_bytes = 0 },
		{ .pid = 11, .start_ticks = 5, .comm = "quiet", .read_bytes = 0, .write_bytes = 0 },
		{ .pid = 12, .start_ticks = 5, .comm = "reused", .read_bytes = 1 << 30 },
	};
	struct procio_entry b[] = {
		{ .pid = 10, .start_ticks = 5, .comm = "old", .read_bytes = 100 + (3 << 20) },
		{ .pid = 11, .start_ticks = 5, .comm = "quiet", .write_bytes = 1000 },
		{ .pid = 12, .start_ticks = 9, .comm = "reused", .write_bytes = 5 << 20 },
		{ .pid = 13, .start_ticks = 9, .comm = "new", .write_bytes = 2 << 20 },
	};
	struct procio_snapshot sa = { a, 3 }, sb = { b, 4 };
	struct procio_entry *d;
	size_t n;
	procio_diff(&sa, &sb, 1 << 20, &d, &n);
	CHECK(n == 3, "three grew by 1 MiB or more (got %zu)", n);
	CHECK(n == 3 && d[0].pid == 12 && d[0].write_bytes == 5u << 20,
	      "the reused pid counts from zero and is largest");
	CHECK(n == 3 && d[1].pid == 10 && d[1].read_bytes == 3u << 20, "growth, not totals");
	CHECK(n == 3 && d[2].pid == 13, "a process that started in between counts");
	free(d);

	char dir[] = "/tmp/test_procio.XXXXXX";
	CHECK(mkdtemp(dir) != NULL, "temp dir");
	char file[64];
	snprintf(file, sizeof(file), "%s/f", dir);
	uint64_t r0, w0, r1, w1;
	CHECK(procio_self(&r0, &w0) == 0, "own counters");
	int fd = open(file, O_CREAT | O_WRONLY, 0600);
	char buf[65536];
	memset(buf, 'x', sizeof(buf));
	CHECK(fd >= 0 && write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) && fsync(fd) == 0,
	      "write and fsync");
	close(fd);
	CHECK(procio_self(&r1, &w1) == 0 && w1 - w0 >= sizeof(buf),
	      "own write_bytes grew by the write (%llu)", (unsigned long long)(w1 - w0));

	struct stat st;
	CHECK(stat(dir, &st) == 0, "stat");
	int pipefd[2];
	CHECK(pipe(pipefd) == 0, "pipe");
	pid_t child = fork();
	if (child == 0) {
		int cfd = open(file, O_RDONLY);
		char c = cfd >= 0 ? 'y' : 'n';
		if (write(pipefd[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	char c = 0;
	CHECK(read(pipefd[0], &c, 1) == 1 && c == 'y', "child opened the file");
	CHECK(procio_uses_dev(child, st.st_dev), "child with a file on the filesystem is found");
	struct stat proc;
	CHECK(stat("/proc/self", &proc) == 0 && proc.st_dev != st.st_dev, "another filesystem");
	CHECK(!procio_uses_dev(child, proc.st_dev), "nothing of the child is on /proc");
	struct procio_entry v[] = { { .pid = child }, { .pid = getpid() + 1000000 } };
	size_t nv = 2;
	procio_filter_dev(v, &nv, st.st_dev);
	CHECK(nv == 1 && v[0].pid == child, "filter keeps the user of the device (kept %zu)", nv);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	unlink(file);
	rmdir(dir);

	struct procio_snapshot s;
	CHECK(procio_snapshot_take(&s, 0) == 0 && s.n > 0, "a snapshot of this machine's processes");
	bool self_in = false;
	for (size_t i = 0; i < s.n; i++)
		self_in |= s.v[i].pid == getpid();
	CHECK(!self_in, "the snapshot leaves this process out");
	procio_snapshot_release(&s);
	return check_done("test_procio");
}
