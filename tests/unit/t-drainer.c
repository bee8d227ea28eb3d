// SPDX-License-Identifier: GPL-2.0
/*
 * t-drainer.c - pins relaytop's reader thread per CPU buffer
 * (relaytop/drainer.c, as live_source.c runs it) on a fake channel whose
 * producer runs in the test's thread:
 * - the producer gets every sub-buffer back while the main loop does not
 *   run at all (the drainer reads and hands back on its own), and every
 *   record then reaches the feed once, in order, when the main loop runs;
 * - a tick's read that finds a quiet buffer empty does not stop its
 *   drainer from polling it (only a POLLIN without news does);
 * - a drainer hands each sub-buffer back as soon as it read it;
 * - the tick leaves the reads to the drainers (it kicks them): it never
 *   holds a drainer's lock through a read, and holds them all (to move
 *   cpus[]) only when a buffer is new;
 * - without --threads or --one-thread, buffers of 64 KiB a CPU or less
 *   get drainers, bigger ones (and plain files) one reader;
 * - a drainer whose queue is full stops reading, so the producer drops,
 *   and every drop is counted at its place: the recording checks clean
 *   and its records plus its drops are what the producer made;
 * - a producer, resets and the main loop's own reads all racing the
 *   drainers: the recording checks clean (no record twice, none out of
 *   place, every gap counted), and records + drops == events made;
 * - the channel going away while drainers hold records the main thread
 *   has not taken: they are recorded before it is gone, in their place;
 * - buffers removed under a drainer's read (SIGBUS in its thread): the
 *   channel is announced gone and is picked up again, with new drainers.
 * The fake relay is not thread-safe: the producer's writes, resets and
 * the hand-backs (which drainers make) take one lock.  A buffer file on
 * the host is a regular file, always POLLIN: a drainer reads it, finds
 * nothing new and waits for a kick, which the test gives where the
 * kernel's POLLIN would come (a sub-buffer complete).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake-session.h"
#include "live_source.h"
#include "top.h"
#include "test-lib.h"
#include "util.h"

static pthread_mutex_t prod_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t handed = PTHREAD_COND_INITIALIZER;
static uint64_t handbacks;
/* CPU 0's buffer file's POLLIN, as relay's (when a test sets it up): up
 * from a sub-buffer's completion until every finished one is back */
static int pollin_fd = -1;
static struct fake_relay *pollin_relay;

/* Hand-backs made by the test's own thread (the main loop's), counted
 * while main_counted is set. */
static pthread_t main_thread;
static bool main_counted;
static unsigned int main_handbacks;

/* The hand-back, from a drainer's thread (or the main one). */
static int locked_give_back(void *cc, uint64_t until)
{
	int err;
	uint64_t v;

	pthread_mutex_lock(&prod_lock);
	if (main_counted && pthread_equal(pthread_self(), main_thread))
		main_handbacks++;
	err = fake_channel_give_back(cc, until);
	if (pollin_fd >= 0 && pollin_relay->consumed == pollin_relay->produced &&
	    read(pollin_fd, &v, sizeof(v)) < 0) {
		/* was not up */
	}
	handbacks++;
	pthread_cond_broadcast(&handed);
	pthread_mutex_unlock(&prod_lock);
	return err;
}

static uint64_t produce(struct fake_relay *f, uint64_t n)
{
	uint64_t w;

	pthread_mutex_lock(&prod_lock);
	w = fake_relay_events(f, n);
	pthread_mutex_unlock(&prod_lock);
	return w;
}

/* Wait (10 s at most: a failure, not a timing) until relay f has every
 * finished sub-buffer back. */
static bool all_back(struct fake_relay *f)
{
	struct timespec until;
	bool ok = true;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += 10;
	pthread_mutex_lock(&prod_lock);
	while (f->consumed < f->produced && ok)
		ok = pthread_cond_timedwait(&handed, &prod_lock, &until) == 0 ||
		     f->consumed >= f->produced;
	pthread_mutex_unlock(&prod_lock);
	return ok;
}

static char record_path[] = "/tmp/t-drainer.XXXXXX";

