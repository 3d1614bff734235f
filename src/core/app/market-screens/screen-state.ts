/**
 * What the market screens remember between runs: the book filter and sort last in use, and the saved
 * filter presets. Kept in `market-screens.json` beside settings.json (not in a mirror file, so the
 * presets stay when the user switches between the demo and the real market), written atomically; a
 * damaged file is set aside as defaults rather than stopping the app.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  FILTER_PRESET_MAX,
  type BookView,
  type FilterPreset,
  type MarketScreenState,
  marketScreenState,
} from '../../../shared/ipc/calls-market.ts';

export const MARKET_SCREENS_FILE_NAME = 'market-screens.json';

const EMPTY: MarketScreenState = { lastView: null, presets: [] };

export class ScreenStateStore {
  readonly file: string;
  #state: MarketScreenState;

  constructor(dataDir: string) {
    this.file = join(dataDir, MARKET_SCREENS_FILE_NAME);
    this.#state = read(this.file);
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
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(checked, null, 2)}\n`);
    renameSync(tmp, this.file);
    this.#state = checked;
  }
}

function read(file: string): MarketScreenState {
  try {
    const parsed = marketScreenState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : EMPTY;
  } catch {
    return EMPTY; // missing (first start) or not JSON
  }
}
