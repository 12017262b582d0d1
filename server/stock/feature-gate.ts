import type { EntityService } from '../crud/entity-service.ts';
import { entityEnabled, featureDisabled, siteSettings } from '../settings/site-settings.ts';

/**
 * Entities a site setting switches on (schema key `enabledBy`: production
 * reports, assets): while the setting is off, new records are refused with
 * FEATURE_DISABLED. Existing records stay readable, and can still be
 * cancelled, so switching a feature off never strands posted stock.
 */
export function installFeatureGate(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action !== 'create') return;
    const entity = service.entity(e.entity);
    const site = await siteSettings(trx, service.registry);
    if (!entityEnabled(entity, site)) throw featureDisabled(entity, site);
  }, (entity) => !!entity.enabledBy);
}
