import { DECLARED_SCREENS } from '../../../engine/schema/declared-screens.ts';

/**
 * Fallback titles of the declared screens (schemas/screens/screens.json), [name, th, en], for the first
 * paint and offline: the server's language content carries the same titles as route.<name>. An entity's
 * list and form are titled by its schema's label (entity.<name>.plural, from the same content).
 */
export const ROUTE_TITLES: ReadonlyArray<readonly [string, string, string]> = DECLARED_SCREENS.map((s) => [s.name, s.title.th, s.title.en] as const);
