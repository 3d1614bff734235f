import { Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One column's header: its label and, for figures, right alignment. */
export interface Column {
  label: ReactNode;
  align?: 'right';
  width?: number;
}

/** One item (a game's market_hash_name) as a key: rows of the item tables, and joins between them. */
export const itemKey = (item: { app_id: number; market_hash_name: string }): string => `${item.app_id}:${item.market_hash_name}`;

/** The two columns an item row starts with: its game, and its name (with "show in book"). */
export const GAME_AND_ITEM: readonly Column[] = [{ label: 'Game', width: 56 }, { label: 'Item' }];

/**
 * The account screens' table: dense rows, sticky header, striped, the columns declared once. The
 * caller renders the body rows (`Table.Tr`), so each screen keeps its own cells and row actions.
 * `empty`, when given, is said in one row across every column (the count follows the columns, so a
 * column shown only sometimes cannot leave the row short). `caption`, when given, is said above the
 * header as the table's caption: what the rows are and in which order, where no column header says it.
 */
export function DenseTable({
  columns,
  testId,
  empty = null,
  caption = null,
  children,
}: {
  columns: readonly Column[];
  testId: string;
  empty?: ReactNode;
  caption?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Table striped highlightOnHover stickyHeader verticalSpacing={3} fz="xs" captionSide="top" data-testid={testId}>
      {caption !== null ? (
        <Table.Caption ta="left" fz="xs" mt={0} mb={4} data-testid={`${testId}-caption`}>
          {caption}
        </Table.Caption>
      ) : null}
      <Table.Thead>
        <Table.Tr>
          {columns.map((c, i) => (
            // a header is a word or two: on one line, or a narrow window stacks "Can / add" over a figure
            <Table.Th key={i} ta={c.align} w={c.width} style={{ whiteSpace: 'nowrap' }}>
              {c.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {children}
        {empty !== null ? (
          <Table.Tr data-testid={`${testId}-empty`}>
            <Table.Td colSpan={columns.length}>
              <Text size="xs" c="dimmed" ta="center" py="md">
                {empty}
              </Text>
            </Table.Td>
          </Table.Tr>
        ) : null}
      </Table.Tbody>
    </Table>
  );
}
