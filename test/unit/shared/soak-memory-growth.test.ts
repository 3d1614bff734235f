// The soak's memory_flat statistic: a steady leak counts fully, the ±40 MB swing of mapped database pages
// between two readings does not, and a run of seconds still gets a figure.
import { describe, expect, it } from 'vitest';
import { judgedGrowth, secondHalfGrowth } from '../../../test/soak/memory-growth.ts';

/** A reading every 10 s for `seconds`, from `mb(t in s)`. */
const trend = (seconds: number, mb: (s: number) => number) =>
  Array.from({ length: seconds / 10 + 1 }, (_, i) => ({ t: i * 10_000, mb: mb(i * 10) }));

describe('soak memory growth over the second half', () => {
  it('counts a steady leak as the growth over half the period', () => {
    const leak = trend(400, (s) => 300 + s * 0.4); // 0.4 MB/s: 80 MB over the second half
    const growth = secondHalfGrowth(leak, 460);
    expect(growth).toBeGreaterThanOrEqual(78);
    expect(growth).toBeLessThanOrEqual(84);
  });

  it('does not count mapped pages swinging ±40 MB around a flat level, which one reading at each end would', () => {
    const swinging = trend(400, (s) => 360 + (s % 20 === 0 ? -40 : 40));
    const readingsApart = 400 - 320; // the old rule: the last reading minus the one nearest the middle
    expect(readingsApart).toBeGreaterThan(64);
    expect(Math.abs(secondHalfGrowth(swinging, 400))).toBeLessThanOrEqual(40);
  });

  it('judges warm-up growth that stopped in the first half as flat, and growth that did not as growth', () => {
    const warmUp = trend(400, (s) => Math.min(380, 250 + s));
    expect(secondHalfGrowth(warmUp, 380)).toBe(0);
    const lateJump = trend(400, (s) => (s < 300 ? 300 : 400));
    expect(secondHalfGrowth(lateJump, 400)).toBe(100);
  });

  it('falls back to the reading nearest the middle when the run is too short for a quarter', () => {
    expect(
      secondHalfGrowth(
        [
          { t: 0, mb: 200 },
          { t: 10_000, mb: 260 },
        ],
        260,
      ),
    ).toBe(60);
    expect(secondHalfGrowth([{ t: 0, mb: 200 }], 300)).toBe(0);
  });

  it("judges the process's anonymous memory when every reading has it, RSS otherwise", () => {
    // mapped file pages step RSS up 60 MB in the second half while the process's own memory holds still
    const readings = trend(400, (s) => s).map(({ t }) => ({ t, rss: t < 300_000 ? 300 : 360, anon: 220 }));
    expect(judgedGrowth({ trend: readings, rssEndMb: 360, anonEndMb: 220 })).toEqual({ measure: 'anonymous', mb: 0 });
    const leaking = readings.map((p) => ({ ...p, anon: 220 + p.t / 5_000 }));
    expect(judgedGrowth({ trend: leaking, rssEndMb: 360, anonEndMb: 300 }).mb).toBeGreaterThanOrEqual(38);
    // not reported on this system (or for one reading): RSS, so a leak can never hide behind a gap
    const unreported = readings.map((p, i) => ({ ...p, anon: i === 3 ? null : p.anon }));
    expect(judgedGrowth({ trend: unreported, rssEndMb: 360, anonEndMb: 220 })).toEqual({ measure: 'rss', mb: 60 });
    expect(judgedGrowth({ trend: readings, rssEndMb: 360, anonEndMb: null }).measure).toBe('rss');
  });
});
