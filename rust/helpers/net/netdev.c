// SPDX-License-Identifier: GPL-2.0

#include <linux/etherdevice.h>
#include <linux/irq.h>
#include <linux/netdevice.h>

__rust_helper const struct cpumask *rust_helper_get_cpu_mask(unsigned int cpu)
{
	return get_cpu_mask(cpu);
}

__rust_helper int rust_helper_dev_to_node(struct device *dev)
{
	return dev_to_node(dev);
}

__rust_helper bool rust_helper_irqd_affinity_is_managed(struct irq_data *d)
{
	return irqd_affinity_is_managed(d);
}

__rust_helper void *rust_helper_netdev_priv(const struct net_device *dev)
{
	return netdev_priv(dev);
}

__rust_helper bool rust_helper_netif_running(const struct net_device *dev)
{
	return netif_running(dev);
}

__rust_helper bool rust_helper_netif_carrier_ok(const struct net_device *dev)
{
	return netif_carrier_ok(dev);
}

__rust_helper struct netdev_queue *
rust_helper_netdev_get_tx_queue(const struct net_device *dev, unsigned int index)
{
	return netdev_get_tx_queue(dev, index);
}

__rust_helper void rust_helper_netif_tx_start_queue(struct netdev_queue *q)
{
	netif_tx_start_queue(q);
}

__rust_helper void rust_helper_netif_tx_stop_queue(struct netdev_queue *q)
{
	netif_tx_stop_queue(q);
}

__rust_helper bool rust_helper_netif_tx_queue_stopped(const struct netdev_queue *q)
{
	return netif_tx_queue_stopped(q);
}

__rust_helper void rust_helper_netif_tx_start_all_queues(struct net_device *dev)
{
	netif_tx_start_all_queues(dev);
}

__rust_helper void rust_helper_netif_tx_disable(struct net_device *dev)
{
	netif_tx_disable(dev);
}

__rust_helper void rust_helper_netdev_tx_sent_queue(struct netdev_queue *q,
						    unsigned int bytes)
{
	netdev_tx_sent_queue(q, bytes);
}

__rust_helper void rust_helper_netdev_tx_completed_queue(struct netdev_queue *q,
							 unsigned int pkts,
							 unsigned int bytes)
{
	netdev_tx_completed_queue(q, pkts, bytes);
}

__rust_helper void rust_helper_netdev_tx_reset_queue(struct netdev_queue *q)
{
	netdev_tx_reset_queue(q);
}

__rust_helper bool rust_helper_netif_xmit_stopped(const struct netdev_queue *q)
{
	return netif_xmit_stopped(q);
}

__rust_helper bool rust_helper_netdev_xmit_more(void)
{
	return netdev_xmit_more();
}

__rust_helper void rust_helper_eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	eth_hw_addr_set(dev, addr);
}

__rust_helper bool rust_helper_is_valid_ether_addr(const u8 *addr)
{
	return is_valid_ether_addr(addr);
}

__rust_helper void rust_helper_netif_napi_add(struct net_device *dev,
					      struct napi_struct *napi,
					      int (*poll)(struct napi_struct *, int))
{
	netif_napi_add(dev, napi, poll);
}

__rust_helper void
rust_helper_netif_napi_add_config(struct net_device *dev,
				  struct napi_struct *napi,
				  int (*poll)(struct napi_struct *, int),
				  int index)
{
	netif_napi_add_config(dev, napi, poll, index);
}

__rust_helper void rust_helper_netif_napi_add_tx(struct net_device *dev,
						 struct napi_struct *napi,
						 int (*poll)(struct napi_struct *, int))
{
	netif_napi_add_tx(dev, napi, poll);
}

__rust_helper void rust_helper_netif_napi_set_irq(struct napi_struct *napi, int irq)
{
	netif_napi_set_irq(napi, irq);
}

__rust_helper void rust_helper_netif_napi_del(struct napi_struct *napi)
{
	netif_napi_del(napi);
}

__rust_helper bool rust_helper_napi_schedule(struct napi_struct *napi)
{
	return napi_schedule(napi);
}

__rust_helper void rust_helper_netif_addr_lock_bh(struct net_device *dev)
{
	netif_addr_lock_bh(dev);
}

__rust_helper void rust_helper_netif_addr_unlock_bh(struct net_device *dev)
{
	netif_addr_unlock_bh(dev);
}

__rust_helper gro_result_t rust_helper_napi_gro_receive(struct napi_struct *napi,
							struct sk_buff *skb)
{
	return napi_gro_receive(napi, skb);
}

__rust_helper unsigned int rust_helper_num_online_cpus(void)
{
	return num_online_cpus();
}

__rust_helper bool rust_helper_irqs_disabled(void)
{
	return irqs_disabled();
}

__rust_helper void rust_helper_netif_tx_wake_all_queues(struct net_device *dev)
{
	netif_tx_wake_all_queues(dev);
}

__rust_helper bool rust_helper_netif_device_present(const struct net_device *dev)
{
	return netif_device_present(dev);
}

__rust_helper bool rust_helper_netif_is_rxfh_configured(const struct net_device *dev)
{
	return netif_is_rxfh_configured(dev);
}

__rust_helper void rust_helper___netif_tx_lock(struct netdev_queue *txq, int cpu)
{
	__netif_tx_lock(txq, cpu);
}

__rust_helper bool rust_helper___netif_tx_trylock(struct netdev_queue *txq)
{
	return __netif_tx_trylock(txq);
}

__rust_helper void rust_helper___netif_tx_lock_bh(struct netdev_queue *txq)
{
	__netif_tx_lock_bh(txq);
}

__rust_helper void rust_helper___netif_tx_unlock(struct netdev_queue *txq)
{
	__netif_tx_unlock(txq);
}

__rust_helper void rust_helper___netif_tx_unlock_bh(struct netdev_queue *txq)
{
	__netif_tx_unlock_bh(txq);
}

__rust_helper bool rust_helper_netif_tx_owned(struct netdev_queue *txq, unsigned int cpu)
{
	return netif_tx_owned(txq, cpu);
}

__rust_helper void rust_helper_txq_trans_cond_update(struct netdev_queue *txq)
{
	txq_trans_cond_update(txq);
}

__rust_helper bool rust_helper_device_can_wakeup(struct device *dev)
{
	return device_can_wakeup(dev);
}

__rust_helper bool rust_helper_device_may_wakeup(struct device *dev)
{
	return device_may_wakeup(dev);
}
