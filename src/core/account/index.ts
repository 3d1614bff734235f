/** The account screens' engine: cached reads, pre-send checks, price-decay math, crypto withdrawals. */
export * from './account-reads.ts';
export * from './crypto-address.ts';
export * from './crypto-withdrawal.ts';
export * from './inventory-tokens.ts';
export * from './portfolio.ts';
export * from './presend-checks.ts';
export * from './price-decay.ts';
export * from './withdrawal-guard.ts';
export * from './withdrawal-journal.ts';
