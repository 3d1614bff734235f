import { NumberInput, Table } from '@mantine/core';
import { Money } from './Money.tsx';

/**
 * The "copies" and "value" cells of a row that moves items (withdraw, deposit): a commodity stack asks
 * how many copies, a single item is always one; the value follows the copies chosen.
 */
export function CopiesCells(props: {
  name: string;
  commodity: boolean;
  /** Copies available in the row. */
  amount: number;
  unitPrice: number;
  copies: number;
  onCopies(copies: number): void;
}) {
  const { name, commodity, amount, unitPrice, copies, onCopies } = props;
  return (
    <>
      <Table.Td ta="right">
        {commodity ? (
          <NumberInput
            aria-label={`Copies of ${name}`}
            w={70}
            ml="auto"
            min={0}
            max={amount}
            allowDecimal={false}
            clampBehavior="strict"
            value={copies}
            onChange={(v) => onCopies(typeof v === 'number' ? v : 0)}
          />
        ) : (
          '1'
        )}
      </Table.Td>
      <Table.Td ta="right">
        <Money cents={unitPrice * copies} size="xs" />
      </Table.Td>
    </>
  );
}
