/*
 * Plots (rp_int.h): a gnuplot script with its data in datablocks, handed
 * to gnuplot (`set terminal svg`) on a pipe, its SVG read back on another
 * and put inline in the page: the XML prolog dropped, the ids gnuplot
 * gives its markers ("gpPt3", "gpDot") prefixed with the plot's number so
 * that the plots of one page do not share ids. gnuplot runs as a child
 * process per plot; it is found on PATH, and when it cannot be run the
 * report says how to install it and writes the tables alone. The axis
 * unit a figure's values are plotted in is chosen here too.
 */
#include "html/rp_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/array.h"
#include "util/error.h"
#include "util/xmalloc.h"

extern char **environ;

#define GNUPLOT_HINT "gnuplot was not found: the plots are left out and the tables written " \
	"alone; install it with 'apt-get install gnuplot-nox' (Debian) and run the report again"

static const char *const palette[] = {
	"#2f6db5", "#e07b24", "#3a9a4a", "#c8372d", "#7d55b3", "#8c5a3c",
	"#d35fae", "#6f7a86", "#b8a31f", "#1fa5b8",
};

const char *rp_color(size_t s)
{
	return palette[s % (ARRAY_SIZE(palette))];
}

void rp_plot_begin(struct rp_plot *p, unsigned w, unsigned h)
{
	p->buf = NULL;
	p->len = 0;
	p->wide = false;
	p->f = open_memstream(&p->buf, &p->len);
	if (!p->f)
		return;
	fprintf(p->f,
		"set terminal svg size %u,%u dynamic noenhanced font 'Helvetica,11' background '#ffffff'\n"
		"set encoding utf8\n"
		"set border 3 lc rgb '#888888'\n"
		"set tics nomirror textcolor rgb '#444444'\n"
		"set grid ytics lc rgb '#e4e4e4' lt 1\n"
		"set key top left noopaque textcolor rgb '#333333' samplen 2 spacing 1.1\n"
		"set style fill solid 0.85 noborder\n"
		"set errorbars lc rgb '#222222' lw 1.2\n",
		w, h);
	for (size_t i = 0; i < ARRAY_SIZE(palette); i++)
		fprintf(p->f, "set linetype %zu lc rgb '%s' lw 1.8 pt 7 ps 0.5\n", i + 1, palette[i]);
}

/* The bytes that stand for themselves inside the string constant: none of
 * them means anything to gnuplot's scanner (no quote, backslash,
 * backquote, '@', '$' or line end) */
static bool plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr(" .,:-+/=%()[]_#*", c));
}

/*
 * Every text of a plot reaches gnuplot through here, as a double-quoted
 * string constant made of plain bytes and octal escapes only: gnuplot
 * substitutes backquotes and expands macros on the raw line before it
 * reads the string, and an escape is not a backquote or '@' then, so the
 * text is data whatever it holds. Control bytes become spaces (a key or a
 * label is one line), a byte that is not part of valid UTF-8 becomes '?'
 * (the SVG stays valid); the terminal is noenhanced, so no byte is markup.
 */
void rp_plot_str(struct rp_plot *p, const char *s)
{
	if (!p->f)
		return;
	fputc('"', p->f);
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	while (*u) {
		if (plain(*u)) {
			fputc(*u++, p->f);
		} else if (*u < 0x20 || *u == 0x7f) {
			fputc(' ', p->f);
			u++;
		} else if (*u < 0x80) {
			fprintf(p->f, "\\%03o", *u++);
		} else {
			size_t n = rp_utf8_len(u);
			if (!n) {
				fputc('?', p->f);
				u++;
			}
			for (; n; n--)
				fprintf(p->f, "\\%03o", *u++);
		}
	}
	fputc('"', p->f);
}

void rp_plot_text_at(struct rp_plot *p, const char *array, size_t i, const char *s)
{
	if (!p->f)
		return;
	fprintf(p->f, "%s[%zu] = ", array, i);
	rp_plot_str(p, s);
	fputc('\n', p->f);
}

