import { Table } from '@mantine/core';
import { plural } from './format.ts';
import { CopiesInput } from './CopiesInput.tsx';
import { Money } from './Money.tsx';
import { useProblemTip } from './useProblemTip.tsx';

/**
 * What is wrong with the copies typed for a row that holds `amount`: more than it holds. Empty or 0 is
 * none from this row, not a problem.
 */
export function rowCopiesProblem(copies: number | null, amount: number): string | null {
  // in the sell dialog's words for the same refusal (stackCopiesProblem)
  return copies !== null && copies > amount
    ? `The stack holds ${plural(amount, 'copy', 'copies')}: enter 0 to ${amount}.`
    : null;
}

/** The first row whose copies typed are more than it holds, said as "name: the stack holds …"; null when none is. */
export function firstOverdrawn(
  rows: readonly { name: string; amount: number; copies: number | null }[],
): string | null {
  for (const row of rows) {
    const problem = rowCopiesProblem(row.copies, row.amount);
    if (problem !== null) return `${row.name}: ${problem}`;
  }
  return null;
}

/**
 * The "copies" and "value" cells of a row that moves items (withdraw, deposit): a commodity stack asks
 * how many copies, a single item is always one; the value follows the copies chosen. A figure above the
 * stack stays as typed, refused in its tooltip (the dialog holds its button back and says why): put
 * back at each key, "15" in a stack of 12 read "1", and 1 copy was sent.
 */
export function CopiesCells(props: {
  name: string;
  commodity: boolean;
  /** Copies available in the row. */
  amount: number;
  unitPrice: number;
  /** As typed: null while the field is empty. */
  copies: number | null;
  onCopies(copies: number | null): void;
}) {
  const { name, commodity, amount, unitPrice, copies, onCopies } = props;
  const problem = rowCopiesProblem(copies, amount);
  const tip = useProblemTip(problem);
  return (
    <>
      <Table.Td ta="right">
        {commodity ? (
          <CopiesInput
            aria-label={`Copies of ${name}`}
            w={70}
            ml="auto"
            copies={copies}
            onCopies={onCopies}
            {...tip}
          />
        ) : (
          '1'
        )}
      </Table.Td>
      <Table.Td ta="right">
        <Money cents={problem === null ? unitPrice * (copies ?? 0) : null} size="xs" />
      </Table.Td>
    </>
  );
}
