import { Group, Pagination, Select, Text } from '@mantine/core';
import type { Metadata } from '../../../../shared/api/index.ts';
import { plural } from './format.ts';

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** Page links and the page size, from the route's metadata; `noun` names what is counted ("listing", not "row"). */
export function Pager({ metadata, page, onPage, limit, onLimit, noun }: { metadata: Metadata | undefined; page: number; onPage: (page: number) => void; limit: PageSize; onLimit: (limit: PageSize) => void; noun: string }) {
  const totalPages = Math.max(1, metadata?.total_pages ?? 1);
  return (
    <Group gap="sm" justify="flex-end" wrap="nowrap">
      <Text size="xs" c="dimmed" className="sd-num" data-testid="pager-count">
        {metadata ? plural(metadata.total_items, noun) : ''}
      </Text>
      <Select
        aria-label="Rows per page"
        w={70}
        data={PAGE_SIZES.map(String)}
        value={String(limit)}
        onChange={(v) => v && onLimit(Number(v) as PageSize)}
        allowDeselect={false}
      />
      <Pagination size="xs" total={totalPages} value={Math.min(page, totalPages)} onChange={onPage} withEdges siblings={1} />
    </Group>
  );
}
