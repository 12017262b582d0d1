import type { Feature } from '../crud/feature-contract.ts';
import { ensureScanTable } from './scan-log.ts';
import { installBarcodeCodes } from './barcode-codes.ts';
import { installScanPosting } from './scan-posting.ts';
import { registerBarcodeRoutes } from './barcode-routes.ts';

/** Pack barcodes and scanning into goods receipts and deliveries; it stands on stock (after it in the list). */
export const barcodesFeature: Feature = {
  name: 'barcodes',
  tables: [ensureScanTable],
  listeners: [
    { name: 'barcode codes', install: installBarcodeCodes },
    { name: 'scanned packs posted', install: installScanPosting },
  ],
  routes: ({ app, service, contextOf }) => registerBarcodeRoutes(app, service, contextOf),
};
