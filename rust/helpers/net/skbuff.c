// SPDX-License-Identifier: GPL-2.0

#include <linux/dma-mapping.h>
#include <linux/if_vlan.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/checksum.h>

__rust_helper void rust_helper_skb_reserve(struct sk_buff *skb, int len)
{
	skb_reserve(skb, len);
}

__rust_helper unsigned int rust_helper_skb_tailroom(const struct sk_buff *skb)
{
	return skb_tailroom(skb);
}

__rust_helper u8 rust_helper_skb_nr_frags(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->nr_frags;
}

__rust_helper void rust_helper_skb_mark_for_recycle(struct sk_buff *skb)
{
	skb_mark_for_recycle(skb);
}

__rust_helper void rust_helper_skb_record_rx_queue(struct sk_buff *skb, u16 q)
{
	skb_record_rx_queue(skb, q);
}

__rust_helper u16 rust_helper_skb_get_queue_mapping(const struct sk_buff *skb)
{
	return skb_get_queue_mapping(skb);
}

__rust_helper int rust_helper_skb_put_padto(struct sk_buff *skb, unsigned int len)
{
	return skb_put_padto(skb, len);
}

__rust_helper void rust_helper_skb_set_hash(struct sk_buff *skb, __u32 hash,
					    enum pkt_hash_types type)
{
	skb_set_hash(skb, hash, type);
}

__rust_helper int rust_helper_skb_linearize(struct sk_buff *skb)
{
	return skb_linearize(skb);
}

__rust_helper void rust_helper_dev_kfree_skb_any(struct sk_buff *skb)
{
	dev_kfree_skb_any(skb);
}

__rust_helper void rust_helper_dev_consume_skb_any(struct sk_buff *skb)
{
	dev_consume_skb_any(skb);
}

__rust_helper void rust_helper_skb_add_rx_frag(struct sk_buff *skb, int i,
					       struct page *page, int off, int size,
					       unsigned int truesize)
{
	skb_add_rx_frag(skb, i, page, off, size, truesize);
}

__rust_helper bool rust_helper_skb_csum_is_sctp(struct sk_buff *skb)
{
	return skb_csum_is_sctp(skb);
}

__rust_helper unsigned int rust_helper_skb_frag_size_nth(const struct sk_buff *skb,
							 unsigned int i)
{
	return skb_frag_size(&skb_shinfo(skb)->frags[i]);
}

__rust_helper dma_addr_t rust_helper_skb_frag_dma_map_nth(struct device *dev,
							  const struct sk_buff *skb,
							  unsigned int i)
{
	const skb_frag_t *frag = &skb_shinfo(skb)->frags[i];

	return skb_frag_dma_map(dev, frag, 0, skb_frag_size(frag), DMA_TO_DEVICE);
}

__rust_helper bool rust_helper_skb_has_frag_list(const struct sk_buff *skb)
{
	return skb_has_frag_list(skb);
}

__rust_helper bool rust_helper_skb_is_gso(const struct sk_buff *skb)
{
	return skb_is_gso(skb);
}

__rust_helper unsigned int rust_helper_skb_gso_type(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_type;
}

__rust_helper unsigned short rust_helper_skb_gso_size(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_size;
}

__rust_helper unsigned short rust_helper_skb_gso_segs(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->gso_segs;
}

__rust_helper int rust_helper_skb_cow_head(struct sk_buff *skb, unsigned int headroom)
{
	return skb_cow_head(skb, headroom);
}

__rust_helper void rust_helper_csum_replace_by_diff(__sum16 *sum, __wsum diff)
{
	csum_replace_by_diff(sum, diff);
}

__rust_helper int rust_helper_skb_cloned(const struct sk_buff *skb)
{
	return skb_cloned(skb);
}

__rust_helper void *rust_helper_skb_put_data(struct sk_buff *skb, const void *data,
					     unsigned int len)
{
	return skb_put_data(skb, data, len);
}

__rust_helper netdev_features_t rust_helper_vlan_features_check(struct sk_buff *skb,
								netdev_features_t features)
{
	return vlan_features_check(skb, features);
}

__rust_helper void rust_helper_skb_tx_timestamp(struct sk_buff *skb)
{
	skb_tx_timestamp(skb);
}

__rust_helper bool rust_helper_skb_vlan_tag_present(const struct sk_buff *skb)
{
	return skb_vlan_tag_present(skb);
}

__rust_helper u16 rust_helper_skb_vlan_tag_get(const struct sk_buff *skb)
{
	return skb_vlan_tag_get(skb);
}

__rust_helper __be16 rust_helper_skb_vlan_proto(const struct sk_buff *skb)
{
	return skb->vlan_proto;
}

__rust_helper void rust_helper___vlan_hwaccel_put_tag(struct sk_buff *skb,
						      __be16 vlan_proto, u16 vlan_tci)
{
	__vlan_hwaccel_put_tag(skb, vlan_proto, vlan_tci);
}

__rust_helper u8 rust_helper_skb_tx_flags(const struct sk_buff *skb)
{
	return skb_shinfo(skb)->tx_flags;
}

__rust_helper void rust_helper_skb_tx_flags_add(struct sk_buff *skb, u8 flags)
{
	skb_shinfo(skb)->tx_flags |= flags;
}

__rust_helper struct sk_buff *rust_helper_skb_get(struct sk_buff *skb)
{
	return skb_get(skb);
}

__rust_helper void rust_helper_skb_set_hwtstamp(struct sk_buff *skb, ktime_t t)
{
	skb_hwtstamps(skb)->hwtstamp = t;
}

__rust_helper void rust_helper_netdev_hold(struct net_device *dev,
					   netdevice_tracker *tracker, gfp_t gfp)
{
	netdev_hold(dev, tracker, gfp);
}

__rust_helper void rust_helper_netdev_put(struct net_device *dev,
					  netdevice_tracker *tracker)
{
	netdev_put(dev, tracker);
}

__rust_helper struct net_device *rust_helper_skb_dev(const struct sk_buff *skb)
{
	return skb->dev;
}