/* The live mode with a drainer per buffer, 4 x 4096 bytes per CPU;
 * the drainers are started by the loop's first pollfds(). */
static bool rig_start(struct fake_session *r, unsigned int ncpus,
		      const char *record, size_t queue_max)
{
	struct pollfd pfd[16];

	memset(r, 0, sizeof(*r));
	r->opt.record = record;
	r->opt.threads = 1;
	if (!fake_session_start(r, ncpus, 4096, 4, false, OUT_NONE))
		return false;
	r->t.live.give_back = locked_give_back;
	r->t.live.drainers.queue_max = queue_max;
	live_source_ops.pollfds(&r->t.live, pfd, 16);
	return r->t.live.drainers_on;
}

/* One turn of the loop on the drainers' wake-up (10 s at most). */
static bool loop_turn(struct fake_session *r)
{
	struct pollfd pfd[16];
	unsigned int n = live_source_ops.pollfds(&r->t.live, pfd, 16);

	if (poll(pfd, n, 10000) <= 0)
		return false;
	live_source_ops.ready(&r->t.live, pfd, n);
	return true;
}

static void test_handback_without_main_loop(void)
{
	struct fake_session r;
	struct fake_relay *f;
	uint32_t cap;
	uint64_t made = 0;
	bool back = true;

	handbacks = 0;
	if (!check(rig_start(&r, 1, NULL, 0)))
		return;
	f = &r.fc.relay[0];
	cap = fake_relay_capacity(f);
	/* 40 sub-buffers: ten laps of the buffer, the main loop idle */
	for (int i = 0; i < 40 && back; i++) {
		made += produce(f, cap);
		drainers_kick(&r.t.live.drainers);
		back = all_back(f);
	}
	check(back);
	check_uint(f->full, ==, 0);
	check_uint(made, ==, 40 * (uint64_t)cap);
	check_uint(f->consumed, >=, 39);
	check_uint(r.t.tally.st.cpu[0].events, ==, 0);	/* nothing replayed */
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, made);
	check_uint(r.t.live.drainers.d[0]->view.reader.unaccounted, ==, 0);
	check_uint(r.t.live.drainers.d[0]->view.reader.misplaced, ==, 0);
	fake_session_stop(&r);
}

/* The recording at path: check_recording()'s verdict, and its records
 * and drops (DROPPED items) of every CPU. */
static int scan(const char *path, uint64_t *records, uint64_t *dropped,
		uint64_t *lost, uint64_t *last_gen)
{
	struct record_stream rs;
	struct record_item it;
	FILE *devnull = fopen("/dev/null", "w");
	int verdict = check_recording(path, devnull);

	fclose(devnull);
	*records = *dropped = *lost = 0;
	memset(last_gen, 0, FAKE_MAX_CPUS * sizeof(*last_gen));
	if (record_stream_open(&rs, path))
		return -1;
	while (record_stream_next(&rs, &it) > 0) {
		if (it.kind == ITEM_RECORD)
			(*records)++;
		if (it.kind == ITEM_RECORD && it.cpu < FAKE_MAX_CPUS)
			last_gen[it.cpu]++;
		else if (it.kind == ITEM_RESTART && it.cpu < FAKE_MAX_CPUS)
			last_gen[it.cpu] = 0;
		else if (it.kind == ITEM_DROPPED)
			*dropped += it.count;
		else if (it.kind == ITEM_LOST)
			*lost += it.count;
	}
	record_stream_close(&rs);
	return verdict;
}

/*
 * A tick's read of a quiet buffer finds nothing: the drainer must go on
 * polling the buffer, and read it at its next POLLIN.  Before, it took
 * any read without news for a POLLIN stuck up and left the buffer to the
 * next tick (a second later): under a paced load the producer dropped.
 */
