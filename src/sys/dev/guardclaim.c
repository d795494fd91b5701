/*
 * The run's exclusive claims on the block devices its jobs write
 * (guardopen.h): one O_EXCL descriptor per device, opened through the
 * job's own descriptor (/proc/self/fd/N, so it is the same inode), shared
 * by every job that writes the device and closed when the last one lets
 * go. While it is open the kernel refuses every other exclusive open: a
 * mount, mkfs, swapon, md or device-mapper cannot take the device.
 */
#include "sys/dev/guardopen.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int devguard_claim(struct devguard_claims *c, int fd, dev_t dev)
{
	int rc = 0;

	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].dev == dev) {
			c->v[i].refs++;
			goto out;
		}
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 8;
		struct devguard_claim *v = realloc(c->v, cap * sizeof(*v));
		if (!v) {
			rc = -ENOMEM;
			goto out;
		}
		c->v = v;
		c->cap = cap;
	}
	char node[64];
	snprintf(node, sizeof(node), "/proc/self/fd/%d", fd);
	int x = open(node, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (x < 0) {
		rc = -errno;
		goto out;
	}
	c->v[c->n++] = (struct devguard_claim){ dev, x, 1 };
out:
	pthread_mutex_unlock(&c->lock);
	return rc;
}

void devguard_claims_init(struct devguard_claims *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	pthread_mutex_init(&c->made_lock, NULL);
}

void devguard_claims_release(struct devguard_claims *c)
{
	for (size_t i = 0; i < c->n; i++)
		close(c->v[i].fd);
	free(c->v);
	c->v = NULL;
	c->n = c->cap = 0;
	free(c->made);
	c->made = NULL;
	c->nmade = c->capmade = 0;
	pthread_mutex_destroy(&c->lock);
	pthread_mutex_destroy(&c->made_lock);
}

void devguard_unclaim(struct devguard_claims *c, dev_t dev)
{
	if (!c || !dev)
		return;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < c->n; i++) {
		if (c->v[i].dev != dev)
			continue;
		if (!--c->v[i].refs) {
			close(c->v[i].fd);
			c->v[i] = c->v[--c->n];
		}
		break;
	}
	pthread_mutex_unlock(&c->lock);
}
