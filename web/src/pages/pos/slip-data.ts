/**
 * What the register's printed slip shows (SaleSlip.tsx), made from the server's answer for a stored sale or from
 * the cart for a sale made offline (then it is provisional: its number is the register's own until the server
 * gives the real one). Printing from the page needs no download and works without the network.
 */
import type { CartFigures, CartLine } from './register-cart.ts';

type Row = Record<string, any>;

export interface SlipSeller { name: string; taxId: string; branch: string; address: string }
export interface SlipData {
  seller: SlipSeller | null;
  terminal: string;
  title: string;
  taxInvoiceNo: string | null;
  docNo: string;
  /** The stored sale's id (a reprint asks the server first); absent while the sale waits offline. */
  saleId?: number;
  /** A copy printed again (the reprint button), marked สำเนา. */
  copy?: number;
  provisional: boolean;
  when: string;
  lines: { name: string; qty: number; price: number; discount: number; amount: number }[];
  subtotal: number;
  billDiscount: number;
  total: number;
  vat: number;
  payments: { name: string; amount: number; reference?: string }[];
  change: number;
  buyer?: { name: string; taxId: string; branch: string; address: string } | null;
}

export const SLIP_TITLES: Record<string, string> = {
  abbreviated: 'ใบกำกับภาษีอย่างย่อ / ใบเสร็จรับเงิน',
  full: 'ใบกำกับภาษี / ใบเสร็จรับเงิน',
  none: 'ใบเสร็จรับเงิน',
};

/** 29/11/2569 14:05 on the business's clock (Bangkok), as the server's slip prints it. */
export function thaiDateTime(at: Date, timeZone = 'Asia/Bangkok'): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.day}/${p.month}/${Number(p.year) + 543} ${p.hour}:${p.minute}`;
}

export function sellerOf(company: Row | null | undefined): SlipSeller | null {
  if (!company) return null;
  const branch = company.branch_code && company.branch_code !== '00000' ? `สาขาที่ ${String(company.branch_code)}` : company.tax_id ? 'สำนักงานใหญ่' : '';
  const address = ['address_line', 'sub_district', 'district', 'province', 'postal_code'].map((k) => company[k]).filter((v) => v !== null && v !== undefined && v !== '').join(' ');
  return { name: String(company.name_th ?? company.name ?? ''), taxId: String(company.tax_id ?? ''), branch, address };
}

const n = (v: unknown) => Number(v ?? 0);
const round2 = (v: number) => Math.round(v * 100) / 100;

/** The slip of a sale the server stored. */
export function slipOfSale(order: Row, seller: SlipSeller | null, terminal: string, methodName: (id: number) => string): SlipData {
  const items = (order.items as Row[] | undefined) ?? [];
  const form = String(order.invoice_type ?? 'none');
  return {
    seller, terminal, title: SLIP_TITLES[form] ?? SLIP_TITLES.none!, taxInvoiceNo: order.tax_invoice_no ? String(order.tax_invoice_no) : null,
    docNo: String(order.doc_no ?? ''), saleId: Number(order.id) || undefined, provisional: false, when: thaiDateTime(new Date(String(order.created_at ?? Date.now()))),
    lines: items.map((l) => ({ name: String(l.description ?? ''), qty: n(l.qty), price: n(l.price), discount: n(l.discount_amount), amount: round2(n(l.qty) * n(l.price) - n(l.discount_amount)) })),
    subtotal: n(order.subtotal), billDiscount: n(order.discount_amount), total: n(order.total_amount), vat: n(order.vat_amount),
    payments: ((order.payments as Row[] | undefined) ?? []).map((p) => ({ name: methodName(Number(p.payment_method_id)), amount: n(p.amount), ...(p.reference ? { reference: String(p.reference) } : {}) })),
    change: n(order.change_amount),
    buyer: form === 'full' ? { name: String(order.buyer_name ?? ''), taxId: String(order.buyer_tax_id ?? ''), branch: String(order.buyer_branch_code ?? ''), address: String(order.buyer_address ?? '') } : null,
  };
}

/** The provisional slip of a sale made offline, from the cart as the register priced it. */
export function slipOfCart(
  lines: CartLine[], fig: CartFigures, payments: { payment_method_id: number; amount: number; reference?: string }[], change: number,
  provisionalNo: string, seller: SlipSeller | null, terminal: string, methodName: (id: number) => string, at = new Date(),
): SlipData {
  return {
    seller, terminal, title: 'ใบเสร็จรับเงิน (ชั่วคราว)', taxInvoiceNo: null, docNo: provisionalNo, provisional: true, when: thaiDateTime(at),
    lines: lines.map((l, i) => ({ name: l.name, qty: l.qty, price: l.price, discount: fig.lines[i]?.discount ?? 0, amount: fig.lines[i]?.amount ?? 0 })),
    subtotal: fig.subtotal, billDiscount: fig.billDiscount, total: fig.total, vat: fig.vat,
    payments: payments.map((p) => ({ name: methodName(p.payment_method_id), amount: p.amount, ...(p.reference ? { reference: p.reference } : {}) })),
    change, buyer: null,
  };
}
