# SPDX-License-Identifier: GPL-2.0
#
# relay-sysfs: relay channels as sysfs attributes, a scheduler-event
# producer and relaytop, built and tested in QEMU.
#
#   make run     boot the guest with relaytop live on the console
#   make test    host unit tests, then the guest test suite
#   make install relaytop and its man page on this machine (PREFIX,
#                DESTDIR)
#
# Everything is built under build/ (ignored by git).  `make help` lists the
# other targets.

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build

# The kernel: Debian's linux-source-$(KVER), with patches/$(KVER)/series.
# 6.1 is Debian 12's own kernel and the default; 6.12 is the series as it
# would go upstream.  Everything built for one kernel lives in
# build/kernel-$(KVER); the guest's programs do not depend on it.
KVER ?= 6.1
KVERS := 6.1 6.12
# Exactly one word, and one of KVERS: `filter` alone would take "6.1 6.12".
ifneq ($(words $(KVER))$(filter $(KVER),$(KVERS)),1$(strip $(KVER)))
$(error KVER='$(KVER)': give one of the kernels $(KVERS))
endif
export KVER
KBUILD := $(BUILD)/kernel-$(KVER)
KSRC := $(KBUILD)/linux
KOBJ := $(KBUILD)/obj
KCONFIG_FRAGMENT := $(TOP)/qemu/kernel.config
KCONFIG_DEBUG_FRAGMENT := $(TOP)/qemu/kernel-debug.config
KOBJ_DEBUG := $(KBUILD)/obj-debug
KCONFIG_KCSAN_FRAGMENT := $(TOP)/qemu/kernel-kcsan.config
KOBJ_KCSAN := $(KBUILD)/obj-kcsan
BZIMAGE := $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS := $(KBUILD)/initramfs.cpio.gz
INITRAMFS_DEBUG := $(KBUILD)/initramfs-debug.cpio.gz
INITRAMFS_KCSAN := $(KBUILD)/initramfs-kcsan.cpio.gz
# Kbuild in 6.1 builds an external module in its source directory, so the
# modules are built in copies of their sources, one per kernel build.
MODULES_COPY := $(KBUILD)/modules
DEBUG_MODULES := $(KBUILD)/debug-modules
KCSAN_MODULES := $(KBUILD)/kcsan-modules
GUEST := $(BUILD)/guest
JOBS ?= $(shell nproc)

# The kernel is built with ccache when it is there: looked for when a
# recipe uses KCC, after `deps` ran (on a fresh machine it installs ccache
# during the first make, and a CC settled before that made the next make
# rebuild the whole kernel with the new CC).
CCACHE = $(shell command -v ccache 2>/dev/null)
KCC ?= $(if $(CCACHE),ccache gcc,gcc)
KMAKE = $(MAKE) -C $(KSRC) O=$(KOBJ) CC="$(KCC)" -j$(JOBS)
# Modules are built against the kernel's output directory.
MMAKE = $(MAKE) -C $(KOBJ) CC="$(KCC)"
MMAKE_DEBUG = $(MAKE) -C $(KOBJ_DEBUG) CC="$(KCC)"
MMAKE_KCSAN = $(MAKE) -C $(KOBJ_KCSAN) CC="$(KCC)"

CC ?= gcc
GUEST_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -static \
	-I$(TOP)/tests/lib -I$(TOP)/include/uapi

