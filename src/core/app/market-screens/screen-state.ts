/**
 * What the market screens remember between runs: the book filter and sort last in use, and the saved
 * filter presets. Kept in `market-screens.json` beside settings.json (not in a mirror file, so the
 * presets stay when the user switches between the demo and the real market), written atomically; a
 * damaged file is renamed aside and reported, and the screens start from nothing (json-file.ts).
 */
import { join } from 'node:path';
import {
  FILTER_PRESET_MAX,
  type BookView,
  type FilterPreset,
  type MarketScreenState,
  marketScreenState,
} from '../../../shared/ipc/calls-market.ts';
import { readJsonFile, writeJsonFileAtomically } from '../json-file.ts';

export const MARKET_SCREENS_FILE_NAME = 'market-screens.json';

const EMPTY: MarketScreenState = { lastView: null, presets: [] };

export class ScreenStateStore {
  readonly file: string;
  #state: MarketScreenState;
  /** Why the file could not be read, when it could not (the caller shows it once). */
  readonly loadProblem: string | null;

  constructor(dataDir: string) {
    this.file = join(dataDir, MARKET_SCREENS_FILE_NAME);
    const { value, problem } = readJsonFile(this.file, marketScreenState, EMPTY, 'filter presets and last view');
    this.#state = value;
    this.loadProblem = problem;
  }

  get(): MarketScreenState {
    return structuredClone(this.#state);
  }

  setLastView(view: BookView): void {
    this.#write({ ...this.#state, lastView: view });
  }

  savePreset(preset: FilterPreset): MarketScreenState {
    const others = this.#state.presets.filter((p) => p.name !== preset.name);
    if (others.length >= FILTER_PRESET_MAX) {
      throw new RangeError(`at most ${FILTER_PRESET_MAX} presets can be saved; delete one first`);
    }
    this.#write({ ...this.#state, presets: [...others, preset].sort((a, b) => a.name.localeCompare(b.name)) });
    return this.get();
  }

  deletePreset(name: string): MarketScreenState {
    this.#write({ ...this.#state, presets: this.#state.presets.filter((p) => p.name !== name) });
    return this.get();
  }

  #write(next: MarketScreenState): void {
    const checked = marketScreenState.parse(next);
    writeJsonFileAtomically(this.file, checked);
    this.#state = checked;
  }
}
