export { openDatabase, refuseForeignBookFile, type Db, type OpenOptions } from './database.ts';
export { NotABookError, SCHEMA_VERSION, SchemaVersionError, describeLengthyStep, type LengthyStep } from './migrations.ts';
export { BookStore, REMOVED_REASON, type ApplyOutcome, type Clock } from './book-store.ts';
export {
  SnapshotMerge,
  mergeSnapshot,
  yieldToEventLoop,
  MERGE_BUDGET_MS,
  type MergeSummary,
  type RunMergeOptions,
} from './snapshot-merge.ts';
export { readSyncState, serializeScope, type SyncState } from './sync-state.ts';
export { readStatus, countDetailed, countLive, iterateBook, readListing, asFullListing, type MirrorStatus, type StoredListing } from './book-reader.ts';
export { Caches, claimCaches, type CacheEntry } from './caches.ts';
export { SALE_COLUMNS, iterateSales, type SaleRecord, type SalesFilter } from './sales-reader.ts';
