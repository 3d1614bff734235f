/** Wear (float) graphics: a tiny band bar with a marker for the grid, and the full bar for the detail. */
import { Tooltip } from '@mantine/core';
import { WEAR_BANDS, wearBandOf } from '../../../../shared/wear.ts';
import { formatFloat } from '../../../format/numbers.ts';

/** Colours of FN → BS, shared by both bars and the filter presets. */
export const WEAR_COLORS: Record<(typeof WEAR_BANDS)[number]['code'], string> = {
  FN: '#2f9e44',
  MW: '#74b816',
  FT: '#fab005',
  WW: '#f76707',
  BS: '#e03131',
};

export function WearMini({ value }: { value: number | null }) {
  if (value === null) return <span className="sd-wear-mini" style={{ opacity: 0.15 }} aria-hidden />;
  return (
    <span className="sd-wear-mini" aria-hidden>
      <span className="sd-wear-mini-marker" style={{ left: `${Math.min(100, Math.max(0, value * 100))}%` }} />
    </span>
  );
}

/**
 * The float bar of the detail view: the five wear bands to scale, the skin's possible range when known
 * (outside it dimmed), and a marker at the item's float.
 */
export function FloatBar({ value, min = 0, max = 1 }: { value: number; min?: number; max?: number }) {
  const band = wearBandOf(value);
  return (
    <div data-testid="float-bar" data-float={value} style={{ position: 'relative', paddingTop: 16 }}>
      <div
        className="sd-num"
        style={{
          position: 'absolute',
          top: 0,
          left: `${value * 100}%`,
          transform: `translateX(${value > 0.8 ? '-100%' : value < 0.2 ? '0' : '-50%'})`,
          fontSize: 11,
          whiteSpace: 'nowrap',
          color: 'var(--mantine-color-gray-2)',
        }}
      >
        {formatFloat(value, 10)} · {band.code}
      </div>
      <div style={{ display: 'flex', height: 10, borderRadius: 3, overflow: 'hidden', position: 'relative' }}>
        {WEAR_BANDS.map((b) => (
          <Tooltip key={b.code} label={`${b.name}: ${b.min.toFixed(2)}–${b.max.toFixed(2)}`}>
            <div
              data-band={b.code}
              style={{
                width: `${(b.max - b.min) * 100}%`,
                background: WEAR_COLORS[b.code],
                opacity: b.code === band.code ? 1 : 0.45,
              }}
            />
          </Tooltip>
        ))}
        {min > 0 && <div style={{ position: 'absolute', left: 0, width: `${min * 100}%`, top: 0, bottom: 0, background: 'rgba(0,0,0,0.6)' }} />}
        {max < 1 && <div style={{ position: 'absolute', left: `${max * 100}%`, right: 0, top: 0, bottom: 0, background: 'rgba(0,0,0,0.6)' }} />}
      </div>
      <div
        data-testid="float-marker"
        style={{
          position: 'absolute',
          top: 13,
          left: `${value * 100}%`,
          width: 2,
          height: 16,
          marginLeft: -1,
          background: '#fff',
          borderRadius: 1,
          boxShadow: '0 0 0 1px rgba(0,0,0,0.6)',
        }}
      />
      <div style={{ display: 'flex', fontSize: 10, color: 'var(--sd-muted)', marginTop: 3 }}>
        {WEAR_BANDS.map((b) => (
          <div key={b.code} style={{ width: `${(b.max - b.min) * 100}%`, textAlign: 'center', overflow: 'hidden' }}>
            {b.code}
          </div>
        ))}
      </div>
    </div>
  );
}
