/**
 * The balance ledger's running balance, checked on the page shown: rows come newest first, so each
 * row's balance must be the next (older) row's balance plus this row's amount. A break means a
 * movement is missing from the ledger (or the page edge), and the row is marked for the trader.
 */
export interface LedgerRow {
  id: number;
  amount: number;
  balance: number;
}

/** Ids of rows whose running balance does not follow from the older row below them. */
export function ledgerBreaks(rows: readonly LedgerRow[]): Set<number> {
  const breaks = new Set<number>();
  for (let i = 0; i + 1 < rows.length; i++) {
    const row = rows[i]!;
    const older = rows[i + 1]!;
    if (older.balance + row.amount !== row.balance) breaks.add(row.id);
  }
  return breaks;
}
