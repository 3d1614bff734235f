import { Table, Text } from '@mantine/core';

/** An item's name, with a dimmed line under it saying which row it is (its id, a commodity stack...). */
export function ItemNameCell({ name, detail }: { name: string; detail: string }) {
  return (
    <Table.Td>
      <Text size="xs" fw={500}>
        {name}
      </Text>
      <Text size="10px" c="dimmed" className="sd-num">
        {detail}
      </Text>
    </Table.Td>
  );
}
