// SPDX-License-Identifier: GPL-2.0
/*
 * pm_cycle: takes one PCI device through the system sleep callbacks of a
 * suspend to RAM and back, in the PM core's order, without suspending the
 * rest of the system. Test only.
 *
 * A whole-system cycle (pm_test "devices") cannot run in the test guest: its
 * root file system is 9p over virtio, whose driver has no freeze/restore, so
 * it is dead after resume. This runs prepare, suspend, suspend_late and,
 * with the device's interrupts disabled as the PM core does for the noirq
 * phases, suspend_noirq (the PCI core saves the state and puts the function
 * in D3hot); it waits, then runs resume_noirq, resume_early, resume and
 * complete. The device lock is held throughout, so the device cannot be
 * unbound in the middle. insmod fails with the errno of the first callback
 * that failed.
 *
 * Unlike a real suspend, tasks are not frozen, CPUs stay online and the
 * rest of the hierarchy (the root port) stays in D0.
 *
 *   insmod pm_cycle.ko dev=0000:00:03.0 [sleep_ms=100]; rmmod pm_cycle
 *
 * wake_capable=1 first marks the device able to wake the system, as a
 * platform whose NIC has PME support would (QEMU's 82576 has none, though
 * QEMU's ACPI tables may say it can), so that its driver offers
 * Wake-on-LAN; wake_capable=0 marks it unable; cycle=0 skips the cycle.
 * regs=OFFSET,... logs those 32-bit registers of BAR 0 after the driver's
 * suspend callbacks, before the device goes to D3hot (QEMU unmaps the BARs
 * of a function that is not in D0).
 */
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "PCI device to take through a suspend cycle");

static unsigned int sleep_ms = 100;
module_param(sleep_ms, uint, 0444);
MODULE_PARM_DESC(sleep_ms, "Time spent suspended, in ms (default 100)");

static int wake_capable = -1;
module_param(wake_capable, int, 0444);
MODULE_PARM_DESC(wake_capable, "Mark the device able (1) or unable (0) to wake the system first");

static unsigned int regs[8];
static int nregs;
module_param_array(regs, uint, &nregs, 0444);
MODULE_PARM_DESC(regs, "BAR 0 registers to log once the driver suspended the device");

static bool do_cycle = true;
module_param_named(cycle, do_cycle, bool, 0444);
MODULE_PARM_DESC(cycle, "Take the device through the cycle (default 1)");

static int run(struct device *d, const char *phase, int (*cb)(struct device *))
{
	int ret;

	if (!cb)
		return 0;
	ret = cb(d);
	if (ret < 0)
		dev_err(d, "pm_cycle: %s failed: %d\n", phase, ret);
	/* prepare returns 1 when the device could stay suspended: not an error */
	return ret < 0 ? ret : 0;
}

/* the registers asked for, as the driver's suspend callbacks left them */
static void log_regs(struct pci_dev *pdev)
{
	void __iomem *bar;
	int i;

	if (!nregs)
		return;
	bar = pci_iomap(pdev, 0, 0);
	if (!bar) {
		dev_err(&pdev->dev, "pm_cycle: cannot map BAR 0\n");
		return;
	}
	for (i = 0; i < nregs; i++)
		dev_info(&pdev->dev, "pm_cycle: suspended, register %#x = %#x\n",
			 regs[i], ioread32(bar + regs[i]));
	pci_iounmap(pdev, bar);
}

/* The first error wins; every resume step runs anyway. */
static void keep_first(int *ret, int err)
{
	if (!*ret)
		*ret = err;
}

/* disable (or enable again) every interrupt vector of the function */
static void device_irqs(struct pci_dev *pdev, bool off)
{
	int i, irq;

	for (i = 0; (irq = pci_irq_vector(pdev, i)) > 0; i++) {
		if (off)
			disable_irq(irq);
		else
			enable_irq(irq);
	}
}

static int cycle(struct device *d)
{
	const struct dev_pm_ops *pm = d->bus->pm;
	struct pci_dev *pdev = to_pci_dev(d);
	int ret;

	pm_runtime_get_noresume(d);
	pm_runtime_barrier(d);
	device_lock(d);
	if (!d->driver) {
		ret = -ENODEV;
		goto out_unlock;
	}
	ret = run(d, "prepare", pm->prepare);
	if (ret)
		goto out_unlock;
	/* What the PM core's suspend phase decides for a driver without flags */
	d->power.must_resume = true;
	ret = run(d, "suspend", pm->suspend);
	if (ret)
		goto out_complete;
	ret = run(d, "suspend_late", pm->suspend_late);
	if (ret)
		goto out_resume;
	log_regs(pdev);
	device_irqs(pdev, true);
	ret = run(d, "suspend_noirq", pm->suspend_noirq);
	if (ret)
		goto out_resume_early;
	dev_info(d, "pm_cycle: suspended (%s), resuming in %u ms\n",
		 pci_power_name(pdev->current_state), sleep_ms);
	msleep(sleep_ms);
	keep_first(&ret, run(d, "resume_noirq", pm->resume_noirq));
out_resume_early:
	device_irqs(pdev, false);
	keep_first(&ret, run(d, "resume_early", pm->resume_early));
out_resume:
	keep_first(&ret, run(d, "resume", pm->resume));
out_complete:
	if (pm->complete)
		pm->complete(d);
out_unlock:
	device_unlock(d);
	pm_runtime_put(d);
	return ret;
}

static int __init pm_cycle_init(void)
{
	struct device *d;
	int ret;

	if (!dev)
		return -EINVAL;
	d = bus_find_device_by_name(&pci_bus_type, NULL, dev);
	if (!d)
		return -ENODEV;
	ret = 0;
	if (wake_capable >= 0)
		device_set_wakeup_capable(d, wake_capable);
	if (do_cycle) {
		ret = cycle(d);
		if (!ret)
			dev_info(d, "pm_cycle: resumed\n");
	}
	put_device(d);
	return ret;
}

static void __exit pm_cycle_exit(void)
{
}

module_init(pm_cycle_init);
MODULE_DESCRIPTION("Test helper: one PCI device through a suspend/resume cycle");
module_exit(pm_cycle_exit);
MODULE_LICENSE("GPL");
