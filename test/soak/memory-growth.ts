// What the soak's `memory_flat` judges: how much a client process's memory grew over the second half of
// its live period.
import { medianOfSorted } from '../../src/shared/median.ts';

/** Memory readings (MB) with their times (ms), oldest first. */
export type MemoryTrend = readonly { t: number; mb: number }[];

/**
 * Growth over the second half of the live period (MB): the median reading of its last quarter (the
 * end reading included) minus the median of its second quarter. Between medians, not two single
 * readings: RSS counts the database file's pages SQLite maps, which come and go by ±40 MB between
 * readings 10 s apart while the process's own memory holds still (a 10-minute heavy-chaos soak: RssAnon
 * 272–282 MB while RSS read 326–397). The quarters' centres are half the period apart, so a steady leak
 * counts as fully as it did between the middle reading and the last.
 */
export function secondHalfGrowth(trend: MemoryTrend, endMb: number): number {
  if (trend.length < 2) return 0;
  const start = trend[0]!.t;
  const span = trend[trend.length - 1]!.t - start;
  const readings = (from: number, to: number) =>
    trend.filter((p) => p.t >= start + from * span && p.t <= start + to * span).map((p) => p.mb);
  const median = (values: number[]) => medianOfSorted(values.sort((a, b) => a - b));
  const secondQuarter = readings(0.25, 0.5);
  const lastQuarter = [...readings(0.75, 1), endMb];
  if (secondQuarter.length === 0) {
    // too few readings for a quarter (a run of seconds): the one nearest the middle
    const middle = start + span / 2;
    secondQuarter.push(
      trend.reduce((best, p) => (Math.abs(p.t - middle) < Math.abs(best.t - middle) ? p : best)).mb,
    );
  }
  return median(lastQuarter) - median(secondQuarter);
}

/** One client process's readings from going live: RSS and, where the system reports it, its anonymous part. */
export interface ProcessMemory {
  trend: readonly { t: number; rss: number; anon: number | null }[];
  rssEndMb: number;
  anonEndMb: number | null;
}

/** Second-half growth of a process's RSS: reported beside what is judged. */
export function rssSecondHalfGrowth(m: ProcessMemory): number {
  return secondHalfGrowth(
    m.trend.map((p) => ({ t: p.t, mb: p.rss })),
    m.rssEndMb,
  );
}

/**
 * What `memory_flat` judges for one process: the second-half growth of its anonymous memory (the JS heaps,
 * malloc, SQLite's page caches: wherever a leak would live) when every reading has it (Linux), else of
 * its RSS. RSS also counts the database file's pages SQLite reads through its memory map: the kernel's
 * cache of the file, given back under pressure and bounded by the map's 256 MB per file, yet they
 * swing the reading by ±40 MB and, as a book's working set moves, stepped up 60 MB over a run whose
 * anonymous memory grew 15.
 */
export function judgedGrowth(m: ProcessMemory): { measure: 'anonymous' | 'rss'; mb: number } {
  const anonEnd = m.anonEndMb;
  const anon = m.trend.flatMap((p) => (p.anon === null ? [] : [{ t: p.t, mb: p.anon }]));
  if (anonEnd === null || anon.length < m.trend.length) return { measure: 'rss', mb: rssSecondHalfGrowth(m) };
  return { measure: 'anonymous', mb: secondHalfGrowth(anon, anonEnd) };
}
