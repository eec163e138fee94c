// SPDX-License-Identifier: GPL-2.0
/*
 * insn_count: a QEMU TCG plugin that counts the guest instructions executed
 * between two markers, per vCPU, in total and inside named guest address
 * ranges (a driver's .text, the page_pool and skb functions, ...).
 *
 * Plugin arguments:
 *   begin=ADDR, end=ADDR  guest virtual addresses of the two marker programs'
 *                         first instruction (see mark.S)
 *   ranges=PATH           host path of the window description, re-read at
 *                         each begin marker; lines are "label TEXT" or
 *                         "NAME START END" (hex, END exclusive)
 *   out=PATH              host path a line per window is appended to:
 *                         "TEXT cpu0.total=N cpu0.NAME=N ... cpu1.total=N ..."
 *   profile=PATH          optional: per window, the hottest blocks of each
 *                         vCPU, "TEXT cpuN ADDR:INSNS ..." (top 3000)
 *
 * Each translated block counts as a whole towards the range its first
 * instruction lies in; blocks end at branches, so a block rarely spans two
 * functions. Counting is exact for the instructions QEMU executes, so two
 * runs of the same guest work give (nearly) the same numbers whatever else
 * the host is doing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_abi.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = IGB_RUST_PLUGIN_API_VERSION;

#define MAX_VCPUS 16
#define MAX_NAMES 8		/* named ranges; index 0 is the total */
#define NAME_LEN 32
#define LABEL_LEN 256

struct range {
	uint64_t start, end;
	unsigned int name;	/* 1..nnames */
};

struct table {
	unsigned int nranges, nnames;
	char names[MAX_NAMES + 1][NAME_LEN];
	char label[LABEL_LEN];
	struct range r[];
};

/* Per translated block; cat_gen caches its range (low byte) per generation. */
struct block {
	uint64_t vaddr;
	uint64_t cat_gen;
	unsigned int ninsns;
	struct block *next;		/* all blocks, for the profile */
	uint64_t execs[MAX_VCPUS];	/* executions in this window */
};

#define PROFILE_TOP 3000

static uint64_t counts[MAX_VCPUS][MAX_NAMES + 1];
static uint64_t snap[MAX_VCPUS][MAX_NAMES + 1];
static struct table *table;	/* replaced, never freed, at each begin */
static uint64_t generation = 1;
static uint64_t mark_begin, mark_end;
static const char *ranges_path, *out_path, *profile_path;
static struct block *blocks;
static unsigned int windows;

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static unsigned int name_index(struct table *t, const char *name)
{
	unsigned int i;

	for (i = 1; i <= t->nnames; i++)
		if (!strcmp(t->names[i], name))
			return i;
	if (t->nnames == MAX_NAMES)
		return 0;
	t->nnames++;
	snprintf(t->names[t->nnames], NAME_LEN, "%s", name);
	return t->nnames;
}

static struct table *load_table(void)
{
	char line[512], name[NAME_LEN], *p;
	unsigned int cap = 1024, idx;
	unsigned long long s, e;
	struct table *t;
	FILE *f;

	t = calloc(1, sizeof(*t) + cap * sizeof(t->r[0]));
	if (!t)
		return NULL;
	snprintf(t->label, LABEL_LEN, "window%u", windows);
	f = fopen(ranges_path, "r");
	if (!f)
		return t;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "label ", 6)) {
			p = strchr(line, '\n');
			if (p)
				*p = 0;
			snprintf(t->label, LABEL_LEN, "%.255s", line + 6);
			continue;
		}
		if (sscanf(line, "%31s %llx %llx", name, &s, &e) != 3 || e <= s)
			continue;
		idx = name_index(t, name);
		if (!idx)
			continue;
		if (t->nranges == cap) {
			struct table *n;

			cap *= 2;
			n = realloc(t, sizeof(*t) + cap * sizeof(t->r[0]));
			if (!n)
				break;
			t = n;
		}
		t->r[t->nranges++] = (struct range){ s, e, idx };
	}
	fclose(f);
	qsort(t->r, t->nranges, sizeof(t->r[0]), cmp_range);
	return t;
}

static unsigned int lookup(const struct table *t, uint64_t a)
{
	unsigned int lo = 0, hi = t->nranges;

	while (lo < hi) {
		unsigned int mid = (lo + hi) / 2;

		if (a < t->r[mid].start)
			hi = mid;
		else if (a >= t->r[mid].end)
			lo = mid + 1;
		else
			return t->r[mid].name;
	}
	return 0;
}

