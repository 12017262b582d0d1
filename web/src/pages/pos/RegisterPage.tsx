import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api, ApiError, download, saveBlob } from '../../core/http-client.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { formatMoney } from '../documents/money-format.ts';
import type { PromotionRow } from '../../../../engine/pos/promotion-math.ts';
import { addProduct, bangkokToday, figures, payState, setQty, type CartLine, type CartProduct, type PaymentRow } from './register-cart.ts';
import './pos-i18n.ts';

type Row = Record<string, any>;
interface Terminal { id: number; code: string; name: string; sales_channel_id: number | null; default_payment_method_id: number | null }
interface Method { id: number; name_th: string; payment_type: string }

const q = (filter: unknown) => JSON.stringify(filter);
const newKey = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * The register (issue 33 §3): a keyboard-and-scanner screen. The scan box keeps the focus: a keyboard-wedge
 * scanner types the barcode and Enter; a code or a name typed by hand works the same (one match is added, several
 * are offered). Promotions come from the spec's GET /api/promotion/list and are applied live with the server's
 * own arithmetic (register-cart.ts); the server prices the sale again and is the authority. A sale is sent with
 * an Idempotency-Key kept until it is stored, so a double click or a retry after a network error stores it once.
 */
export default function RegisterPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const [terminals, setTerminals] = useState<Terminal[] | null>(null);
  const [terminalId, setTerminalId] = useState<number | null>(null);
  const [shift, setShift] = useState<Row | null>(null);
  const [closed, setClosed] = useState<Row | null>(null);
  const [promotions, setPromotions] = useState<PromotionRow[]>([]);
  const [methods, setMethods] = useState<Method[]>([]);
  const [lines, setLines] = useState<CartLine[]>([]);
  const [payments, setPayments] = useState<PaymentRow[]>([]);
  const [code, setCode] = useState('');
  const [choices, setChoices] = useState<CartProduct[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sold, setSold] = useState<Row | null>(null);
  const [opening, setOpening] = useState('0');
  const [counted, setCounted] = useState('');
  const [closing, setClosing] = useState(false);
  const key = useRef<string>(newKey());
  const scan = useRef<HTMLInputElement>(null);
  const payAmount = useRef<HTMLInputElement>(null);
  const choiceList = useRef<HTMLUListElement>(null);
  const terminal = terminals?.find((x) => x.id === terminalId) ?? null;
  const today = bangkokToday();

  useEffect(() => {
    api.get<{ data: Terminal[] }>('/api/pos', { searchParams: { filter: q({ is_active: { _eq: true } }), limit: 100 } }).then((r) => {
      setTerminals(r.data);
      const kept = Number(localStorage.getItem('pos.terminal'));
      setTerminalId(r.data.find((x) => x.id === kept)?.id ?? r.data[0]?.id ?? null);
    }, (e: ApiError) => setError(e.message));
    api.get<{ data: Method[] }>('/api/payment_method', { searchParams: { filter: q({ is_active: { _eq: true } }), limit: 100 } }).then((r) => setMethods(r.data), () => undefined);
    // the spec's call: live promotions, published ones only
    api.get<{ data: PromotionRow[] }>('/api/promotion/list', { searchParams: { is_delete: 0, is_publish: 1, limit: 500 } }).then((r) => setPromotions(r.data), () => undefined);
  }, []);

  useEffect(() => {
    if (!terminalId) return;
    localStorage.setItem('pos.terminal', String(terminalId));
    api.get<{ data: Row[] }>('/api/pos_shift', { searchParams: { filter: q({ pos_id: { _eq: terminalId }, status: { _eq: 'open' } }), limit: 1 } })
      .then((r) => setShift(r.data[0] ?? null), (e: ApiError) => setError(e.message));
  }, [terminalId]);

  const cashOf = useCallback((id: number) => methods.find((m) => m.id === id)?.payment_type === 'cash', [methods]);
  const fig = useMemo(() => figures(lines, promotions, today, terminal?.sales_channel_id ?? null), [lines, promotions, today, terminal]);
  const pay = useMemo(() => payState(fig.total, payments), [fig.total, payments]);
  const promoName = (id: number | null) => promotions.find((p) => p.id === id)?.name ?? '';

  // a new bill starts with one payment row: the terminal's default method, else cash, for the whole total
  useEffect(() => {
    if (payments.length || !methods.length || !lines.length) return;
    const m = methods.find((x) => x.id === terminal?.default_payment_method_id) ?? methods.find((x) => x.payment_type === 'cash') ?? methods[0]!;
    setPayments([{ payment_method_id: m.id, amount: '', is_cash: m.payment_type === 'cash' }]);
  }, [lines.length, methods, payments.length, terminal]);

  const add = (p: CartProduct) => {
    if (p.price === null || p.price === undefined) { setError(t('pos.no_price', { code: p.code })); return; }
    setLines((ls) => addProduct(ls, p));
    setChoices([]);
    setError(null);
    setSold(null);
    // a product picked with the mouse or from the list leaves the focus on a button that is gone: the next scan was lost
    scan.current?.focus();
  };

  const find = async (text: string) => {
    const fields = 'id,code,name_th,price,barcode,vat_type';
    // a scanner sends a barcode: looked up alone it is one indexed read (an OR with the code is not, on SQLite);
    // then the code, then a search by code or name
    for (const field of ['barcode', 'code']) {
      const exact = await api.get<{ data: CartProduct[] }>('/api/product', { searchParams: { filter: q({ [field]: { _eq: text } }), fields, limit: 2 } });
      if (exact.data.length === 1) return add(exact.data[0]!);
    }
    const found = await api.get<{ data: CartProduct[] }>('/api/product', { searchParams: { search: text, fields, limit: 10 } });
    if (found.data.length === 1) return add(found.data[0]!);
    if (!found.data.length) setError(t('pos.not_found', { code: text }));
    setChoices(found.data);
  };

  const onScan = (e: React.KeyboardEvent<HTMLInputElement>) => {
    // the cashier's keys: Esc clears, ↓ goes to the matches, Enter on an empty box goes to the payment
    if (e.key === 'Escape') { setCode(''); setChoices([]); return; }
    if (e.key === 'ArrowDown' && choices.length) { e.preventDefault(); choiceList.current?.querySelector('button')?.focus(); return; }
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = code.trim();
    setCode('');
    if (text) find(text).catch((err: ApiError) => setError(err.message));
    else if (lines.length) payAmount.current?.focus();
  };
  const onChoiceKey = (e: React.KeyboardEvent<HTMLUListElement>) => {
    const buttons = [...(choiceList.current?.querySelectorAll('button') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); buttons[Math.max(0, Math.min(buttons.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus(); }
    if (e.key === 'Escape') { setChoices([]); scan.current?.focus(); }
  };

  const openShift = async () => {
    setBusy(true);
    try {
      const r = await api.post<{ data: Row }>('/api/pos_shift', { pos_id: terminalId, opening_cash: Number(opening || 0) });
      setShift(r.data);
      setClosed(null);
      setError(null);
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };

  const closeShift = async () => {
    setBusy(true);
    try {
      const r = await api.post<{ data: Row }>(`/api/pos_shift/${shift!.id}/actions/close`, { counted_cash: Number(counted || 0) });
      setClosed(r.data);
      // "sale recorded, no …" of the last bill stood above the closed shift's figures
      setMessage(null);
      setSold(null);
      setShift(null);
      setClosing(false);
      setLines([]);
      setPayments([]);
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body = {
        pos_shift_id: shift!.id,
        items: lines.map((l) => ({ product_id: l.product_id, qty: l.qty })),
        payments: payments.filter((p) => Number(p.amount) > 0).map((p) => ({ payment_method_id: p.payment_method_id, amount: Number(p.amount) })),
      };
      const r = await api.post<{ data: Row }>('/api/pos_order', body, { headers: { 'Idempotency-Key': key.current } });
      setSold(r.data);
      setMessage(t('pos.sold', { no: r.data.doc_no }));
      setLines([]);
      setPayments([]);
      key.current = newKey();
    } catch (err) {
      // the key is kept: sending again (after a network error) cannot store the sale twice
      setError((err as ApiError).message);
    } finally {
      setBusy(false);
      scan.current?.focus();
    }
  };

  const print = async (id: number) => {
    const { blob, fileName } = await download(`/api/pos_order/${id}/slip`);
    saveBlob(blob, fileName ?? `pos_order-${id}.pdf`);
  };

  if (!terminals) return <section className="bo-page"><PageTitle>{t(titleKey)}</PageTitle>{error && <p role="alert" className="bo-error-text">{error}</p>}</section>;
  return (
    <section className="bo-page bo-pos" data-testid="pos-register">
      <PageTitle>{t(titleKey)}</PageTitle>
      {!terminals.length && <p className="bo-muted">{t('pos.no_terminal')}</p>}
      <div className="bo-toolbar">
        <label>{t('pos.terminal')}{' '}
          <select className="p-inputtext p-component" data-testid="pos-terminal" value={terminalId ?? ''} onChange={(e) => setTerminalId(Number(e.target.value))}>
            {terminals.map((x) => <option key={x.id} value={x.id}>{x.code} {x.name}</option>)}
          </select>
        </label>
        {shift && <span data-testid="pos-shift-no">{t('pos.shift')} {String(shift.shift_no)}</span>}
        <span className="bo-toolbar-spacer" />
        {shift && !closing && <Button type="button" label={t('pos.close_shift')} icon="pi pi-lock" outlined onClick={() => setClosing(true)} data-testid="pos-close" />}
      </div>
      {error && <p role="alert" className="bo-error-text" data-testid="pos-error">{error}</p>}
      {message && <p className="bo-muted" data-testid="pos-message">{message}</p>}
      {closed && (
        <dl data-testid="pos-closed">
          <dt>{t('pos.shift_closed')}</dt><dd>{String(closed.shift_no)}</dd>
          <dt>{t('pos.expected_cash')}</dt><dd data-testid="pos-expected">{formatMoney(Number(closed.expected_cash))}</dd>
          <dt>{t('pos.counted_cash')}</dt><dd data-testid="pos-counted">{formatMoney(Number(closed.counted_cash))}</dd>
          <dt>{t('pos.difference')}</dt><dd data-testid="pos-difference">{formatMoney(Number(closed.difference))}</dd>
        </dl>
      )}
      {terminal && !shift && (
        <div className="bo-toolbar">
          <label>{t('pos.opening_cash')} <input className="p-inputtext p-component" inputMode="decimal" value={opening} onChange={(e) => setOpening(e.target.value)} data-testid="pos-opening" /></label>
          <Button type="button" label={t('pos.open_shift')} icon="pi pi-unlock" disabled={busy} onClick={() => { void openShift(); }} data-testid="pos-open" />
        </div>
      )}
      {shift && closing && (
        <div className="bo-toolbar">
          <label>{t('pos.counted_cash')} <input className="p-inputtext p-component" inputMode="decimal" value={counted} autoFocus onChange={(e) => setCounted(e.target.value)} data-testid="pos-counted-input"
            onKeyDown={(e) => { if (e.key === 'Enter' && !busy && counted !== '') void closeShift(); if (e.key === 'Escape') setClosing(false); }} /></label>
          <Button type="button" label={t('pos.confirm_close')} icon="pi pi-check" disabled={busy || counted === ''} onClick={() => { void closeShift(); }} data-testid="pos-close-confirm" />
          {/* "close shift" pressed by mistake left no way back to selling but a reload */}
          <Button type="button" label={t('pos.cancel_close')} icon="pi pi-times" outlined disabled={busy} onClick={() => setClosing(false)} data-testid="pos-close-cancel" />
        </div>
      )}
      {shift && !closing && (
        <>
          <input ref={scan} className="p-inputtext p-component" style={{ width: '100%' }} autoFocus autoComplete="off" aria-label={t('pos.scan')} placeholder={t('pos.scan')}
            value={code} onChange={(e) => setCode(e.target.value)} onKeyDown={onScan} data-testid="pos-scan" aria-describedby="pos-keys" />
          <p id="pos-keys" className="bo-muted" style={{ margin: '0.25rem 0', fontSize: '0.85em' }}>{t('pos.keys')}</p>
          {choices.length > 0 && (
            <ul ref={choiceList} className="bo-scan-results" aria-label={t('pos.pick')} onKeyDown={onChoiceKey} data-testid="pos-choices">
              {choices.map((p) => <li key={p.id}><button type="button" className="p-link" data-testid="pos-choice" onClick={() => add(p)}>{p.code} {p.name_th} ({formatMoney(Number(p.price ?? 0))})</button></li>)}
            </ul>
          )}
          <div className="bo-table-wrap">
            <table className="bo-table" data-testid="pos-cart">
              <thead><tr><th>{t('pos.product')}</th><th className="bo-num-cell">{t('pos.qty')}</th><th className="bo-num-cell">{t('pos.price')}</th><th className="bo-num-cell">{t('pos.discount')}</th><th className="bo-num-cell">{t('pos.amount')}</th><th /></tr></thead>
              <tbody>
                {lines.map((l, i) => (
                  <tr key={l.product_id} data-testid="pos-line">
                    <td>{l.code} {l.name}{fig.lines[i]?.promotion_id ? <div className="bo-muted" data-testid="pos-line-promo">{t('pos.promotion')}: {promoName(fig.lines[i]!.promotion_id)}</div> : null}</td>
                    <td className="bo-num-cell"><input className="p-inputtext p-component" style={{ width: '5em' }} inputMode="decimal" aria-label={t('pos.qty')} value={l.qty}
                      onChange={(e) => setLines((ls) => setQty(ls, i, Number(e.target.value)))} data-testid="pos-qty" /></td>
                    <td className="bo-num-cell">{formatMoney(l.price)}</td>
                    <td className="bo-num-cell" data-testid="pos-line-discount">{formatMoney(fig.lines[i]?.discount ?? 0)}</td>
                    <td className="bo-num-cell">{formatMoney(fig.lines[i]?.amount ?? 0)}</td>
                    <td><Button type="button" icon="pi pi-times" text aria-label={t('pos.remove')} onClick={() => setLines((ls) => setQty(ls, i, 0))} /></td>
                  </tr>
                ))}
                {!lines.length && <tr><td colSpan={6} className="bo-muted">{t('pos.empty')}</td></tr>}
              </tbody>
            </table>
          </div>
          <dl className="bo-pos-totals">
            <dt>{t('pos.subtotal')}</dt><dd data-testid="pos-subtotal">{formatMoney(fig.subtotal)}</dd>
            {fig.billDiscount > 0 && <><dt>{t('pos.bill_discount')} ({promoName(fig.billPromotionId)})</dt><dd data-testid="pos-bill-discount">{formatMoney(fig.billDiscount)}</dd></>}
            <dt>{t('pos.total')}</dt><dd data-testid="pos-total"><strong>{formatMoney(fig.total)}</strong></dd>
            <dt>{t('pos.vat')}</dt><dd data-testid="pos-vat">{formatMoney(fig.vat)}</dd>
            {fig.exempt > 0 && <><dt>{t('pos.vat_exempt')}</dt><dd data-testid="pos-vat-exempt">{formatMoney(fig.exempt)}</dd></>}
          </dl>
          {lines.length > 0 && (
            <fieldset data-testid="pos-payments">
              <legend>{t('pos.payments')}</legend>
              {payments.map((p, i) => (
                <div key={i} className="bo-toolbar">
                  <select className="p-inputtext p-component" aria-label={t('pos.payments')} value={p.payment_method_id} data-testid="pos-pay-method"
                    onChange={(e) => setPayments((ps) => ps.map((x, j) => (j === i ? { ...x, payment_method_id: Number(e.target.value), is_cash: cashOf(Number(e.target.value)) } : x)))}>
                    {methods.map((m) => <option key={m.id} value={m.id}>{m.name_th}</option>)}
                  </select>
                  <input ref={i === 0 ? payAmount : undefined} className="p-inputtext p-component" inputMode="decimal" aria-label={t('pos.paid')} value={p.amount} data-testid="pos-pay-amount"
                    onKeyDown={(e) => { if (e.key === 'Enter' && !busy && pay.problem === null) { e.preventDefault(); void submit(); } if (e.key === 'Escape') scan.current?.focus(); }}
                    onChange={(e) => setPayments((ps) => ps.map((x, j) => (j === i ? { ...x, amount: e.target.value } : x)))} />
                </div>
              ))}
              <Button type="button" label={t('pos.add_payment')} icon="pi pi-plus" text data-testid="pos-add-payment"
                onClick={() => setPayments((ps) => [...ps, { payment_method_id: methods[0]!.id, amount: '', is_cash: methods[0]!.payment_type === 'cash' }])} />
              <p>{t('pos.paid')} <span data-testid="pos-paid">{formatMoney(pay.paid)}</span>
                {pay.problem === 'underpaid' && <> · {t('pos.due')} <span data-testid="pos-due">{formatMoney(pay.due)}</span></>}
                {pay.problem === 'overpaid_non_cash' && <> · {t('pos.non_cash_over')}</>}
                {!pay.problem && <> · {t('pos.change')} <strong data-testid="pos-change">{formatMoney(pay.change)}</strong></>}</p>
              <Button type="button" label={t('pos.pay')} icon="pi pi-check" disabled={busy || pay.problem !== null} onClick={() => { void submit(); }} data-testid="pos-submit" />
            </fieldset>
          )}
          {sold && (
            <div className="bo-toolbar" data-testid="pos-sold">
              <span>{String(sold.doc_no)} · {t('pos.change')} <strong data-testid="pos-sold-change" style={{ fontSize: '1.5em' }}>{formatMoney(Number(sold.change_amount))}</strong></span>
              <Button type="button" label={t('pos.print')} icon="pi pi-print" outlined onClick={() => { print(Number(sold.id)).catch((e: ApiError) => setError(e.message)); }} data-testid="pos-print" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
