/*
 * Storing a finished run, quick, bonnie or meta result (store_put_run): one
 * transaction with the run's row, labels, job files, every job option
 * from the specs, figures from the "json" rendering, histograms from the
 * results, the machine around it (its JSON, warnings), errors and every
 * rendering. Nothing is written before the transaction commits, so a run
 * killed meanwhile leaves no trace, and nothing of it is left half-stored.
 */
#include "store/store_int.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "report/bonnie_report.h"
#include "util/error.h"
#include "util/xmalloc.h"
#include "engines/ddir.h"

static const char *const kind_names[STORE_KIND_CNT] = { "run", "quick", "bonnie", "import",
								       "meta" };

const char *store_kind_name(enum store_kind k)
{
	return k < STORE_KIND_CNT ? kind_names[k] : "?";
}

int store_kind_parse(const char *s, enum store_kind *k)
{
	for (unsigned i = 0; i < STORE_KIND_CNT; i++) {
		if (!strcmp(s, kind_names[i])) {
			*k = (enum store_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

static void opts(struct store_tx *t, int job_idx, const struct job_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_tx_option(t, job_idx, (int)i, kv[i].key, kv[i].value);
}

/* Options and histograms of a run or quick result. */
static void result_extra(struct store_tx *t, const struct run_result *res)
{
	static const char *const lat_names[] = { "slat", "clat", "lat" };
	opts(t, -1, res->global_opts, res->nr_global_opts);
	for (size_t i = 0; i < res->nr_jobs; i++) {
		const struct job_result *j = &res->jobs[i];
		if (j->spec)
			opts(t, (int)i, j->spec->opts, j->spec->nr_opts);
		for (int d = 0; d < DDIR_RWDIR_CNT; d++) {
			const struct hist *h[] = { &j->dir[d].slat_hist, &j->dir[d].clat_hist,
						   &j->dir[d].lat_hist };
			for (int k = 0; k < 3; k++)
				store_tx_hist_of(t, (int)i, ddir_name((enum ddir)d), lat_names[k], h[k]);
		}
		store_tx_hist_of(t, (int)i, "sync", "lat", &j->sync.lat_hist);
	}
}

static void bonnie_figs_hists(struct store_tx *t, int idx, const struct bonnie_figures *f)
{
	for (int p = 0; p < BON_IO_TESTS; p++)
		if (f->io[p].ran)
			store_tx_hist_of(t, idx, bonnie_io_name((enum bonnie_io_test)p), "lat", &f->io[p].lat);
	for (int p = 0; p < BON_FILE_TESTS; p++)
		if (f->file[p].ran)
			store_tx_hist_of(t, idx, bonnie_file_name((enum bonnie_file_test)p), "lat", &f->file[p].lat);
}

/* Histograms of a bonnie run, in the job order store_ingest_bonnie_json gives. */
static void bonnie_extra(struct store_tx *t, const struct store_bonnie *b)
{
	int idx = 0;
	for (size_t i = 0; i < b->nr; i++) {
		bonnie_figs_hists(t, idx++, &b->runs[i].total);
		for (unsigned c = 0; c < b->runs[i].nr_copies; c++)
			bonnie_figs_hists(t, idx++, &b->runs[i].copies[c]);
	}
}

static void env_extra(struct store_tx *t, const struct run_env *e)
{
	if (!e)
		return;
	char *json = store_env_json(e);
	if (!json) {
		store_tx_fail(t, -ENOMEM);
		return;
	}
	store_tx_env(t, json);
	free(json);
	for (size_t i = 0; i < e->nr_warnings; i++) {
		const struct run_warning *w = &e->warnings[i];
		store_tx_warning(t, (int)i, w->id, w->message, w->evidence, w->advice, w->scope);
	}
}

static bool bonnie_interrupted(const struct store_bonnie *b)
{
	for (size_t i = 0; b && i < b->nr; i++)
		if (b->runs[i].interrupted)
			return true;
	return false;
}

static int check(const struct store_run *r)
{
	if (r->kind == STORE_KIND_IMPORT || r->kind >= STORE_KIND_CNT)
		return error("store: a run of kind '%s' is stored by the importer",
			     store_kind_name(r->kind));
	if (r->kind == STORE_KIND_META && (r->result || r->bonnie))
		return error("store: a meta run has no fio-style or bonnie results");
	if (r->kind != STORE_KIND_META && ((r->kind == STORE_KIND_BONNIE) != (r->bonnie != NULL) ||
					   (r->kind != STORE_KIND_BONNIE && !r->result)))
		return error("store: a %s run needs its %s results", store_kind_name(r->kind),
			     r->kind == STORE_KIND_BONNIE ? "bonnie" : "fio-style");
	if (!store_renderings_find(r->renderings, "json"))
		return error("store: the run has no \"json\" rendering to take its figures from");
	return 0;
}

int store_put_run(struct store *st, const struct store_run *r, const struct store_meta *m,
		  int64_t *id)
{
	struct json_object *root;
	struct store_tx t;
	int rc = check(r);
	if (rc < 0)
		return rc;
	const struct store_rendering *json = store_renderings_find(r->renderings, "json");
	if ((rc = store_json_parse("<the run's JSON output>", json->text, json->len, &root)) < 0)
		return rc;
	struct store_run_row row = {
		.kind = store_kind_name(r->kind),
		.tool = "iobench-" IOBENCH_VERSION,
		.source_format = "iobench",
		.start_ms = (int64_t)r->start_ms,
		.end_ms = (int64_t)r->end_ms,
		.have_exit_status = true,
		.exit_status = r->exit_status,
		.interrupted = r->interrupted || (r->result && r->result->interrupted) ||
			       bonnie_interrupted(r->bonnie),
	};
	if ((rc = store_tx_begin(st, &row, m, &t)) < 0) {
		json_object_put(root);
		return rc;
	}
	if (r->result) {
		store_ingest_fio_json(&t, root, 0);
		result_extra(&t, r->result);
		env_extra(&t, r->result->env);
	} else if (r->kind == STORE_KIND_META) {
		store_ingest_meta_json(&t, root);
	} else {
		store_ingest_bonnie_json(&t, root);
		bonnie_extra(&t, r->bonnie);
		env_extra(&t, r->bonnie->env);
	}
	json_object_put(root);
	for (size_t i = 0; i < r->nr_job_files; i++)
		store_tx_job_file(&t, (int)i, r->job_files[i].name, r->job_files[i].text,
				  r->job_files[i].len);
	for (size_t i = 0; i < r->nr_errors; i++)
		store_tx_error(&t, (int)i, r->errors[i]);
	for (size_t i = 0; i < r->renderings->n; i++) {
		const struct store_rendering *e = &r->renderings->v[i];
		store_tx_rendering(&t, e->format, e->text, e->len, e->printed);
	}
	int64_t run_id = t.run_id;
	if (t.err_code == -EBADMSG)
		error("store: the run's JSON output is not laid out as expected");
	if ((rc = store_tx_end(&t, true)) < 0)
		return rc;
	if (id)
		*id = run_id;
	return 0;
}
