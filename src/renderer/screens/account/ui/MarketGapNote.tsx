import { Alert, List } from '@mantine/core';

/**
 * The groups of a sell or list dialog whose price is far from the market price, said above the send
 * button (yellow, not blocking): one line each, naming the group and the item.
 */
export function MarketGapNote({ gaps }: { gaps: readonly { group: string; words: string }[] }) {
  if (gaps.length === 0) return null;
  return (
    <Alert color="yellow" variant="light" p="xs" title="Check these prices" data-testid="market-gap">
      <List size="xs" spacing={2}>
        {gaps.map((gap) => (
          <List.Item key={gap.group}>
            {gap.group}: {gap.words}.
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
