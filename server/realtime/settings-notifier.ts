import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { Realtime } from './socket-server.ts';

export const SETTINGS_EVENT = 'settings-changed';

/**
 * What identifies the stored site settings: the row's updated_at, as text
 * (PostgreSQL answers a Date, SQLite a string). The settings answer carries
 * it as `meta.stamp`, and so does every `settings-changed`.
 */
export function settingsStamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : String(value);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function currentStamp(k: Kysely<any>, settings: string): Promise<string | null> {
  const row = await k.selectFrom(settings).select('updated_at').orderBy('id').limit(1).executeTakeFirst();
  return settingsStamp(row?.updated_at);
}

/**
 * Site settings apply at once: after a committed change every open screen is
 * told to read them again (on every instance, through the Redis adapter when
 * one links them). The event carries no values: each client reads the
 * settings through the API, under its own session. Each socket also hears the
 * current stamp as it connects, so a change saved between a screen reading
 * its settings and its socket connecting is not missed; a client whose
 * settings carry that stamp reads nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function installSettingsNotifier(service: EntityService, realtime: Realtime, k: Kysely<any>, onError: (err: unknown) => void): void {
  // the singleton with `siteSettings: true`; a set without one has no settings to announce
  const settings = service.registry.siteSettings()?.name;
  if (!settings) return;
  service.afterCommit((e) => {
    realtime.io.emit(SETTINGS_EVENT, { stamp: settingsStamp(e.after?.updated_at) });
  }, (e) => e.name === settings);
  realtime.io.on('connection', (socket) => {
    currentStamp(k, settings).then((stamp) => { socket.emit(SETTINGS_EVENT, { stamp }); }, onError);
  });
}
