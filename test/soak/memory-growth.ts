// What the soak's `memory_flat` judges: how much a client process's RSS grew over the second half of its
// live period.
import { medianOfSorted } from '../../src/shared/median.ts';

/** RSS readings (MB) with their times (ms), oldest first. */
export type RssTrend = readonly { t: number; rss: number }[];

/**
 * RSS growth over the second half of the live period (MB): the median reading of its last quarter (the
 * end reading included) minus the median of its second quarter. Between medians, not two single
 * readings: RSS counts the database file's pages SQLite maps, which come and go by ±40 MB between
 * readings 10 s apart while the process's own memory holds still (a 10-minute heavy-chaos soak: RssAnon
 * 272–282 MB while RSS read 326–397). The quarters' centres are half the period apart, so a steady leak
 * counts as fully as it did between the middle reading and the last.
 */
export function secondHalfGrowth(trend: RssTrend, endMb: number): number {
  if (trend.length < 2) return 0;
  const start = trend[0]!.t;
  const span = trend[trend.length - 1]!.t - start;
  const readings = (from: number, to: number) =>
    trend.filter((p) => p.t >= start + from * span && p.t <= start + to * span).map((p) => p.rss);
  const median = (values: number[]) => medianOfSorted(values.sort((a, b) => a - b));
  const secondQuarter = readings(0.25, 0.5);
  const lastQuarter = [...readings(0.75, 1), endMb];
  if (secondQuarter.length === 0) {
    // too few readings for a quarter (a run of seconds): the one nearest the middle
    const middle = start + span / 2;
    secondQuarter.push(
      trend.reduce((best, p) => (Math.abs(p.t - middle) < Math.abs(best.t - middle) ? p : best)).rss,
    );
  }
  return median(lastQuarter) - median(secondQuarter);
}
