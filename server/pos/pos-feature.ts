import type { Feature } from '../crud/feature-contract.ts';
import { installShiftRules } from './shift-rules.ts';
import { installReturnNotes } from './sale-credit-note.ts';
import { registerSaleRoutes } from './sale-routes.ts';
import { registerSaleReturnRoutes } from './sale-return.ts';
import { registerSlipRoutes } from './sale-slip.ts';
import { registerShiftCashRoutes } from './shift-cash.ts';
import { ensurePinTable, registerSupervisedRoutes } from './supervisor-pin.ts';

/** The counter: sales, returns, slips, and the rules of a shift. */
export const posFeature: Feature = {
  name: 'pos',
  tables: [ensurePinTable],
  listeners: [{ name: 'shift rules', install: installShiftRules }, { name: 'return credit notes', install: installReturnNotes }],
  routes: ({ app, service, contextOf }) => {
    registerSaleRoutes(app, service, contextOf);
    registerSaleReturnRoutes(app, service, contextOf);
    registerSlipRoutes(app, service, contextOf);
    registerShiftCashRoutes(app, service, contextOf);
    registerSupervisedRoutes(app, service, contextOf);
  },
};
