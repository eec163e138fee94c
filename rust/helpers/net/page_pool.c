// SPDX-License-Identifier: GPL-2.0

#include <linux/mm.h>
#include <net/page_pool/helpers.h>

#ifdef CONFIG_PAGE_POOL

__rust_helper struct page *rust_helper_page_pool_dev_alloc_pages(struct page_pool *pool)
{
	return page_pool_dev_alloc_pages(pool);
}

__rust_helper void rust_helper_page_pool_fragment_page(struct page *page, long nr)
{
	page_pool_fragment_page(page, nr);
}

__rust_helper dma_addr_t rust_helper_page_pool_get_dma_addr(const struct page *page)
{
	return page_pool_get_dma_addr(page);
}

__rust_helper void rust_helper_page_pool_dma_sync_for_cpu(const struct page_pool *pool,
							  const struct page *page,
							  u32 offset, u32 len)
{
	page_pool_dma_sync_for_cpu(pool, page, offset, len);
}

__rust_helper void rust_helper_page_pool_put_page(struct page_pool *pool,
						  struct page *page,
						  unsigned int dma_sync_size,
						  bool allow_direct)
{
	page_pool_put_page(pool, page, dma_sync_size, allow_direct);
}

__rust_helper struct page_pool *rust_helper_page_pool_of(const struct page *page)
{
	return page->pp;
}

__rust_helper void *rust_helper_page_pool_page_address(const struct page *page)
{
	return page_address(page);
}

__rust_helper void rust_helper_page_pool_get(struct page_pool *pool)
{
	page_pool_get(pool);
}

__rust_helper int rust_helper_page_pool_page_ref_count(const struct page *page)
{
	return page_ref_count(page);
}

__rust_helper bool rust_helper_page_pool_page_is_pfmemalloc(const struct page *page)
{
	return page_is_pfmemalloc(page);
}

#endif /* CONFIG_PAGE_POOL */
