// SPDX-License-Identifier: GPL-2.0
/*
 * stub_check.c - pins the sysfs relay stubs of a kernel without sysfs
 *
 * With CONFIG_RELAY=y and CONFIG_SYSFS=n (or without CONFIG_RELAY),
 * sysfs_create_relay_file() is an inline stub.  It must fail, so that a
 * caller does not go on to relay_write() to a channel that does not
 * exist: it returns ERR_PTR(-ENODEV), and sysfs_relay_chan() of anything
 * is NULL.  The stub's result is a constant the compiler sees, so this
 * module does not build unless the stub returns that error: a stub that
 * returned a handle (or NULL) stops the build at the BUILD_BUG_ON().
 * Build it as docs/kernel-api.md shows; it is never loaded.
 */
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/module.h>
#include <linux/relay.h>
#include <linux/sysfs.h>

#if defined(CONFIG_SYSFS) && defined(CONFIG_RELAY)
#error "stub_check is for a kernel without CONFIG_SYSFS or CONFIG_RELAY"
#endif

static const struct relay_attribute stub_check_attr =
	__ATTR_RELAY(cpu, 0400, NULL);

static int __init stub_check_init(void)
{
	struct sysfs_relay *sr = sysfs_create_relay_file(NULL, &stub_check_attr,
							 4096, 4, NULL);

	BUILD_BUG_ON(!__builtin_constant_p(PTR_ERR(sr)) || PTR_ERR(sr) != -ENODEV);
	if (!IS_ERR(sr))
		relay_write(sysfs_relay_chan(sr), "x", 1);
	sysfs_remove_relay_file(sr);
	return PTR_ERR(sr);
}
module_init(stub_check_init);

MODULE_DESCRIPTION("Build-time check of the sysfs relay stubs without sysfs");
MODULE_LICENSE("GPL");
