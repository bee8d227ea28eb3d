// SPDX-License-Identifier: GPL-2.0
/*
 * stub_check.c - pins the sysfs relay stubs of a kernel without sysfs
 *
 * With CONFIG_RELAY=y and CONFIG_SYSFS=n (or without CONFIG_RELAY),
 * sysfs_create_relay_file() is an inline stub.  It must fail, so that a
 * caller does not go on to relay_write() to attr->rchan, which stays
 * NULL.  The stub's result is a constant the compiler sees, so this
 * module does not build unless the stub returns an error: before the
 * fix it returned 0 and the BUILD_BUG_ON() below stopped the build.
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

static struct relay_attribute stub_check_attr =
	__ATTR_RELAY(cpu, 0400, 4096, 4, NULL);

static int __init stub_check_init(void)
{
	int ret = sysfs_create_relay_file(NULL, &stub_check_attr);

	BUILD_BUG_ON(ret != -ENODEV);
	if (!ret)
		relay_write(stub_check_attr.rchan, "x", 1);
	sysfs_remove_relay_file(NULL, &stub_check_attr);
	return ret;
}
module_init(stub_check_init);

MODULE_DESCRIPTION("Build-time check of the sysfs relay stubs without sysfs");
MODULE_LICENSE("GPL");
