/**
 * The tools of a screen that shows one account read (my listings, the orders, the ledger): how old it is
 * (or that its refresh failed, over the rows of the read before), a Refresh button, and R for the same
 * while the screen is on.
 */
import { Button } from '@mantine/core';
import type { Freshness } from '../../../../shared/ipc/calls-account.ts';
import type { SkindeskError } from '../../../bridge/index.ts';
import { FreshnessNote } from './FreshnessNote.tsx';
import { RefreshFailed } from './ReadFailure.tsx';
import { useRefreshKey } from './useRefreshKey.ts';

export function FreshnessTools({
  freshness,
  loading,
  what,
  onRefresh,
  refreshFailed = null,
}: {
  freshness: Freshness | null | undefined;
  loading: boolean;
  what: string;
  onRefresh: () => void;
  /** A refresh that failed over rows still shown, and what its read is called ("The orders could not be read"). */
  refreshFailed?: { error: SkindeskError | null; title: string } | null;
}) {
  useRefreshKey(`Refresh ${what}`, onRefresh);
  return (
    <>
      {refreshFailed?.error ? (
        <RefreshFailed error={refreshFailed.error} title={refreshFailed.title} asOf={freshness?.fetchedAt ?? null} />
      ) : (
        <FreshnessNote freshness={freshness} loading={loading} />
      )}
      <Button variant="default" onClick={onRefresh}>
        Refresh
      </Button>
    </>
  );
}
