/**
 * The account balance, cached in the mirror's SQLite file (cache_entries, key `user`) so the app shows
 * the last known balance offline; read from GET /user when asked to refresh (after a purchase, say), or
 * when nothing is cached yet.
 */
import type { User } from '../../../shared/api/index.ts';
import type { BalanceView } from '../../../shared/ipc/calls-market.ts';
import { ApiError } from '../../api/errors.ts';
import { Caches } from '../../store/index.ts';
import type { MarketSession } from '../session.ts';

/** cache_entries key of the user record (GET /user). */
export const USER_CACHE_KEY = 'user';

function view(user: User | null, fetchedAt: number | null, problem: string | null): BalanceView {
  return {
    balance: user ? user.balance : null,
    userName: user ? user.name : null,
    asOf: fetchedAt === null ? null : new Date(fetchedAt).toISOString(),
    problem,
  };
}

/** First reads (nothing cached yet) share one GET /user; a refresh always asks anew (after a purchase,
 * an answer that was already on its way may predate it). */
const firstRead = new WeakMap<MarketSession, Promise<BalanceView>>();

/**
 * `storedUsable` false: the stored record may be another account's — a new key whose account is not met
 * yet (AccountSession.awaitingAccount) — so only a fresh read is shown.
 */
export async function readBalance(session: MarketSession, refresh: boolean, storedUsable = true): Promise<BalanceView> {
  const caches = new Caches(session.db);
  const cached = storedUsable ? caches.get<User>(USER_CACHE_KEY) : null;
  const client = session.client;
  if (!client) {
    return view(cached?.value ?? null, cached?.fetchedAt ?? null, cached ? null : 'Not connected to the marketplace yet.');
  }
  if (!refresh && cached) return view(cached.value, cached.fetchedAt, null);
  const fetchNow = async (): Promise<BalanceView> => {
    try {
      const user = await client.user({ priority: 'interactive' });
      const now = Date.now();
      if (session.db.open) caches.put(USER_CACHE_KEY, user, null, now);
      return view(user, now, null);
    } catch (err) {
      const problem = err instanceof ApiError ? err.explanation : 'The balance could not be read.';
      return view(cached?.value ?? null, cached?.fetchedAt ?? null, problem);
    }
  };
  if (refresh) return fetchNow();
  let running = firstRead.get(session);
  if (!running) {
    running = fetchNow().finally(() => firstRead.delete(session));
    firstRead.set(session, running);
  }
  return running;
}