static void test_quiet_buffer_stays_polled(void)
{
	struct fake_session r;
	struct fake_relay *f;
	struct pollfd pfd[16];
	uint64_t one = 1;
	int efd = eventfd(0, EFD_NONBLOCK);

	handbacks = 0;
	memset(&r, 0, sizeof(r));
	r.opt.threads = 1;
	if (!check(fake_session_start(&r, 1, 4096, 4, false, OUT_NONE)))
		return;
	r.t.live.give_back = locked_give_back;
	f = &r.fc.relay[0];
	/* the buffer file polled is the eventfd (the mapping stays) */
	check_int(dup2(efd, r.t.live.ch.cpus[0].fd), ==, r.t.live.ch.cpus[0].fd);
	pollin_relay = f;
	pollin_fd = r.t.live.ch.cpus[0].fd;
	live_source_ops.pollfds(&r.t.live, pfd, 16);
	check(r.t.live.drainers_on);
	/* the tick: a read of a quiet buffer */
	drainers_kick(&r.t.live.drainers);
	check(loop_turn(&r));
	/* a sub-buffer completes: relay wakes the buffer's pollers */
	for (int i = 0; i < 3; i++) {
		produce(f, fake_relay_capacity(f) + 1);
		check_int(write(efd, &one, sizeof(one)), ==, 8);
		check(all_back(f));
	}
	check_uint(f->consumed, ==, 3);
	check_uint(f->full, ==, 0);
	pollin_fd = -1;
	fake_session_stop(&r);
	close(efd);
}

/*
 * One CPU at 4 x 4 KiB with its drainer, whose buffer file is the
 * eventfd efd, never up: only a kick wakes the drainer.  Stops what it
 * started when it fails.
 */
static bool kick_only_start(struct fake_session *r, int efd)
{
	struct pollfd pfd[16];
	int fd;

	memset(r, 0, sizeof(*r));
	r->opt.threads = 1;
	if (!fake_session_start(r, 1, 4096, 4, false, OUT_NONE))
		return false;
	r->t.live.give_back = locked_give_back;
	fd = r->t.live.ch.cpus[0].fd;
	if (efd >= 0 && dup2(efd, fd) == fd) {
		live_source_ops.pollfds(&r->t.live, pfd, 16);
		if (r->t.live.drainers_on)
			return true;
	}
	fake_session_stop(r);
	return false;
}

/*
 * A drainer hands each sub-buffer back as soon as it has read it, not
 * everything at the end of its read: preempted in the middle of a read
 * (92 ms in a storm of three task pairs a CPU), it holds back only the
 * sub-buffer it is in.  Three sub-buffers read at one kick: three
 * hand-backs, each of one more.
 */
static void test_handback_each_subbuf(void)
{
	struct fake_session r;
	struct fake_relay *f;
	int efd = eventfd(0, EFD_NONBLOCK);

	if (!check(kick_only_start(&r, efd))) {
		close(efd);
		return;
	}
	f = &r.fc.relay[0];
	produce(f, 3 * (uint64_t)fake_relay_capacity(f) + 1);
	pthread_mutex_lock(&prod_lock);
	handbacks = 0;
	pthread_mutex_unlock(&prod_lock);
	drainers_kick(&r.t.live.drainers);
	check(all_back(f));
	check_uint(f->consumed, ==, 3);
	pthread_mutex_lock(&prod_lock);
	check_uint(handbacks, ==, 3);
	pthread_mutex_unlock(&prod_lock);
	fake_session_stop(&r);
	close(efd);
}

/*
 * The tick leaves the reads to the drainers: it kicks them and replays
 * what they queued, and does not read a buffer itself under its
 * drainer's lock.  The main loop is one thread for every CPU; preempted
 * while it held a drainer's lock, it kept that drainer from its buffer
 * for up to 117 ms in a storm of three task pairs a CPU, and the
 * producer dropped.  The buffer file polled is an eventfd that never
 * wakes the drainer, so only the kick can make it read.
 */
static void test_tick_leaves_reads_to_drainers(void)
{
	struct fake_session r;
	struct fake_relay *f;
	uint64_t made;
	int efd = eventfd(0, EFD_NONBLOCK);

	if (!check(kick_only_start(&r, efd))) {
		close(efd);
		return;
	}
	f = &r.fc.relay[0];
	made = produce(f, 2 * (uint64_t)fake_relay_capacity(f) + 5);
	main_thread = pthread_self();
	main_handbacks = 0;
	main_counted = true;
	live_source_ops.tick(&r.t.live, 1.0);
	check(all_back(f));
	main_counted = false;
	check_uint(main_handbacks, ==, 0);
	check_uint(f->consumed, ==, 2);
	/* what the kicked drainer read reaches the feed at the next turn */
	while (r.t.tally.st.cpu[0].events < made && loop_turn(&r))
		;
	check_uint(r.t.tally.st.cpu[0].events, ==, made);
	fake_session_stop(&r);
	close(efd);
}

