/**
 * The alert sound: two short tones made with Web Audio (no file to load, nothing the CSP must allow),
 * at most once every two seconds however many alerts arrive.
 */
const MIN_GAP_MS = 2_000;
let context: AudioContext | null = null;
let lastPlayed = 0;

export function playAlertSound(now = Date.now()): boolean {
  if (now - lastPlayed < MIN_GAP_MS) return false;
  const Ctx = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Ctx) return false;
  try {
    context ??= new Ctx();
    const start = context.currentTime;
    for (const [offset, freq] of [[0, 880], [0.12, 1320]] as const) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.1);
      osc.connect(gain).connect(context.destination);
      osc.start(start + offset);
      osc.stop(start + offset + 0.11);
    }
    lastPlayed = now;
    return true;
  } catch {
    return false; // no audio device: the alert still shows
  }
}
