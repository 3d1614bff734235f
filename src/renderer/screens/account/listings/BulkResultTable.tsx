import { Badge, Table, Text } from '@mantine/core';
import type { BulkRow } from '../../../../shared/ipc/calls-account.ts';
import { plural } from '../ui/format.ts';

/** One row per listing sent, in the order sent: each was applied on its own, so some may fail alone. */
export function BulkResultTable({ results, names }: { results: readonly BulkRow[]; names: ReadonlyMap<number, string> }) {
  const failed = results.filter((r) => !r.ok).length;
  return (
    <>
      <Text size="sm" data-testid="bulk-summary">
        {failed === 0 ? `All ${plural(results.length, 'listing')} done.` : `${results.length - failed} of ${results.length} done; ${plural(failed, 'row')} failed.`}
      </Text>
      <Table withTableBorder verticalSpacing={3} fz="xs" data-testid="bulk-results">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Listing</Table.Th>
            <Table.Th>Item</Table.Th>
            <Table.Th>Result</Table.Th>
            <Table.Th>Why</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {results.map((r) => (
            <Table.Tr key={r.listingId} data-testid="bulk-result-row" data-ok={r.ok} data-listing-id={r.listingId}>
              <Table.Td className="sd-num">#{r.listingId}</Table.Td>
              <Table.Td>{names.get(r.listingId) ?? ''}</Table.Td>
              <Table.Td>
                {r.ok ? (
                  <Badge color="teal" variant="light">
                    done
                  </Badge>
                ) : (
                  <Text size="xs" ff="monospace" fw={600} c="red.4" style={{ whiteSpace: 'nowrap' }}>
                    {r.error ?? 'failed'}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="xs" c={r.ok ? 'dimmed' : 'red.3'}>
                  {r.explanation ?? ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}
