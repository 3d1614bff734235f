/** Stickers and keychains in a grid row: one square per sticker slot, a dot per keychain, details on hover. */
import { Tooltip } from '@mantine/core';
import type { BookRow } from '../../../../shared/ipc/index.ts';
import { scrapePercent } from '../../../../shared/wear.ts';

const SLOTS = 5;

/** A book row, or any row with a game and stickers (a sale: its keychains are not recorded). */
type WithStickers = Pick<BookRow, 'app_id' | 'stickers'> & { keychains?: BookRow['keychains'] };

export function StickerSlots({ row }: { row: WithStickers }) {
  if (row.app_id !== 730) return null;
  if (row.stickers === null) return null; // detail not known yet: the float column says so
  const bySlot = new Map(row.stickers.map((s) => [s.slot, s]));
  const keychains = row.keychains ?? [];
  if (row.stickers.length === 0 && keychains.length === 0) return <span style={{ color: 'var(--sd-muted)' }}>–</span>;
  const tip = [
    ...row.stickers.map((s) => `#${s.slot + 1} ${s.name} · scrape ${scrapePercent(s.wear)}`),
    ...keychains.map((k) => `charm ${k.name}${k.pattern === null ? '' : ` · pattern ${k.pattern}`}`),
  ].join('\n');
  return (
    <Tooltip label={tip} multiline style={{ whiteSpace: 'pre' }} position="left">
      <span className="sd-slots" data-stickers={row.stickers.length} aria-label={tip}>
        {Array.from({ length: SLOTS }, (_, slot) => {
          const sticker = bySlot.get(slot);
          return (
            <span
              key={slot}
              className={sticker ? 'sd-slot sd-slot-filled' : 'sd-slot'}
              style={sticker ? { opacity: 1 - Math.min(0.75, sticker.wear ?? 0) } : undefined}
            />
          );
        })}
        {keychains.map((k) => (
          <span key={`k${k.slot}`} className="sd-slot sd-slot-keychain" />
        ))}
      </span>
    </Tooltip>
  );
}
