/**
 * An item's name as the grids show it: StatTrak™ and Souvenir as small marks, a Doppler's phase, then the
 * name. The marks are read from the name (CS2 names carry them), so a listing whose details have not
 * arrived yet is marked as well.
 */
import { PhaseTag } from './phase.tsx';

const STATTRAK = /^(★ )?StatTrak™ /;
const SOUVENIR = /^Souvenir /;

/** The name without what the marks say: "★ StatTrak™ Karambit | Fade" → "★ Karambit | Fade". */
export const bareName = (name: string) => name.replace(STATTRAK, '$1').replace(SOUVENIR, '');

export function ItemName({ name, paintIndex }: { name: string; paintIndex: number | null }) {
  return (
    <>
      {STATTRAK.test(name) && (
        <span style={{ color: 'var(--mantine-color-orange-5)', marginRight: 4, fontSize: 10 }}>ST</span>
      )}
      {SOUVENIR.test(name) && (
        <span style={{ color: 'var(--mantine-color-yellow-5)', marginRight: 4, fontSize: 10 }}>SV</span>
      )}
      <PhaseTag paintIndex={paintIndex} />
      {bareName(name)}
    </>
  );
}
