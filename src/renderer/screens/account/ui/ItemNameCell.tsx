import { Group, Table, Text } from '@mantine/core';
import type { AppId } from '../../../../shared/api/index.ts';
import { ShowInBook } from './ShowInBook.tsx';

/**
 * An item's name, with a dimmed line under it saying which row it is (its id, a commodity stack...), and
 * with the game given, a button that shows the item in the book.
 */
export function ItemNameCell({ name, detail, appId }: { name: string; detail?: string; appId?: AppId }) {
  return (
    <Table.Td>
      <Group gap={4} wrap="nowrap">
        <Text size="xs" fw={500}>
          {name}
        </Text>
        {appId !== undefined && <ShowInBook appId={appId} name={name} />}
      </Group>
      {detail !== undefined && (
        <Text size="10px" c="dimmed" className="sd-num">
          {detail}
        </Text>
      )}
    </Table.Td>
  );
}
