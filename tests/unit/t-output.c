// SPDX-License-Identifier: GPL-2.0
/*
 * t-output.c - pins what relaytop does when its output cannot be written,
 * running the real binary ($RELAYTOP, set by make check) on a fake
 * channel (fake-channel.c) with a producer writing into it:
 * - `relaytop --record /dev/full` stops at the first failed write of the
 *   recording: it exits 1 within a couple of intervals (not at -t),
 *   naming the file and "No space left on device";
 * - `relaytop -b | head -1` ends: with SIGPIPE ignored (inherited, as
 *   some shells and supervisors leave it) the write fails with EPIPE and
 *   relaytop exits 1 saying so; with SIGPIPE as usual the signal ends it.
 * Before, both ran on until -t or a signal, writing nothing.
 * - `relaytop -b --record FILE | less` with nobody reading: a SIGTERM
 *   that comes while relaytop is blocked writing standard output still
 *   ends it within an interval, exit 0, with the recording complete
 *   (relaytop --check passes).  Signals blocked outside the loop's wait
 *   left it asleep in the write, and the recording unfinished.
 * And that a garbage header (a seq 2^40 laps ahead) is not believed with
 * hand-back on (relaytop's live mode in a child, hand-back to a fake
 * kernel): every event read or counted lost, and SIGTERM ends it (before
 * the seq bound, it set out to write ~2^40 hand-backs and a SIGTERM
 * waited for them).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fake-channel.h"
#include "loop.h"
#include "record_reader.h"
#include "test-lib.h"
#include "test-util.h"
#include "top.h"
#include "util.h"

static const char *relaytop;
static struct fake_channel fc;

/*
 * Keep the fake producer writing while relaytop runs, on a channel of its
 * own: each producer is a fork of this process, whose fake relays never
 * moved, so on the last test's channel it would start again at seq 0 and
 * event 0 in the same generation, over the headers and records the last
 * producer left at seq 7 or 70.  No kernel does that (a restart is a new
 * generation); relaytop, starting meanwhile, read the old sub-buffers and
 * then the new ones as one sequence, and its recording failed --check
 * ("event 0 after event 99") whenever it started before the new producer
 * had overwritten them all.
 */
static pid_t start_producer(void)
{
	pid_t p;

	fake_channel_destroy(&fc);
	if (!check(fake_channel_create(&fc, 2, 4096, 4, true)))
		return -1;
	p = fork();

	if (p == 0) {
		for (;;) {
			/* the buffers only: rewriting the control files
			 * would race with relaytop reading them */
			for (unsigned int c = 0; c < fc.ncpus; c++)
				fake_relay_events(&fc.relay[c], 50);
			usleep(20000);
		}
	}
	return p;
}

static void stop(pid_t p)
{
	if (p <= 0)
		return;
	kill(p, SIGKILL);
	waitpid(p, NULL, 0);
}

/*
 * Wait for child p at most secs seconds; returns its wait status, or -1
 * (and kills it) when it is still running then.
 */
static int wait_at_most(pid_t p, double secs)
{
	uint64_t end = mono_ns() + (uint64_t)(secs * 1e9);
	int st;

	while (mono_ns() < end) {
		if (waitpid(p, &st, WNOHANG) == p)
			return st;
		usleep(10000);
	}
	stop(p);
	return -1;
}

static char err_text[4096];

static void read_err(int fd)
{
	ssize_t n = pread(fd, err_text, sizeof(err_text) - 1, 0);

	err_text[n > 0 ? n : 0] = '\0';
}

static void test_record_to_full_disk(void)
{
	char errf[] = "/tmp/t-output-err.XXXXXX";
	int efd = mkstemp(errf), st;
	uint64_t t0 = mono_ns();
	pid_t prod, p;

	prod = start_producer();
	p = fork();
	if (p == 0) {
		dup2(efd, STDERR_FILENO);
		dup2(efd, STDOUT_FILENO);
		execl(relaytop, relaytop, "-c", fc.dir, "--record", "/dev/full",
		      "--no-ui", "-d", "0.2", "-t", "30", (char *)NULL);
		_exit(127);
	}
	st = wait_at_most(p, 10);
	stop(prod);
	read_err(efd);
	check_int(st, !=, -1);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	check_uint(mono_ns() - t0, <, 10 * 1000000000ull);
	check(strstr(err_text, "/dev/full: No space left on device") != NULL);
	if (test_failed())
		test_msg("exit status %#x, stderr:\n%s", st, err_text);
	close(efd);
	unlink(errf);
}

