/** An item's name as the grids show it: StatTrak™ and Souvenir as small marks, a Doppler's phase, then the name. */
import { PhaseTag } from './phase.tsx';

export function ItemName({
  name,
  stattrak,
  souvenir,
  paintIndex,
}: {
  name: string;
  stattrak: boolean | null;
  souvenir: boolean | null;
  paintIndex: number | null;
}) {
  return (
    <>
      {stattrak && (
        <span style={{ color: 'var(--mantine-color-orange-5)', marginRight: 4, fontSize: 10 }}>ST</span>
      )}
      {souvenir && (
        <span style={{ color: 'var(--mantine-color-yellow-5)', marginRight: 4, fontSize: 10 }}>SV</span>
      )}
      <PhaseTag paintIndex={paintIndex} />
      {name.replace(/^StatTrak™ /, '').replace(/^Souvenir /, '')}
    </>
  );
}