static void window_begin(void)
{
	struct table *t = load_table();

	if (!t)
		return;
	__atomic_store_n(&table, t, __ATOMIC_RELEASE);
	__atomic_add_fetch(&generation, 1, __ATOMIC_RELEASE);
	if (profile_path) {
		struct block *b;

		for (b = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE); b; b = b->next)
			memset(b->execs, 0, sizeof(b->execs));
	}
	memcpy(snap, counts, sizeof(snap));
}

struct hot {
	uint64_t vaddr, insns;
};

static int cmp_hot(const void *a, const void *b)
{
	const struct hot *x = a, *y = b;

	return x->insns > y->insns ? -1 : x->insns < y->insns;
}

static void write_profile(const char *label)
{
	size_t n, cap = 0, i;
	struct hot *hot = NULL;
	struct block *b;
	unsigned int v;
	FILE *f;

	for (b = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE); b; b = b->next)
		cap++;
	hot = malloc((cap + 1) * sizeof(*hot));
	f = fopen(profile_path, "a");
	if (!hot || !f)
		goto out;
	for (v = 0; v < MAX_VCPUS; v++) {
		if (!counts[v][0])
			continue;
		n = 0;
		for (b = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE); b && n < cap; b = b->next)
			if (b->execs[v])
				hot[n++] = (struct hot){ b->vaddr, b->execs[v] * b->ninsns };
		qsort(hot, n, sizeof(hot[0]), cmp_hot);
		fprintf(f, "%s cpu%u", label, v);
		for (i = 0; i < n && i < PROFILE_TOP; i++)
			fprintf(f, " %" PRIx64 ":%" PRIu64, hot[i].vaddr, hot[i].insns);
		fprintf(f, "\n");
	}
out:
	if (f)
		fclose(f);
	free(hot);
}

static void window_end(void)
{
	struct table *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
	unsigned int v, i;
	FILE *f;

	if (!t)
		return;
	f = fopen(out_path, "a");
	if (!f)
		return;
	fprintf(f, "%s", t->label);
	for (v = 0; v < MAX_VCPUS; v++) {
		if (!counts[v][0])
			continue;
		fprintf(f, " cpu%u.total=%" PRIu64, v, counts[v][0] - snap[v][0]);
		for (i = 1; i <= t->nnames; i++)
			fprintf(f, " cpu%u.%s=%" PRIu64, v, t->names[i],
				counts[v][i] - snap[v][i]);
	}
	fprintf(f, "\n");
	fclose(f);
	if (profile_path)
		write_profile(t->label);
	windows++;
}

static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	uint64_t gen, cg;
	unsigned int cat;

	if (vcpu >= MAX_VCPUS)
		return;
	counts[vcpu][0] += b->ninsns;
	b->execs[vcpu]++;
	gen = __atomic_load_n(&generation, __ATOMIC_ACQUIRE);
	cg = __atomic_load_n(&b->cat_gen, __ATOMIC_RELAXED);
	if (cg >> 8 == gen) {
		cat = cg & 0xff;
	} else {
		const struct table *t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);

		cat = t ? lookup(t, b->vaddr) : 0;
		__atomic_store_n(&b->cat_gen, gen << 8 | cat, __ATOMIC_RELAXED);
	}
	if (cat)
		counts[vcpu][cat] += b->ninsns;
	if (b->vaddr == mark_begin)
		window_begin();
	else if (b->vaddr == mark_end)
		window_end();
}

static void block_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b = calloc(1, sizeof(*b));

	(void)id;
	if (!b)
		return;
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->ninsns = qemu_plugin_tb_n_insns(tb);
	b->next = __atomic_load_n(&blocks, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&blocks, &b->next, b, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	/* Blocks are translated again after a flush; this one leaks then. */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec,
					     QEMU_PLUGIN_CB_NO_REGS, b);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "begin=", 6))
			mark_begin = strtoull(a + 6, NULL, 0);
		else if (!strncmp(a, "end=", 4))
			mark_end = strtoull(a + 4, NULL, 0);
		else if (!strncmp(a, "ranges=", 7))
			ranges_path = a + 7;
		else if (!strncmp(a, "out=", 4))
			out_path = a + 4;
		else if (!strncmp(a, "profile=", 8))
			profile_path = a + 8;
		else {
			fprintf(stderr, "insn_count: unknown argument %s\n", a);
			return -EINVAL;
		}
	}
	if (!mark_begin || !mark_end || !ranges_path || !out_path) {
		fprintf(stderr, "insn_count: need begin=, end=, ranges=, out=\n");
		return -EINVAL;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, block_trans);
	return 0;
}
