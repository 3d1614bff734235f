import { Table } from '@mantine/core';
import type { LeanListing } from '../../../../shared/api/index.ts';
import { Money } from './Money.tsx';

/** One row per listing — id, name, copies, price — as the list and bulk-delist dialogs show them. */
export function ListingRows({
  listings,
}: {
  listings: readonly Pick<LeanListing, 'id' | 'market_hash_name' | 'amount' | 'price'>[];
}) {
  return (
    <Table.Tbody>
      {listings.map((l) => (
        <Table.Tr key={l.id}>
          <Table.Td className="sd-num">#{l.id}</Table.Td>
          <Table.Td>{l.market_hash_name}</Table.Td>
          <Table.Td ta="right" className="sd-num">
            {l.amount} ×
          </Table.Td>
          <Table.Td ta="right">
            <Money cents={l.price} size="xs" />
          </Table.Td>
        </Table.Tr>
      ))}
    </Table.Tbody>
  );
}
