/**
 * My listings by status: edit one (price, amount or decay), or select up to 50 to reprice or delist in
 * bulk with a per-row result table. Shows how many more copies each stack can take and where decaying
 * listings are on their curve.
 */
import { ActionIcon, Button, Checkbox, Group, Paper, SegmentedControl, Table, Text, Tooltip } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useState } from 'react';
import { LIMITS, LISTING_STATUSES, type ListingStatus, type MyListing } from '../../../../shared/api/index.ts';
import { utcMinute } from '../../../../shared/utc-words.ts';
import { useCall, usePush } from '../../../bridge/index.ts';
import { FreshnessTools } from '../ui/FreshnessTools.tsx';
import { formatAgo, gameShort, plural } from '../ui/format.ts';
import { useNow } from '../ui/hooks.ts';
import { Money } from '../ui/Money.tsx';
import { Pager, type PageSize } from '../ui/Pager.tsx';
import { ReadFailed, tableReadFailure } from '../ui/ReadFailure.tsx';
import { ScreenFrame } from '../ui/ScreenFrame.tsx';
import { StatusBadge } from '../ui/StatusBadge.tsx';
import { BookStandingCell } from './BookStandingCell.tsx';
import { BulkDelistDialog, BulkRepriceDialog } from './BulkDialogs.tsx';
import { DecayProgress } from './DecayProgress.tsx';
import { EditListingDialog } from './EditListingDialog.tsx';
import { DenseTable } from '../ui/DenseTable.tsx';
import { ItemNameCell } from '../ui/ItemNameCell.tsx';

const LIVE: readonly ListingStatus[] = ['ACTIVE', 'PRIVATE'];
/** Statuses whose listings are in the public book (or would be again, once enabled). */
const COMPETING: readonly ListingStatus[] = ['ACTIVE', 'DISABLED'];
const READ_TITLE = 'The listings could not be read';