/* relaytop -b | head -1, with SIGPIPE ignored or not. */
static void batch_into_closed_pipe(bool ignore_sigpipe)
{
	char errf[] = "/tmp/t-output-err.XXXXXX";
	int efd = mkstemp(errf), pfd[2], st;
	char line[256];
	FILE *in;
	pid_t prod, p;

	prod = start_producer();	/* first: it must not hold the pipe */
	if (pipe(pfd)) {
		stop(prod);
		return;
	}
	p = fork();
	if (p == 0) {
		if (ignore_sigpipe)
			signal(SIGPIPE, SIG_IGN);	/* kept across exec */
		else
			signal(SIGPIPE, SIG_DFL);
		close(pfd[0]);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(efd, STDERR_FILENO);
		execl(relaytop, relaytop, "-c", fc.dir, "-b", "-d", "0.1",
		      (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	in = fdopen(pfd[0], "r");
	check(fgets(line, sizeof(line), in) != NULL);	/* head -1 */
	fclose(in);
	st = wait_at_most(p, 10);
	stop(prod);
	read_err(efd);
	check_int(st, !=, -1);
	if (ignore_sigpipe) {
		check(WIFEXITED(st) && WEXITSTATUS(st) == 1);
		check(strstr(err_text, "standard output: Broken pipe") != NULL);
	} else {
		check(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE);
	}
	if (test_failed())
		test_msg("exit status %#x, stderr:\n%s", st, err_text);
	close(efd);
	unlink(errf);
}

/*
 * A garbage header (a seq 2^40 laps ahead, on the finished sub-buffer the
 * reader reads next), hand-back on: relaytop's live mode runs in a child on a fake
 * channel whose state (fake-channel.h) is shared with a producer process
 * and whose hand-back is the fake kernel's, which takes the number of the
 * first sub-buffer not done with when it is finished and not consumed (as
 * relay does).  Where the reader is comes from relay's meta area, not from
 * headers: the garbage one is passed over and counted (bad_headers), every
 * event the producer wrote is read or counted lost, exactly (overwrite
 * mode), sub-buffers do go back, and a SIGTERM ends it within 3 s, status
 * 0.  The reader of seq-guessing days, without its seq bound, took the
 * header for the producer's: it counted 277076930202828 events lost of
 * 3668 written (and set out to hand 2^42 sub-buffers back).  A reader that
 * took a finished sub-buffer's header without checking it is its own
 * counts no bad header, and this test fails.
 */
struct handback_rig {
	struct fake_channel fc;		/* shared with the producer */
	volatile uint64_t reads;	/* the child's reads so far */
	volatile uint64_t given;	/* sub-buffers the fake kernel took */
	volatile uint64_t records, lost, bad_headers;	/* the child's reader's */
};

static struct handback_rig *hb;

static int counting_give(void *cc, uint64_t until)
{
	int err = fake_channel_give_back(cc, until);

	if (!err)
		hb->given = until;
	return err;
}

/* After each read: what the reader says, for the parent to see. */
static void publish(void *ctx)
{
	const struct top *t = ctx;
	const struct subbuf_reader *r;

	if (!t->live.have_ch)
		return;
	r = &t->live.ch.cpus[0].reader;
	hb->records = r->records;
	hb->lost = r->lost;
	hb->bad_headers = r->bad_headers;
	hb->reads++;
}

static void handback_child(void)
{
	struct options o = { .channel = hb->fc.dir, .interval = 0.2 };
	static struct top t;
	struct feed_sink s = { .commit = publish, .ctx = &t };

	loop_install_signals();
	fake_channel_set_current(&hb->fc);
	top_start(&t, &o, OUT_NONE);
	t.live.give_back = counting_give;
	feed_add(&t.feed, &s);
	loop_run(&t.loop);
	top_finish(&t);
	publish(&t);
	top_free(&t);
	_exit(0);
}

/* Wait at most 20 s for *v to reach at least want. */
static bool reaches(volatile uint64_t *v, uint64_t want)
{
	uint64_t end = mono_ns() + 20 * 1000000000ull;

	while (*v < want && mono_ns() < end)
		usleep(1000);
	return *v >= want;
}

static void test_garbage_header_handback(void)
{
	struct sched_relay_header *h;
	uint64_t reads;
	pid_t prod, p;
	int st;

	hb = mmap(NULL, sizeof(*hb), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!check(hb != MAP_FAILED) ||
	    !check(fake_channel_create(&hb->fc, 1, 4096, 4, true)))
		return;
	/* sub-buffers 0 and 1 finished, 2 being filled */
	fake_relay_events(&hb->fc.relay[0], 2 * 63 + 5);
	h = (void *)(hb->fc.map[0] + 4096);
	h->seq += (uint64_t)4 << 40;		/* index 1, 2^40 laps on */
	p = fork();
	if (p == 0)
		handback_child();
	/* it has read past sub-buffer 0, up to the garbage, a few times */
	reads = 5;
	check(reaches(&hb->reads, reads));
	prod = fork();
	if (prod == 0) {
		for (;;) {
			fake_relay_events(&hb->fc.relay[0], 40);
			usleep(2000);
		}
	}
	/* the producer laps the buffer; sub-buffers go back */
	check(reaches(&hb->given, 20));
	stop(prod);
	kill(p, SIGTERM);
	st = wait_at_most(p, 3);
	check_int(st, !=, -1);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	check_uint(hb->bad_headers, >, 0);
	check_uint(hb->records + hb->lost, ==, hb->fc.relay[0].events);
	check_uint(hb->lost, <, hb->fc.relay[0].events);
	if (test_failed())
		test_msg("records %" PRIu64 ", lost %" PRIu64 ", events %"
			 PRIu64 ", handed back %" PRIu64, hb->records, hb->lost,
			 hb->fc.relay[0].events, hb->given);
	fake_channel_destroy(&hb->fc);
	munmap(hb, sizeof(*hb));
}

/* Process p sleeps in a write to a pipe. */
static bool in_pipe_write(pid_t p)
{
	return sleeps_in(p, "pipe_write");
}

/*
 * -b --record FILE into a pipe that nobody reads: once the pipe is full
 * relaytop sleeps in a write to standard output; SIGTERM must still end
 * it, as a stop (exit 0), with a complete recording.
 */
static void test_sigterm_blocked_output(void)
{
	char errf[] = "/tmp/t-output-err.XXXXXX", rec[] = "/tmp/t-output-rec.XXXXXX";
	int efd = mkstemp(errf), rfd = mkstemp(rec), pfd[2], st, queued = 0;
	uint64_t end;
	char cmd[256];
	pid_t prod, p;

	prod = start_producer();
	if (!check_int(pipe(pfd), ==, 0)) {
		stop(prod);
		return;
	}
	p = fork();
	if (p == 0) {
		close(pfd[0]);
		dup2(pfd[1], STDOUT_FILENO);
		dup2(efd, STDERR_FILENO);
		execl(relaytop, relaytop, "-c", fc.dir, "-b", "-d", "0.01",
		      "--record", rec, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	/* ready: relaytop sleeps writing into the full pipe (how many
	 * bytes make it full depends on how the writes filled its pages) */
	end = mono_ns() + 20 * 1000000000ull;
	while (mono_ns() < end && !in_pipe_write(p))
		usleep(10000);
	check(in_pipe_write(p));
	check_int(ioctl(pfd[0], FIONREAD, &queued), ==, 0);
	check_int(queued, >, 32768);
	kill(p, SIGTERM);
	st = wait_at_most(p, 5);
	stop(prod);
	close(pfd[0]);
	read_err(efd);
	check_int(st, !=, -1);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	snprintf(cmd, sizeof(cmd), "%s --check %s > /dev/null 2>&1", relaytop, rec);
	check_int(system(cmd), ==, 0);
	if (test_failed())
		test_msg("exit status %#x, stderr:\n%s", st, err_text);
	close(efd);
	close(rfd);
	unlink(errf);
	unlink(rec);
}

/*
 * --record into a FIFO whose reader takes nothing: relaytop sleeps in a
 * write to it, and SIGTERM must end it within a refresh interval (0.5 s
 * here; 3 s allowed for a loaded machine): exit 1, saying the recording
 * was cut short, and what the FIFO holds reads as a recording up to its
 * last whole block.  Before, the recording's writes ran with the stop
 * signals blocked: relaytop was still asleep in the write at the bound.
 */
static void test_sigterm_stalled_fifo(void)
{
	char dir[] = "/tmp/t-output-fifo.XXXXXX", fifo[300], got[300];
	char errf[] = "/tmp/t-output-err.XXXXXX", buf[65536];
	int efd = mkstemp(errf), rfd, gfd, st;
	struct record_reader rd;
	uint64_t t0, end;
	ssize_t n;
	pid_t prod, p;

	if (!check(mkdtemp(dir) != NULL))
		return;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(got, sizeof(got), "%s/got.rec", dir);
	check_int(mkfifo(fifo, 0600), ==, 0);
	/* a reader that is there and takes nothing */
	rfd = open(fifo, O_RDONLY | O_NONBLOCK);
	prod = start_producer();
	p = fork();
	if (p == 0) {
		dup2(efd, STDERR_FILENO);
		dup2(efd, STDOUT_FILENO);
		execl(relaytop, relaytop, "-c", fc.dir, "--record", fifo,
		      "--no-ui", "-d", "0.5", (char *)NULL);
		_exit(127);
	}
	end = mono_ns() + 20 * 1000000000ull;
	while (mono_ns() < end && !in_pipe_write(p))
		usleep(10000);
	check(in_pipe_write(p));
	t0 = mono_ns();
	kill(p, SIGTERM);
	st = wait_at_most(p, 3);
	stop(prod);
	read_err(efd);
	if (!check_int(st, !=, -1))
		test_msg("still running 3 s after SIGTERM");
	check_uint(mono_ns() - t0, <, 3000000000ull);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	check(strstr(err_text, "without its end") != NULL);
	/* what the FIFO holds: a recording up to its last whole block */
	gfd = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	while ((n = read(rfd, buf, sizeof(buf))) > 0)
		check_int(write(gfd, buf, (size_t)n), ==, n);
	close(gfd);
	close(rfd);
	check_int(record_reader_open(&rd, got), ==, 0);
	check_uint(rd.records, >, 0);
	if (!check(strstr(rd.error, "truncated") != NULL))
		test_msg("%s", rd.error);
	record_reader_close(&rd);
	if (test_failed())
		test_msg("exit status %#x, stderr:\n%s", st, err_text);
	close(efd);
	unlink(errf);
	unlink(got);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	relaytop = getenv("RELAYTOP");
	signal(SIGPIPE, SIG_IGN);	/* ours: fgets' reader closes early */
	if (!relaytop || !fake_channel_create(&fc, 2, 4096, 4, true)) {
		TEST(check(false), "RELAYTOP is set (make check) and a fake channel made");
		return test_done();
	}
	TEST(test_record_to_full_disk(), "--record /dev/full stops at the first failed write, exit 1");
	TEST(batch_into_closed_pipe(true), "-b | head -1 ends on EPIPE (SIGPIPE ignored), exit 1");
	TEST(batch_into_closed_pipe(false), "-b | head -1 ends by SIGPIPE otherwise");
	TEST(test_sigterm_blocked_output(), "SIGTERM ends -b --record blocked on a full pipe: exit 0, recording complete");
	TEST(test_sigterm_stalled_fifo(), "SIGTERM ends --record into a stalled FIFO within an interval; the file reads up to its last block");
	TEST(test_garbage_header_handback(), "a garbage seq is not believed with hand-back on: every event read or counted lost; SIGTERM ends it");
	fake_channel_destroy(&fc);
	return test_done();
}