/*
 * The tick stops every drainer (holding all their locks, to move the
 * channel's cpus[]) only when a buffer is new, not at each tick to look
 * for one: preempted while it held them all, the main thread kept every
 * drainer from its buffer for up to 123 ms in a storm of three task
 * pairs a CPU.  A CPU that comes online still gets its drainer.
 */
static void test_tick_stops_drainers_for_new_buffers_only(void)
{
	struct fake_session r;
	uint64_t before;

	if (!check(rig_start(&r, 2, NULL, 0)))
		return;
	before = r.t.live.drainers.stopped_all;
	for (int i = 0; i < 3; i++)
		live_source_ops.tick(&r.t.live, 1.0);
	check_uint(r.t.live.drainers.stopped_all, ==, before);
	if (!check(fake_channel_add_cpu(&r.fc)))
		goto out;
	live_source_ops.tick(&r.t.live, 1.0);
	check_uint(r.t.live.drainers.stopped_all, ==, before + 1);
	check_uint(r.t.live.ch.n, ==, 3);
	check(drainers_of(&r.t.live.drainers, 2) != NULL);
out:
	fake_session_stop(&r);
}

/*
 * Without --threads or --one-thread: drainers for small buffers of the
 * kernel's (a fake channel's plain files stand in for them here), one
 * reader for bigger ones and for plain files.  Fails if the size or the
 * kind of file is not what decides.
 */
static bool auto_threads(uint32_t subbuf_size, uint32_t n_subbufs,
			 bool kernel_files)
{
	struct fake_session r;
	struct pollfd pfd[16];
	bool on;

	memset(&r, 0, sizeof(r));
	if (!fake_session_start(&r, 2, subbuf_size, n_subbufs, false,
				OUT_NONE))
		return false;
	r.t.live.ch.read_only = !kernel_files;
	live_source_ops.pollfds(&r.t.live, pfd, 16);
	on = r.t.live.drainers_on;
	fake_session_stop(&r);
	return on;
}

static void test_threads_for_small_buffers(void)
{
	check(auto_threads(4096, 4, true));
	check(auto_threads(16384, 4, true));
	check(!auto_threads(65536, 8, true));
	check(!auto_threads(4096, 4, false));
}

static void test_full_queue_drops_counted(void)
{
	struct fake_session r;
	struct fake_relay *f;
	uint64_t made = 0, records, dropped, lost, last[FAKE_MAX_CPUS];
	int fd = mkstemp(record_path);

	close(fd);
	/* a queue of about one sub-buffer of copies */
	if (!check(rig_start(&r, 1, record_path, 4096)))
		return;
	f = &r.fc.relay[0];
	/* the main loop idle: after a read or two the drainer's queue is
	 * full, it reads no more, and the producer must drop */
	for (int i = 0; i < 12; i++) {
		made += produce(f, fake_relay_capacity(f));
		drainers_kick(&r.t.live.drainers);
		usleep(2000);
	}
	check_uint(f->full, >, 0);
	/* the main loop takes the queue: the drainer reads again */
	while (f->consumed < f->produced && loop_turn(&r))
		drainers_kick(&r.t.live.drainers);
	made += produce(f, 10);
	fake_channel_sync_files(&r.fc);	/* the stats file: its drops */
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);
	check_int(scan(record_path, &records, &dropped, &lost, last), ==, 0);
	check_uint(made, ==, f->events);
	check_uint(records, ==, f->events);
	check_uint(dropped, ==, f->full);
	check_uint(lost, ==, 0);
	unlink(record_path);
}

/* The producer's side of the race: writes of every size, resets. */
struct race {
	struct fake_session *r;
	unsigned int ncpus;
	uint64_t events, full;	/* of the generations before the last */
	volatile int done;
};