export function MyListingsScreen() {
  const [status, setStatus] = useState<ListingStatus>('ACTIVE');
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<PageSize>(50);
  const [selected, setSelected] = useState<Map<number, MyListing>>(new Map());
  const [editingId, setEditing] = useState<number | null>(null);
  // the listings a bulk dialog acts on, taken as it opens: a sent action clears the selection while
  // the dialog still shows its result, which names every listing it acted on
  const [bulk, setBulk] = useState<{ action: 'reprice' | 'delist'; listings: MyListing[] } | null>(null);
  const now = useNow(30_000);
  const listings = useCall('getMyListings', { status, page, limit });
  // an accepted sale offer puts new listings live
  usePush('tradesUpdated', () => listings.reload());
  const failure = tableReadFailure(listings, (answer) => answer.listings);
  const rows = failure.inPlace ? [] : (listings.data?.listings ?? []);
  // the dialog shows the listing as last read, so a price moved meanwhile (a guard's reprice) shows there too
  const editing = editingId === null ? null : (rows.find((r) => r.id === editingId) ?? null);
  const standings = new Map((listings.data?.standings ?? []).map((s) => [s.listingId, s]));
  const guards = new Map((listings.data?.guards ?? []).map((g) => [g.listingId, g]));
  usePush('undercutGuardChanged', () => listings.reload());
  const competing = COMPETING.includes(status);
  const editable = LIVE.includes(status);
  const chosen = [...selected.values()];
  const toggle = (l: MyListing) =>
    setSelected((m) => {
      const next = new Map(m);
      if (!next.delete(l.id)) next.set(l.id, l);
      return next;
    });
  const afterSend = () => listings.reload();
  // backing out of a bulk dialog keeps the listings picked (as the inventory and the backpack do)
  const afterBulkSend = () => {
    setSelected(new Map());
    listings.reload();
  };
  const closeBulk = () => setBulk(null);
  const overLimit = chosen.length > LIMITS.bulkEditOrDelist;

  return (
    <ScreenFrame
      title="My listings"
      testId="screen-listings"
      subtitle={
        <SegmentedControl
          aria-label="Listing status"
          value={status}
          onChange={(v) => {
            setStatus(v as ListingStatus);
            setPage(1);
            setSelected(new Map());
          }}
          data={LISTING_STATUSES.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }))}
        />
      }
      tools={
        <FreshnessTools
          freshness={listings.data?.freshness}
          loading={listings.loading}
          what="my listings"
          onRefresh={listings.reload}
          refreshFailed={{ error: failure.overRows, title: READ_TITLE }}
        />
      }
    >
      {editable && !failure.inPlace ? (
        <Paper withBorder p={6} bg="dark.7">
          <Group justify="space-between" wrap="nowrap">
            <Text size="xs" c={overLimit ? 'red.4' : 'dimmed'} data-testid="listings-selection">
              {chosen.length ? `${plural(chosen.length, 'listing')} selected${overLimit ? ` (at most ${LIMITS.bulkEditOrDelist} per bulk action)` : ''}` : `Select up to ${LIMITS.bulkEditOrDelist} listings for a bulk reprice or delist`}
            </Text>
            <Group gap="xs">
              <Button variant="default" disabled={chosen.length === 0 || overLimit} onClick={() => setBulk({ action: 'reprice', listings: chosen })} data-testid="bulk-reprice-open">
                Reprice…
              </Button>
              <Button color="red" variant="light" disabled={chosen.length === 0 || overLimit} onClick={() => setBulk({ action: 'delist', listings: chosen })} data-testid="bulk-delist-open">
                Delist…
              </Button>
            </Group>
          </Group>
        </Paper>
      ) : null}
      {failure.inPlace ? (
        <ReadFailed error={failure.inPlace} title={READ_TITLE} onRetry={listings.reload} />
      ) : (
        <>
          <DenseTable
            testId="listings-table"
            empty={listings.data && rows.length === 0 ? `No ${status.toLowerCase()} listings.` : null}
            columns={[
              ...(editable
                ? [
                    {
                      label: (
                        <Checkbox
                          aria-label="Select every listing on this page"
                          checked={rows.length > 0 && rows.every((r) => selected.has(r.id))}
                          onChange={(e) => setSelected(e.currentTarget.checked ? new Map(rows.map((r) => [r.id, r])) : new Map())}
                        />
                      ),
                      width: 30,
                    },
                  ]
                : []),
              { label: 'Listing' },
              { label: 'Game' },
              { label: 'Item' },
              { label: 'Price', align: 'right' },
              ...(competing
                ? [
                    {
                      label: (
                        <Tooltip label="Against the other listings of the same item in the local book">
                          <span>In book</span>
                        </Tooltip>
                      ),
                    },
                  ]
                : []),
              { label: 'Copies', align: 'right' },
              {
                label: (
                  <Tooltip label="How many more copies this stack can take from the backpack (copies inside a trade hold excluded)">
                    <span>Can add</span>
                  </Tooltip>
                ),
                align: 'right',
              },
              { label: 'Decay' },
              { label: 'Status' },
              { label: 'Listed', align: 'right' },
              ...(editable ? [{ label: '', width: 32 }] : []),
            ]}
          >
            {rows.map((l) => (
              <Table.Tr key={l.id} data-testid="listing-row" data-listing-id={l.id}>
                {editable ? (
                  <Table.Td>
                    <Checkbox aria-label={`Select listing ${l.id}`} checked={selected.has(l.id)} onChange={() => toggle(l)} />
                  </Table.Td>
                ) : null}
                <Table.Td className="sd-num">#{l.id}</Table.Td>
                <Table.Td>{gameShort(l.app_id)}</Table.Td>
                <ItemNameCell name={l.market_hash_name} appId={l.app_id} />
                <Table.Td ta="right">
                  <Money cents={l.price} size="xs" />
                </Table.Td>
                {competing ? <BookStandingCell standing={standings.get(l.id)} guard={guards.get(l.id)} /> : null}
                <Table.Td ta="right" className="sd-num">
                  {l.amount}
                </Table.Td>
                <Table.Td ta="right" className="sd-num">
                  {/* only a live stack can take more copies: a filled or disabled one's available_amount means nothing */}
                  {l.commodity && LIVE.includes(l.status ?? status) ? l.available_amount : '–'}
                </Table.Td>
                <Table.Td>{l.price_decay ? <DecayProgress decay={l.price_decay} /> : <Text size="xs" c="dimmed">fixed</Text>}</Table.Td>
                <Table.Td>
                  <StatusBadge status={l.status ?? status} />
                </Table.Td>
                <Table.Td ta="right">
                  {/* "29d ago" alone does not say when: the instant, on UTC as the marketplace keeps it, on hover */}
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} title={utcMinute(Date.parse(l.created_at))} data-testid="listing-listed">
                    {formatAgo(l.created_at, now)}
                  </Text>
                </Table.Td>
                {editable ? (
                  <Table.Td>
                    <ActionIcon aria-label={`Edit listing ${l.id}`} onClick={() => setEditing(l.id)} data-testid="listing-edit">
                      <IconEdit size={14} />
                    </ActionIcon>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </DenseTable>
          <Pager metadata={listings.data?.metadata} page={page} onPage={setPage} limit={limit} onLimit={(l) => { setLimit(l); setPage(1); }} noun="listing" />
        </>
      )}
      {editing ? <EditListingDialog listing={editing} standing={standings.get(editing.id)} guard={status === 'ACTIVE' ? guards.get(editing.id) : null} onClose={() => setEditing(null)} onSent={afterSend} /> : null}
      {bulk?.action === 'delist' ? <BulkDelistDialog listings={bulk.listings} onClose={closeBulk} onSent={afterBulkSend} /> : null}
      {bulk?.action === 'reprice' ? <BulkRepriceDialog listings={bulk.listings} onClose={closeBulk} onSent={afterBulkSend} /> : null}
    </ScreenFrame>
  );
}