void rp_plot_discard(struct rp_plot *p)
{
	if (p->f)
		fclose(p->f);
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

struct buf {
	char *v;
	size_t n, alloc;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	b->v = xgrow(b->v, &b->alloc, b->n + n + 1, 1);
	memcpy(b->v + b->n, s, n);
	b->n += n;
	b->v[b->n] = '\0';
}

/* Run gnuplot with script on its stdin; its stdout and stderr in out and
 * err. 0 (status in *status), or -errno: -ENOENT when it is not there. */
static int run_gnuplot(const char *prog, const char *script, size_t len, struct buf *out,
		       struct buf *err, int *status)
{
	int in[2], o[2], e[2];
	if (pipe2(in, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(o, O_CLOEXEC) < 0) {
		int rc = -errno;
		close(in[0]);
		close(in[1]);
		return rc;
	}
	if (pipe2(e, O_CLOEXEC) < 0) {
		int rc = -errno;
		close(in[0]);
		close(in[1]);
		close(o[0]);
		close(o[1]);
		return rc;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, o[1], 1);
	posix_spawn_file_actions_adddup2(&fa, e[1], 2);
	/* the child gets the default SIGPIPE back (iobench ignores it) */
	posix_spawnattr_t at;
	posix_spawnattr_init(&at);
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
	char *argv[] = { (char *)prog, NULL };
	pid_t pid;
	int rc = posix_spawnp(&pid, prog, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(in[0]);
	close(o[1]);
	close(e[1]);
	if (rc) {
		close(in[1]);
		close(o[0]);
		close(e[0]);
		return -rc;
	}
	size_t off = 0;
	struct pollfd pf[3] = { { .fd = in[1], .events = POLLOUT }, { .fd = o[0], .events = POLLIN },
				{ .fd = e[0], .events = POLLIN } };
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	int open_fds = 3;
	char chunk[65536];
	while (open_fds) {
		if (poll(pf, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pf[0].fd >= 0 && pf[0].revents) {
			ssize_t w = write(in[1], script + off, len - off);
			if (w > 0)
				off += (size_t)w;
			if ((w < 0 && errno != EAGAIN && errno != EINTR) || off == len) {
				close(in[1]);
				pf[0].fd = -1;
				open_fds--;
			}
		}
		for (int i = 1; i < 3; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			ssize_t r = read(pf[i].fd, chunk, sizeof(chunk));
			if (r > 0) {
				buf_add(i == 1 ? out : err, chunk, (size_t)r);
			} else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 3; i++)
		if (pf[i].fd >= 0)
			close(pf[i].fd);
	int ws;
	while (waitpid(pid, &ws, 0) < 0)
		if (errno != EINTR)
			return -errno;
	/* posix_spawnp of glibc reports a missing program as exit status 127 */
	if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127 && !out->n)
		return -ENOENT;
	*status = ws;
	return 0;
}

/* The SVG inline: from "<svg", ids prefixed "pN", gnuplot's own titles
 * out. gnuplot writes < and & of a text as entities but " ' > as they
 * are: between tags they are written as entities too, so no text of the
 * plots is left raw in the page. */
static void put_svg(struct rp_doc *d, const char *svg)
{
	const char *s = strstr(svg, "<svg");
	char pre[16];
	snprintf(pre, sizeof(pre), "p%u", d->nr_plots);
	bool in_tag = false;
	for (; s && *s; s++) {
		if (*s == '<')
			in_tag = true;
		if (!in_tag && (*s == '"' || *s == '\'' || *s == '>')) {
			fputs(*s == '"' ? "&quot;" : *s == '>' ? "&gt;" : "&#39;", d->out);
			continue;
		}
		if (in_tag && *s == '>')
			in_tag = false;
		/* gnuplot's own titles ("Gnuplot", "gnuplot_plot_3") would be
		 * the plots' hover texts: left out; a line's title stays */
		if (!strncmp(s, "<title>", 7)) {
			const char *e = strstr(s, "</title>");
			if (e && (!strncmp(s + 7, "Gnuplot<", 8) || !strncmp(s + 7, "gnuplot_plot_", 13))) {
				s = e + 7;
				in_tag = false;
				continue;
			}
		}
		if (!strncmp(s, "gpPt", 4) || !strncmp(s, "gpDot", 5) || !strncmp(s, "gpClip", 6) ||
		    !strncmp(s, "gnuplot_", 8)) {
			fputs(pre, d->out);
		}
		fputc(*s, d->out);
	}
}

int rp_plot_end(struct rp_doc *d, struct rp_plot *p, const char *caption)
{
	if (!p->f)
		return -ENOMEM;
	if (fclose(p->f) != 0) {
		p->f = NULL;
		rp_plot_discard(p);
		return -ENOMEM;
	}
	p->f = NULL;
	if (d->fmt != PAGE_HTML || d->no_plots) {
		rp_plot_discard(p);
		return 0;
	}
	struct buf out = { 0 }, err = { 0 };
	int status = 0;
	int rc = run_gnuplot(d->gnuplot, p->buf, p->len, &out, &err, &status);
	if (rc == -ENOENT) {
		d->no_plots = GNUPLOT_HINT;
	} else if (rc < 0) {
		error_errno(-rc, "report: cannot run '%s'", d->gnuplot);
		d->no_plots = "gnuplot could not be run: the plots are left out";
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) || !out.n || !strstr(out.v, "</svg>")) {
		/* one plot failed: said here and on stderr, the others go on */
		const char *msg = err.n ? err.v : "no output";
		error("report: gnuplot failed on the plot '%s': %.300s", caption, msg);
		fputs("<p class=\"warn\">gnuplot could not draw ", d->out);
		rp_esc(d->out, caption);
		fputs(".</p>\n", d->out);
	} else {
		d->nr_plots++;
		fputs(p->wide ? "<figure class=\"wide\">" : "<figure>", d->out);
		put_svg(d, out.v);
		/* "what — how": what in bold, how below it */
		const char *dash = strstr(caption, " — ");
		fputs("<figcaption><b>", d->out);
		if (dash) {
			char *what = xstrndup(caption, (size_t)(dash - caption));
			rp_esc(d->out, what);
			free(what);
			fputs("</b><br>", d->out);
			rp_esc(d->out, dash + strlen(" — "));
		} else {
			rp_esc(d->out, caption);
			fputs("</b>", d->out);
		}
		fputs("</figcaption></figure>\n", d->out);
	}
	free(out.v);
	free(err.v);
	rp_plot_discard(p);
	return 0;
}

static const char *const bonnie_kib[] = { "putc", "put_block", "rewrite", "getc", "get_block" };

struct rp_scale rp_scale_of(enum cmp_unit unit, const char *dir, double max)
{
	switch (unit) {
	case CMP_UNIT_BYTES_S:
		if (max >= 1024.0 * 1024 * 1024 * 10)
			return (struct rp_scale){ 1024.0 * 1024 * 1024, "GiB/s" };
		return max >= 1024.0 * 1024 ? (struct rp_scale){ 1024.0 * 1024, "MiB/s" }
					    : (struct rp_scale){ 1024.0, "KiB/s" };
	case CMP_UNIT_PER_S:
		return max >= 1e5 ? (struct rp_scale){ 1e3, "k IOPS" } : (struct rp_scale){ 1, "IOPS" };
	case CMP_UNIT_NS:
		if (max >= 1e7)
			return (struct rp_scale){ 1e6, "ms" };
		return max >= 1e4 ? (struct rp_scale){ 1e3, "µs" } : (struct rp_scale){ 1, "ns" };
	case CMP_UNIT_US:
		return max >= 1e4 ? (struct rp_scale){ 1e3, "ms" } : (struct rp_scale){ 1, "µs" };
	case CMP_UNIT_PCT:
		return (struct rp_scale){ 1, "%" };
	case CMP_UNIT_BONNIE:
		for (size_t i = 0; i < ARRAY_SIZE(bonnie_kib); i++)
			if (dir && !strcmp(dir, bonnie_kib[i]))
				return max >= 1024 ? (struct rp_scale){ 1024, "MiB/s" }
						   : (struct rp_scale){ 1, "KiB/s" };
		return (struct rp_scale){ 1, dir && !strcmp(dir, "seeks") ? "seeks/s" : "files/s" };
	case CMP_UNIT_OPS:
		return max >= 1e5 ? (struct rp_scale){ 1e3, "k ops/s" } : (struct rp_scale){ 1, "ops/s" };
	case CMP_UNIT_S:
		return (struct rp_scale){ 1, "s" };
	}
	return (struct rp_scale){ 1, "" };
}

void rp_grid_begin(struct rp_doc *d)
{
	if (d->fmt == PAGE_HTML)
		fputs("<div class=\"grid\">\n", d->out);
}

void rp_grid_end(struct rp_doc *d)
{
	if (d->fmt == PAGE_HTML)
		fputs("</div>\n", d->out);
}

void rp_plot_probe(struct rp_doc *d)
{
	struct buf out = { 0 }, err = { 0 };
	int status = 0;
	static const char script[] = "print 'ok'\n";
	int rc = run_gnuplot(d->gnuplot, script, sizeof(script) - 1, &out, &err, &status);
	if (rc == -ENOENT)
		d->no_plots = GNUPLOT_HINT;
	else if (rc < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		d->no_plots = "gnuplot could not be run: the plots are left out and the tables "
			      "written alone";
	free(out.v);
	free(err.v);
}
