/**
 * The tools of a screen that shows one account read (my listings, the orders, the ledger): how old it is,
 * a Refresh button, and R for the same while the screen is on.
 */
import { Button } from '@mantine/core';
import type { Freshness } from '../../../../shared/ipc/calls-account.ts';
import { FreshnessNote } from './FreshnessNote.tsx';
import { useRefreshKey } from './useRefreshKey.ts';

export function FreshnessTools({
  freshness,
  loading,
  what,
  onRefresh,
}: {
  freshness: Freshness | null | undefined;
  loading: boolean;
  what: string;
  onRefresh: () => void;
}) {
  useRefreshKey(`Refresh ${what}`, onRefresh);
  return (
    <>
      <FreshnessNote freshness={freshness} loading={loading} />
      <Button variant="default" onClick={onRefresh}>
        Refresh
      </Button>
    </>
  );
}
