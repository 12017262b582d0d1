import type { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { scanInto } from '../server/barcodes/barcode-scan.ts';
import { AppError } from '../server/errors/app-error.ts';

async function idOf(service: EntityService, entity: string, code: string): Promise<number> {
  const q = service.parseQuery(service.entity(entity), { filter: JSON.stringify({ code: { _eq: code } }), limit: '1', fields: 'id' }, systemContext);
  const { rows } = await service.list(entity, q, systemContext);
  if (!rows[0]) throw new Error(`demo scans: no ${entity} ${code}`);
  return Number(rows[0].id);
}

/**
 * A goods receipt being counted by scanning, one scan past what it asks for:
 * the over-scan screen (barcodes_scan_over) has a real record to open. Made
 * through the scan engine's own call, as a warehouse clerk's scanner makes it;
 * the receipt stays a draft, as it would while its count is checked.
 */
export async function seedScanOver(service: EntityService): Promise<Record<string, number>> {
  const ctx = systemContext;
  const gr = await service.create('goods_receipt', {
    doc_date: new Date().toISOString().slice(0, 10), inventory_id: await idOf(service, 'inventory', 'WH-BN'),
    product_location_id: await idOf(service, 'product_location', 'BN-A-01-01'), remark: 'ตรวจนับด้วยเครื่องสแกน',
    items: [{ product_id: await idOf(service, 'product', 'P001'), qty: 2, price: 285 }],
  }, ctx);
  let overs = 0;
  for (let i = 0; i < 3; i++) {
    try {
      await scanInto(service, 'goods_receipt', Number(gr.id), { code: 'P001', note: null }, ctx);
    } catch (err) {
      // the third scan is one more than the receipt asks for: recorded as an over-scan, as at the scanner
      if (!(err instanceof AppError) || err.code !== 'SCAN_OVER') throw err;
      overs++;
    }
  }
  if (overs !== 1) throw new Error(`demo scans: expected one over-scan, got ${overs}`);
  return { goods_receipt: 1, barcodes_scan_over: 1 };
}
