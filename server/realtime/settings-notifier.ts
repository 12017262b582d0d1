import type { EntityService } from '../crud/entity-service.ts';
import type { Realtime } from './socket-server.ts';

export const SETTINGS_EVENT = 'settings-changed';

/**
 * Site settings apply at once: after a committed change every open screen is
 * told to read them again (on every instance, through the Redis adapter when
 * one links them). The event carries no values: each client reads the
 * settings through the API, under its own session.
 */
export function installSettingsNotifier(service: EntityService, realtime: Realtime): void {
  service.afterCommit((e) => {
    if (e.entity !== 'setting_site') return;
    realtime.io.emit(SETTINGS_EVENT, {});
  });
}