static void *race_producer(void *arg)
{
	struct race *ra = arg;
	unsigned int seed = 7;

	for (int i = 0; i < 3000; i++) {
		unsigned int c = (unsigned int)rand_r(&seed) % ra->ncpus;
		struct fake_relay *f = &ra->r->fc.relay[c];

		/* never full (drops are the test above's): a buffer half
		 * unread waits for its drainer */
		if (f->produced - f->consumed >= 2) {
			drainers_kick(&ra->r->t.live.drainers);
			if (!all_back(f))
				break;
		}
		produce(f, 1 + (unsigned int)rand_r(&seed) % 60);
		if (i % 700 == 699) {
			pthread_mutex_lock(&prod_lock);
			for (unsigned int k = 0; k < ra->ncpus; k++) {
				ra->events += ra->r->fc.relay[k].events;
				ra->full += ra->r->fc.relay[k].full;
			}
			fake_channel_reset(&ra->r->fc);
			pthread_mutex_unlock(&prod_lock);
		}
		if (i % 5 == 0)
			drainers_kick(&ra->r->t.live.drainers);
	}
	__atomic_store_n(&ra->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void test_race_checks_clean(void)
{
	struct fake_session r;
	struct race ra = { .r = &r, .ncpus = 3 };
	uint64_t records, dropped, lost, events, full, last[FAKE_MAX_CPUS];
	uint64_t last_events[3];
	pthread_t prod;
	int fd = mkstemp(record_path), turns = 0;

	close(fd);
	if (!check(rig_start(&r, 3, record_path, 0)))
		return;
	check_int(pthread_create(&prod, NULL, race_producer, &ra), ==, 0);
	/* the main loop as it runs: woken by the drainers, its own reads */
	while (!__atomic_load_n(&ra.done, __ATOMIC_SEQ_CST)) {
		struct pollfd pfd[16];
		unsigned int n = live_source_ops.pollfds(&r.t.live, pfd, 16);

		if (poll(pfd, n, 1) > 0)
			live_source_ops.ready(&r.t.live, pfd, n);
		if (++turns % 7 == 0)
			top_drain(&r.t);
	}
	pthread_join(prod, NULL);
	fake_channel_sync_files(&r.fc);
	check_int(top_finish(&r.t), ==, 0);
	events = ra.events;
	full = ra.full;
	for (unsigned int c = 0; c < 3; c++) {
		last_events[c] = r.fc.relay[c].events;
		events += r.fc.relay[c].events;
		full += r.fc.relay[c].full;
	}
	fake_session_stop(&r);
	/* A reset empties the buffers: what it found unread is gone, at
	 * the end of its generation, and the check sees that no record is
	 * missing before a record delivered.  The last generation has no
	 * reset after it: every record of it is there. */
	check_int(scan(record_path, &records, &dropped, &lost, last), ==, 0);
	check_uint(full, ==, 0);
	check_uint(dropped, ==, 0);
	check_uint(lost, ==, 0);
	check_uint(records, <=, events);
	check_uint(records, >, events / 2);
	for (unsigned int c = 0; c < 3; c++)
		check_uint(last[c], ==, last_events[c]);
	unlink(record_path);
}

/*
 * The channel goes away (its attributes removed, as when the module is
 * unloaded or re-creates them, noticed by the generation's POLLPRI) while
 * the drainers hold records the main thread has not taken: they are
 * recorded before the channel is said to be gone.  Before, went_away()
 * said FEED_GONE first and stopping the drainers replayed them after it,
 * so the channel's next sequence, numbered from 0 again, came after
 * higher numbers of the old one: in the guest (50-stress.t's config
 * scenario on 6.12) relaytop --check found 494 records out of place.
 */
static void test_gone_with_records_queued(void)
{
	struct fake_session r;
	struct fake_relay *f;
	struct pollfd pfd[16];
	uint64_t records, dropped, lost, last[FAKE_MAX_CPUS];
	char path[128];
	unsigned int n;
	int fd = mkstemp(record_path);

	close(fd);
	if (!check(rig_start(&r, 1, record_path, 0)))
		return;
	f = &r.fc.relay[0];
	produce(f, 200);
	top_drain(&r.t);
	/* read and handed back by the drainer, not taken by the main thread */
	produce(f, 2 * fake_relay_capacity(f));
	drainers_kick(&r.t.live.drainers);
	check(all_back(f));
	/* the attributes go (what is read is no generation); the kernel's
	 * declared 'generation' wakes us */
	r.t.live.ctl.notifies[CTL_GENERATION] = true;
	n = live_source_ops.pollfds(&r.t.live, pfd, 16);
	check_uint(r.t.live.nctl, ==, 1);
	snprintf(path, sizeof(path), "%s/generation", r.fc.dir);
	fd = open(path, O_WRONLY | O_TRUNC);	/* unreadable as the kernel's */
	check_int(write(fd, "gone\n", 5), ==, 5);
	close(fd);
	for (unsigned int i = 0; i < n; i++)
		pfd[i].revents = i < r.t.live.nctl ? POLLPRI : 0;
	live_source_ops.ready(&r.t.live, pfd, n);
	check(!r.t.live.have_ch);
	/* it comes back reset: its events are numbered from 0 again */
	pthread_mutex_lock(&prod_lock);
	fake_channel_reset(&r.fc);
	pthread_mutex_unlock(&prod_lock);
	fake_channel_sync_files(&r.fc);
	top_tick(&r.t);
	check(r.t.live.have_ch);
	live_source_ops.pollfds(&r.t.live, pfd, 16);
	produce(f, 50);
	top_drain(&r.t);
	check_int(top_finish(&r.t), ==, 0);
	fake_session_stop(&r);
	check_int(scan(record_path, &records, &dropped, &lost, last), ==, 0);
	check_uint(records, ==, 250 + 2 * (uint64_t)fake_relay_capacity(f));
	unlink(record_path);
}

static void test_buffers_removed_under_drainer(void)
{
	struct fake_session r;
	bool gone = false;

	channel_install_sigbus();
	if (!check(rig_start(&r, 2, NULL, 0)))
		return;
	produce(&r.fc.relay[1], 100);
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[1].events, ==, 100);
	pthread_mutex_lock(&prod_lock);
	fake_channel_remove_buffers(&r.fc);
	pthread_mutex_unlock(&prod_lock);
	drainers_kick(&r.t.live.drainers);
	/* the drainers fault, say so, and the main loop hears it */
	for (int i = 0; i < 20 && !gone; i++) {
		if (!loop_turn(&r))
			break;
		gone = !r.t.live.have_ch;
	}
	check(gone);
	check(!r.t.live.drainers_on);
	check(strstr(r.t.app.status, "channel went away") != NULL);
	fake_channel_restore_buffers(&r.fc);
	top_tick(&r.t);	/* looks for it again */
	check(r.t.live.have_ch);
	{
		struct pollfd pfd[16];

		live_source_ops.pollfds(&r.t.live, pfd, 16);
	}
	check(r.t.live.drainers_on);
	produce(&r.fc.relay[0], 30);
	top_drain(&r.t);
	check_uint(r.t.tally.st.cpu[0].events, ==, 30);
	fake_session_stop(&r);
}

/*
 * The drain schedule at small geometries: a drainer naps (reads without
 * being woken) only where what is left of the free room after the nap
 * outlasts the wait to run of a busy CPU (DRAINER_NAP_MARGIN_NS).  At 4 x
 * 4 KiB (189 records of room) a paced 10k events/s fills the room in 19
 * ms, at 60k flat out in 3 ms: napping there (7.6 ms and 1.3 ms, rounded
 * up to 2 ms by poll()) dropped where ftrace's readers, woken at each
 * page, did not.  Those buffers are polled; the default 8 x 64 KiB at the
 * storm's 62k events/s (115 ms of room) naps 46 ms, and is polled in a
 * surge to 200k (36 ms of room, 21 ms left after a nap).
 */
static void test_nap_at_small_geometries(void)
{
	struct subbuf_geometry g4k = { 4096, 4 }, g16k = { 16384, 4 },
			       g64k = { 65536, 8 };
	uint64_t second = 1000000000ull, nap;

	check_uint(drainer_nap_ns(&g4k, 10000, 0.3, second), ==, 0);
	check_uint(drainer_nap_ns(&g4k, 60000, 0.3, second), ==, 0);
	check_uint(drainer_nap_ns(&g16k, 60000, 0.3, second), ==, 0);
	/* 4 x 16 KiB paced (765 records of room at 10k/s: 76 ms) naps */
	nap = drainer_nap_ns(&g16k, 10000, 0.3, second);
	check_uint(nap, >=, 30000000);
	check_uint(nap, <=, 31000000);
	nap = drainer_nap_ns(&g64k, 62000, 0.3, second);
	check_uint(nap, >=, 45000000);
	check_uint(nap, <=, 47000000);
	check_uint(drainer_nap_ns(&g64k, 200000, 0.3, second), ==, 0);
	/* past the backstop, or quiet: polled */
	check_uint(drainer_nap_ns(&g64k, 62000, 0.7, second), ==, 0);
	check_uint(drainer_nap_ns(&g64k, 500, 0.0, second), ==, 0);
	check_uint(drainer_nap_ns(&g64k, 0, 0.0, second), ==, 0);
}

/*
 * A read the buffer's POLLIN woke that found nothing: another read (the
 * main thread's, at the tick) took the sub-buffer first.  The drainer
 * must poll the buffer on, or the next sub-buffers wake nobody until the
 * next tick, a second later: at 4 x 4 KiB and 10k events/s a CPU that
 * lost 10 335 events in a bench run on 6.12 (ftrace: 6).  Only a POLLIN
 * that stays up with nothing to read (overwrite mode, a read-only file)
 * leaves the buffer to the kicks.  The eventfd stands for the buffer
 * file: POLLIN up while its count is not 0.
 */
static void test_pollin_taken_keeps_polling(void)
{
	int efd = eventfd(0, EFD_NONBLOCK);
	uint64_t one = 1, v;

	check(efd >= 0);
	check(drainer_polls_on(efd, SUBBUF_PROGRESS));
	/* POLLIN down by now: taken by another read */
	check(drainer_polls_on(efd, 0));
	/* up, and the read found nothing: stuck up */
	check_int(write(efd, &one, sizeof(one)), ==, 8);
	check(!drainer_polls_on(efd, 0));
	check(drainer_polls_on(efd, SUBBUF_PROGRESS | SUBBUF_MORE));
	check_int(read(efd, &v, sizeof(v)), ==, 8);
	check(drainer_polls_on(efd, 0));
	close(efd);
}

int main(void)
{
	TEST(test_handback_without_main_loop(), "the producer gets its sub-buffers back while the main loop does not run; then every record, once, in order");
	TEST(test_quiet_buffer_stays_polled(), "a tick's read of a quiet buffer: the drainer polls it on and reads it at its next POLLIN");
	TEST(test_nap_at_small_geometries(), "a drainer naps only where the room left after the nap outlasts a busy CPU's wait to run; small buffers are polled");
	TEST(test_pollin_taken_keeps_polling(), "a POLLIN read that another read got to first: the drainer polls the buffer on; a POLLIN stuck up leaves it to the kicks");
	TEST(test_handback_each_subbuf(), "a drainer hands each sub-buffer back as soon as it read it, not all at the end of its read");
	TEST(test_tick_leaves_reads_to_drainers(), "the tick kicks the drainers and replays what they read: it reads no buffer under a drainer's lock");
	TEST(test_tick_stops_drainers_for_new_buffers_only(), "the tick holds every drainer's lock only when a buffer is new (a CPU came online), not to look for one");
	TEST(test_threads_for_small_buffers(), "by default, drainers for buffers of 64 KiB a CPU or less of the kernel's; one reader otherwise");
	TEST(test_full_queue_drops_counted(), "a full queue stops the drainer: the producer drops, every drop counted at its place");
	TEST(test_race_checks_clean(), "producer, resets, drainers and the main loop's reads racing: the recording checks clean, records + drops == events");
	TEST(test_gone_with_records_queued(), "the channel goes while drainers hold records: they are recorded before it is gone, in place");
	TEST(test_buffers_removed_under_drainer(), "buffers removed under a drainer (SIGBUS in its thread): announced gone, picked up again");
	return test_done();
}