# The test and bench modules, built out of tree against the kernel.  The
# scheduler-event module is the series' sample (samples/relay, built with
# the kernel from tracepoints-demo/sched_relay.c, its one source).
MODULE_DIRS := tests/modules bench
GUEST_TEST_SRCS := $(wildcard tests/guest/*.c)
GUEST_TESTS := $(patsubst tests/guest/%.c,$(GUEST)/tests/%,$(GUEST_TEST_SRCS))

# make install: relaytop built for this machine, and its man page.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
INSTALL ?= install

.PHONY: all help deps kernel kernel-debug kernel-kcsan kernel-tree modules \
	modules-debug modules-kcsan guest-programs initramfs initramfs-debug \
	initramfs-kcsan run bench-host install uninstall test test-hog \
	test-kernel test-6.12 test-kcsan unit-tests guest-tests check-patches \
	check-i386 check-steps clean distclean

all: kernel modules initramfs

help:
	@echo "make run           boot QEMU with relaytop live on the console"
	@echo "make test          host unit tests, then the guest tests; ends 'N passed, N failed'"
	@echo "make test-hog      make test beside a busy loop on every host core (TEST_HOG=1)"
	@echo "make test-kernel   build, then only the kernel-side guest suites (TEST_DEBUG_KERNEL=1:"
	@echo "                   and on the debug kernel); make test-6.12: those on 6.12, not in CI"
	@echo "make test-kcsan    the kernel-side guest suites on a KCSAN kernel, failing on a data"
	@echo "                   race in relay, sysfs relay or sched_relay (not in CI)"
	@echo "make deps          install the Debian packages the project needs (idempotent)"
	@echo "make kernel        unpack linux-source-\$$KVER into build/kernel-\$$KVER/linux, apply"
	@echo "                   patches/\$$KVER/series (one commit per patch), configure, and build"
	@echo "                   build/kernel-\$$KVER/obj/arch/x86/boot/bzImage"
	@echo "make kernel-debug  the same with qemu/kernel-debug.config (KASAN, lockdep, ...)"
	@echo "                   in build/kernel-\$$KVER/obj-debug"
	@echo "make kernel-kcsan  the same with qemu/kernel-kcsan.config in build/kernel-\$$KVER/obj-kcsan"
	@echo "make modules       build tests/modules/ and bench/ against the"
	@echo "                   kernel, in build/kernel-\$$KVER/modules"
	@echo "make initramfs     build build/kernel-\$$KVER/initramfs.cpio.gz (busybox, the"
	@echo "                   programs of build/guest, the modules)"
	@echo "make initramfs-debug  the same with the modules built for the debug kernel:"
	@echo "                   build/kernel-\$$KVER/initramfs-debug.cpio.gz"
	@echo "make bench         one guest boot: write path, context-switch storm and reader cost"
	@echo "                   against ftrace; table and build/bench/results.json"
	@echo "make bench-host    relaytop's drain path on a fake channel: CPU ns per event (host)"
	@echo "make check-patches checkpatch.pl --strict on every patch of patches/\$$KVER/series"
	@echo "make check-i386    build the series' C files for 32-bit x86 with W=1 and sparse"
	@echo "make check-steps   build the series at every step: each patch's C files and its"
	@echo "                   headers' in-tree users, W=1 and sparse, no new warning"
	@echo "make install       relaytop for this machine into \$$PREFIX/bin (default /usr/local),"
	@echo "                   its man page into \$$PREFIX/share/man/man1; DESTDIR=D stages it"
	@echo "                   under D (make uninstall removes them)"
	@echo "make clean         remove build output but keep the kernel trees; distclean: all"
	@echo "KVER=6.12          any of these against linux-source-6.12 (default KVER=6.1)"
deps:
	@scripts/install-deps

# --- the kernel ------------------------------------------------------------

kernel-tree: deps
	@scripts/prepare-tree $(KSRC) $(KVER) $(TOP)/patches/$(KVER)

# gen-config OBJDIR FRAGMENTS: tinyconfig with the fragments merged on top,
# regenerated only when a fragment or the tree's commit changed, and
# rewritten only when it differs (so Kbuild rebuilds nothing needlessly).
define gen-config
	@mkdir -p $(1)
	@set -e; inputs="$$(cat $(2) | sha1sum) $$(git -C $(KSRC) rev-parse HEAD)"; \
	[ -f $(1)/.config ] && [ "$$(cat $(1)/.config-inputs 2>/dev/null)" = "$$inputs" ] && exit 0; \
	tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; \
	$(MAKE) -s -C $(KSRC) O=$$tmp tinyconfig >/dev/null; \
	$(KSRC)/scripts/kconfig/merge_config.sh -m -O $$tmp $$tmp/.config \
		$(2) >$$tmp/merge.log 2>&1 || { cat $$tmp/merge.log; exit 1; }; \
	$(MAKE) -s -C $(KSRC) O=$$tmp olddefconfig >/dev/null 2>&1; \
	for o in $$(cat $(2) | grep -o '^CONFIG_[A-Z0-9_]*=[ym]'); do \
		grep -qx "$$o" $$tmp/.config || \
			{ echo "$(notdir $(2)): $$o did not stick (a dependency is missing)"; exit 1; }; \
	done; \
	cmp -s $$tmp/.config $(1)/.config || { cp $$tmp/.config $(1)/.config; echo "  CONFIG  $(1)/.config"; }; \
	echo "$$inputs" > $(1)/.config-inputs
endef

# build-kernel OBJDIR
define build-kernel
	@$(MAKE) -C $(KSRC) O=$(1) CC="$(KCC)" -j$(JOBS) -s bzImage modules
	@echo "  KERNEL  $(1)/arch/x86/boot/bzImage: Linux $$($(MAKE) -s -C $(KSRC) O=$(1) kernelversion)" \
		"from Debian $$(cat $(KSRC)/.git/series-summary)"
endef

kernel: kernel-tree
	$(call gen-config,$(KOBJ),$(KCONFIG_FRAGMENT))
	$(call build-kernel,$(KOBJ))

kernel-debug: kernel-tree
	$(call gen-config,$(KOBJ_DEBUG),$(KCONFIG_FRAGMENT) $(KCONFIG_DEBUG_FRAGMENT))
	$(call build-kernel,$(KOBJ_DEBUG))

kernel-kcsan: kernel-tree
	$(call gen-config,$(KOBJ_KCSAN),$(KCONFIG_FRAGMENT) $(KCONFIG_KCSAN_FRAGMENT))
	$(call build-kernel,$(KOBJ_KCSAN))

# The series' C files built for 32-bit x86 (i386 tinyconfig with SMP,
# relay, sysfs, debugfs and lockdep), W=1 and sparse: relay's counters take
# the u64_stats seqcount paths there that 64-bit compiles out.
I386_OBJ := $(KBUILD)/obj-i386
check-i386: kernel-tree
	@set -e; mkdir -p $(I386_OBJ); \
	$(MAKE) -s -C $(KSRC) O=$(I386_OBJ) ARCH=i386 tinyconfig >/dev/null; \
	$(KSRC)/scripts/config --file $(I386_OBJ)/.config -e SMP -e RELAY -e SYSFS \
		-e DEBUG_FS -e DEBUG_KERNEL -e PROVE_LOCKING -e MODULES -e PRINTK; \
	$(MAKE) -s -C $(KSRC) O=$(I386_OBJ) ARCH=i386 olddefconfig >/dev/null; \
	grep -q '^CONFIG_RELAY=y' $(I386_OBJ)/.config || { echo "check-i386: RELAY did not stick"; exit 1; }; \
	$(MAKE) -s -C $(KSRC) O=$(I386_OBJ) ARCH=i386 CC="$(KCC)" -j$(JOBS) W=1 C=1 \
		kernel/relay.o fs/sysfs/relay.o fs/kernfs/file.o 2>&1 | tee $(I386_OBJ)/check.log; \
	echo "  CHECK   i386 W=1 C=1: $$(grep -c -E 'warning|error' $(I386_OBJ)/check.log) warnings"; \
	! grep -q -E 'warning|error' $(I386_OBJ)/check.log

# Every step of the series builds (scripts/check-steps says how), in a
# worktree and an object directory of its own.
check-steps: kernel-tree
	@scripts/check-steps $(KSRC) $(KBUILD)/obj-steps

# checkpatch --strict on every patch, in the tree the series applies to
# (scripts/check-patches says how the commit ids that tree's history
# cannot know are checked: against patches/upstream-commits).
check-patches: kernel-tree
	@scripts/check-patches $(KSRC) $(TOP)/patches/$(KVER)

# --- what runs in the guest --------------------------------------------------

# build-modules MAKE COPY: copy each module directory's sources to COPY
# with their times (so only what changed is rebuilt) and build it there.
define build-modules
	@set -e; mkdir -p $(2)/include/uapi; \
	cp -p include/uapi/*.h $(2)/include/uapi/; \
	for d in $(MODULE_DIRS); do \
		[ -f $$d/Kbuild ] || continue; \
		mkdir -p $(2)/$$d; \
		cp -p $$d/Kbuild $$(ls $$d/*.[ch]) $(2)/$$d/; \
		$(1) -s M=$(2)/$$d modules; \
	done
endef

modules: kernel
	$(call build-modules,$(MMAKE),$(MODULES_COPY))

modules-debug: kernel-debug
	$(call build-modules,$(MMAKE_DEBUG),$(DEBUG_MODULES))

modules-kcsan: kernel-kcsan
	$(call build-modules,$(MMAKE_KCSAN),$(KCSAN_MODULES))

guest-programs: deps $(GUEST_TESTS)
	@mkdir -p $(GUEST)/bin
	@if [ -f relaytop/Makefile ]; then $(MAKE) -s -C relaytop OUT=$(GUEST)/bin STATIC=1; fi
	@if [ -f tracepoints-demo/Makefile ]; then \
		$(MAKE) -s -C tracepoints-demo loadgen OUT=$(GUEST)/bin STATIC=1; fi

guest-programs: $(GUEST)/bin/read_reader $(GUEST)/bin/cputime $(GUEST)/bin/ftrace_mmap_reader

# The bench's tools: a read()-based reader, a CPU-time meter, a reader of
# ftrace's mapped ring buffer.
$(GUEST)/bin/%: bench/%.c include/uapi/sched_relay.h
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

$(GUEST)/tests/%: tests/guest/%.c tests/lib/test-lib.c tests/lib/test-lib.h include/uapi/sched_relay.h \
		$(wildcard tests/guest/*.h tests/modules/*.h)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $< tests/lib/test-lib.c

initramfs: modules guest-programs
	@scripts/mkinitramfs $(INITRAMFS) $(GUEST) \
		$(addprefix $(MODULES_COPY)/,$(MODULE_DIRS)) $(KOBJ)/samples/relay

initramfs-debug: modules-debug guest-programs
	@scripts/mkinitramfs $(INITRAMFS_DEBUG) $(GUEST) \
		$(addprefix $(DEBUG_MODULES)/,$(MODULE_DIRS)) $(KOBJ_DEBUG)/samples/relay

initramfs-kcsan: modules-kcsan guest-programs
	@scripts/mkinitramfs $(INITRAMFS_KCSAN) $(GUEST) \
		$(addprefix $(KCSAN_MODULES)/,$(MODULE_DIRS)) $(KOBJ_KCSAN)/samples/relay

# --- running and testing ----------------------------------------------------

run: initramfs
	@qemu/run

bench: initramfs
	@bench/run

# The drain path's CPU time per event on the host (no guest, no kernel).
bench-host: deps
	@$(MAKE) -s -C relaytop bench-host

unit-tests: deps
	@if [ -f relaytop/Makefile ]; then $(MAKE) -s -C relaytop check; fi

guest-tests: initramfs
	@tests/run-guest

test: deps
	@tests/run-all

# the same beside a busy loop on every host core
test-hog: deps
	@TEST_HOG=1 tests/run-all

# The kernel-side guest suites only (TEST_SUITES in tests/run-all), on
# $(KVER); test-6.12 is the part of the suite that CI's make test leaves out
# (README: Tests).  TEST_DEBUG_KERNEL=1 adds their debug-kernel pass.
test-kernel: deps
	@TEST_SUITES=kernel tests/run-all

test-6.12:
	@$(MAKE) -s test-kernel KVER=6.12

# The kernel-side guest suites on a KCSAN kernel (qemu/kernel-kcsan.config):
# a data race report in relay, the sysfs relay files or sched_relay fails.
test-kcsan: deps
	@TEST_SUITES=kcsan tests/run-all

# relaytop for this machine (no make deps here: the build says what is
# missing), then the binary and the man page.
install:
	@$(MAKE) -s -C relaytop
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 0755 relaytop/relaytop $(DESTDIR)$(BINDIR)/relaytop
	$(INSTALL) -m 0644 relaytop/relaytop.1 $(DESTDIR)$(MANDIR)/man1/relaytop.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/relaytop $(DESTDIR)$(MANDIR)/man1/relaytop.1

clean:
	rm -rf $(GUEST) $(BUILD)/test-logs $(BUILD)/test-share $(BUILD)/bench \
		$(foreach k,$(KVERS),$(addprefix $(BUILD)/kernel-$(k)/,initramfs \
		initramfs.cpio.gz initramfs-debug initramfs-debug.cpio.gz \
		initramfs-kcsan initramfs-kcsan.cpio.gz modules debug-modules \
		kcsan-modules))
	@if [ -f relaytop/Makefile ]; then $(MAKE) -s -C relaytop clean; fi

distclean: clean
	rm -rf $(BUILD)
