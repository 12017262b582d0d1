import type { Feature } from '../crud/feature-contract.ts';
import { installAttributeUsageGuard } from './attribute-usage.ts';
import { registerAttributeListRoute } from './attribute-list-route.ts';

/** Product attributes: an attribute in use is not deleted; the list of a product's attributes. */
export const attributesFeature: Feature = {
  name: 'attributes',
  listeners: [{ name: 'attribute in use', install: installAttributeUsageGuard }],
  routes: (c) => registerAttributeListRoute(c.app, c.service, c.contextOf),
};
