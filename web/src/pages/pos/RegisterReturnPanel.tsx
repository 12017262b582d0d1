import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../core/http-client.ts';
import { formatMoney } from '../documents/money-format.ts';
import { previewReturn, type ReturnPreview } from './sale-return-preview.ts';
import { SupervisorPinPanel } from './SupervisorPinPanel.tsx';
import './pos-i18n.ts';
import './pos-dialog.css';

type Row = Record<string, any>;
type Step = { kind: 'return'; preview: ReturnPreview } | { kind: 'void' } | null;
export interface ReturnDone { kind: 'return' | 'void'; docNo: string; amount: number; creditNote: string | null }

const q = (filter: unknown) => JSON.stringify(filter);
/** What is left of a line to return, exact to the 4 decimals quantities have. */
const leftOf = (l: Row) => Math.round((Number(l.qty ?? 0) - Number(l.returned_qty ?? 0)) * 10_000) / 10_000;

/**
 * Returns and voids at the register (issue 51 §2), by keyboard: the sale's number scanned from its slip or typed
 * (its bill number or its tax invoice number; the shift's recent sales are offered), then a quantity per line to
 * give back (`POST /api/pos_order/{id}/return`) or the whole bill voided (`…/actions/refund`), confirmed with the
 * amount worked out by the server's own arithmetic (sale-return-preview.ts). The server judges who may: when it
 * refuses the cashier (403), the หัวหน้าอนุมัติ dialog asks a supervisor's user name and PIN and the same call is
 * sent again with them. A return of a sale with a full tax invoice issues its credit note, whose number is shown.
 */
export function RegisterReturnPanel({ shiftId, lastNo, onDone, onCancel }: { shiftId: number; lastNo: string | null; onDone: (done: ReturnDone) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [no, setNo] = useState(lastNo ?? '');
  const [recent, setRecent] = useState<Row[]>([]);
  const [sale, setSale] = useState<Row | null>(null);
  const [qty, setQty] = useState<Record<number, string>>({});
  const [reason, setReason] = useState('');
  const [step, setStep] = useState<Step>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pin, setPin] = useState<{ error: string | null } | null>(null);
  const find = useRef<HTMLInputElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    find.current?.select();
    api.get<{ data: Row[] }>('/api/pos_order', { searchParams: { filter: q({ pos_shift_id: { _eq: shiftId } }), sort: '-id', limit: 5, fields: 'id,doc_no,tax_invoice_no,total_amount,status' } })
      .then((r) => setRecent(r.data), () => undefined);
  }, [shiftId]);
  // the keys stay with the panel: the confirmation, else the first box left to return, else the panel itself (Esc still works)
  useEffect(() => {
    if (step) confirm.current?.focus();
    else if (sale) (first.current && !first.current.disabled ? first.current : body.current)?.focus();
  }, [step, sale]);

  const lines = (sale?.items ?? []) as Row[];
  const wanted = lines.map((l) => Number(qty[Number(l.id)] || 0));
  const paid = sale?.status === 'paid';

  const open = async (id: number) => {
    const r = await api.get<{ data: Row }>(`/api/pos_order/${id}`);
    setSale(r.data);
    setQty({});
    setStep(null);
    setError(null);
  };
  const lookUp = async (text: string) => {
    const number = text.trim();
    if (!number) { setError(t('pos.rt.no_number')); return; }
    setBusy(true);
    try {
      // a slip carries the bill number and, when there is one, the tax invoice number: either finds the sale
      for (const field of ['doc_no', 'tax_invoice_no']) {
        const r = await api.get<{ data: Row[] }>('/api/pos_order', { searchParams: { filter: q({ [field]: { _eq: number } }), limit: 1, fields: 'id' } });
        if (r.data[0]) { await open(Number(r.data[0].id)); return; }
      }
      setError(t('pos.rt.not_found', { no: number }));
      find.current?.select();
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };

  const ask = () => {
    setError(null);
    if (wanted.some((n, i) => !Number.isFinite(n) || n < 0 || n > leftOf(lines[i]!))) { setError(t('pos.return.over')); return; }
    if (!wanted.some((n) => n > 0)) { setError(t('pos.return.nothing')); return; }
    setStep({ kind: 'return', preview: previewReturn(sale!, lines, (sale!.payments ?? []) as Row[], (sale!.refunds ?? []) as Row[], wanted) });
  };

  /** Sends the confirmed return or void; a 403 asks a supervisor, whose approval sends it again. */
  const send = async (approval?: { who: string; pin: string }) => {
    if (!sale || !step) return;
    setBusy(true);
    const headers = approval ? { headers: { 'x-supervisor': approval.who, 'x-supervisor-pin': approval.pin } } : {};
    const why = reason.trim() ? { refund_reason: reason.trim() } : {};
    try {
      if (step.kind === 'void') {
        await api.post(`/api/pos_order/${sale.id}/actions/refund`, why, headers);
        onDone({ kind: 'void', docNo: String(sale.doc_no), amount: Number(sale.total_amount) - Number(sale.returned_amount ?? 0), creditNote: null });
      } else {
        const items = lines.flatMap((l, i) => (wanted[i]! > 0 ? [{ line_id: Number(l.id), qty: wanted[i] }] : []));
        const r = await api.post<{ meta: { returned: { amount: number; credit_note?: { doc_no: string } | null } } }>(`/api/pos_order/${sale.id}/return`, { items, ...why }, headers);
        onDone({ kind: 'return', docNo: String(sale.doc_no), amount: Number(r.meta.returned.amount), creditNote: r.meta.returned.credit_note?.doc_no ?? null });
      }
    } catch (err) {
      const e = err as ApiError;
      if (e.status === 403) setPin({ error: approval ? e.message : null });
      else { setPin(null); setStep(null); setError(e.message); }
    } finally { setBusy(false); }
  };

  const keys = (e: React.KeyboardEvent) => {
    if (e.key !== 'Escape' || pin) return;
    e.stopPropagation();
    if (step) setStep(null); else if (sale) { setSale(null); setTimeout(() => find.current?.select(), 0); } else onCancel();
  };
  const money = (n: unknown) => formatMoney(Number(n ?? 0));

  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.rt.title')} data-testid="pos-return-panel" onKeyDown={keys}>
      <div className="bo-pos-modal-body" ref={body} tabIndex={-1}>
        <h2>{t('pos.rt.title')}</h2>
        {!sale && (
          <form onSubmit={(e) => { e.preventDefault(); void lookUp(no); }} className="bo-pos-field">
            <label className="bo-pos-field">{t('pos.rt.find')}
              <input ref={find} className="p-inputtext p-component bo-pos-big-input" autoFocus autoComplete="off" value={no} onChange={(e) => setNo(e.target.value)} data-testid="pos-return-no" />
            </label>
            {recent.length > 0 && (
              <div className="bo-pos-actions" style={{ justifyContent: 'flex-start' }} aria-label={t('pos.rt.recent')}>
                {recent.map((r) => (
                  <button key={r.id} type="button" className="bo-pos-key" data-testid="pos-return-recent" onClick={() => { void open(Number(r.id)).catch((err: ApiError) => setError(err.message)); }}>
                    {String(r.doc_no)} · {money(r.total_amount)}{r.status !== 'paid' ? ` (${t('pos.rt.voided')})` : ''}
                  </button>
                ))}
              </div>
            )}
          </form>
        )}
        {sale && (
          <form onSubmit={(e) => { e.preventDefault(); if (step) void send(); else ask(); }}>
            <p data-testid="pos-return-sale">
              <strong>{String(sale.doc_no)}</strong>{sale.tax_invoice_no ? ` · ${String(sale.tax_invoice_no)}` : ''} · {t('pos.total')} {money(sale.total_amount)}
              {Number(sale.returned_amount) > 0 && <> · {t('pos.rt.returned_so_far', { amount: money(sale.returned_amount) })}</>}
            </p>
            {!paid && <p className="bo-error-text" role="alert" data-testid="pos-return-closed">{t('pos.rt.not_paid')}</p>}
            <table className="bo-table">
              <thead><tr><th>{t('pos.product')}</th><th className="bo-num-cell">{t('pos.return.sold')}</th><th className="bo-num-cell">{t('pos.return.returned')}</th><th className="bo-num-cell">{t('pos.return.qty')}</th></tr></thead>
              <tbody>
                {lines.map((l, i) => {
                  const left = leftOf(l);
                  const id = Number(l.id);
                  return (
                    <tr key={id} data-testid="pos-return-line">
                      <td>{String(l.description || `#${String(l.product_id)}`)}</td>
                      <td className="bo-num-cell">{Number(l.qty)}</td>
                      <td className="bo-num-cell">{Number(l.returned_qty ?? 0)}</td>
                      <td className="bo-num-cell">
                        <input ref={i === lines.findIndex((x) => leftOf(x) > 0) ? first : undefined} type="number" className="p-inputtext p-component bo-num-input" min={0} max={left} step="any" inputMode="decimal"
                          disabled={!paid || left <= 0 || !!step} placeholder="0" value={qty[id] ?? ''} aria-label={`${t('pos.return.qty')} ${String(l.description ?? i + 1)}`}
                          onFocus={(e) => e.target.select()} onChange={(e) => setQty((x) => ({ ...x, [id]: e.target.value }))} data-testid="pos-return-qty" />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {paid && (
              <label className="bo-pos-field">{t('pos.return.reason')}
                <input className="p-inputtext p-component" value={reason} maxLength={1000} disabled={!!step} onChange={(e) => setReason(e.target.value)} data-testid="pos-return-reason" />
              </label>
            )}
            {step?.kind === 'return' && (
              <div role="alertdialog" aria-label={t('pos.return.confirm_title')} data-testid="pos-return-confirm-box">
                <strong>{t('pos.return.confirm_title')}</strong>
                <div>{t('pos.return.amount')}: <strong data-testid="pos-return-amount">{money(step.preview.amount)}</strong> ({t('pos.return.vat')} {money(step.preview.vat)})</div>
                {step.preview.whole && <div>{t('pos.return.whole')}</div>}
                {!step.preview.whole && sale.invoice_type === 'full' && <div data-testid="pos-return-note-hint">{t('pos.rt.credit_note', { no: String(sale.tax_invoice_no) })}</div>}
              </div>
            )}
            {step?.kind === 'void' && (
              <div role="alertdialog" aria-label={t('pos.rt.void_title')} data-testid="pos-void-confirm-box">
                <strong>{t('pos.rt.void_title')}</strong>
                <div>{t('pos.rt.void_amount', { amount: money(Number(sale.total_amount) - Number(sale.returned_amount ?? 0)) })}</div>
              </div>
            )}
            {error && <p role="alert" className="bo-error-text" data-testid="pos-return-error">{error}</p>}
            <div className="bo-pos-actions" style={{ marginTop: 8 }}>
              <button type="button" className="bo-pos-key" onClick={() => { if (step) setStep(null); else { setSale(null); setTimeout(() => find.current?.select(), 0); } }} data-testid="pos-return-back">{t('pos.return.back')}</button>
              {paid && !step && <button type="button" className="bo-pos-key" disabled={busy} onClick={() => { setError(null); setStep({ kind: 'void' }); }} data-testid="pos-void">{t('pos.rt.void')}</button>}
              {paid && !step && <button type="submit" className="bo-pos-key bo-pos-primary" disabled={busy} data-testid="pos-return-submit">{t('pos.return.submit')}</button>}
              {step && <button ref={confirm} type="submit" className="bo-pos-key bo-pos-primary" disabled={busy} data-testid="pos-return-confirm">{step.kind === 'void' ? t('pos.rt.void_confirm') : t('pos.return.confirm')}</button>}
            </div>
          </form>
        )}
        {!sale && error && <p role="alert" className="bo-error-text" data-testid="pos-return-error">{error}</p>}
        {!sale && (
          <div className="bo-pos-actions">
            <button type="button" className="bo-pos-key" onClick={onCancel} data-testid="pos-return-cancel">{t('pos.back_to_sale')}</button>
            <button type="button" className="bo-pos-key bo-pos-primary" disabled={busy} onClick={() => { void lookUp(no); }} data-testid="pos-return-find">{t('pos.rt.find_button')}</button>
          </div>
        )}
        <p className="bo-muted" style={{ margin: 0, fontSize: 12 }}>{t('pos.rt.keys')}</p>
      </div>
      {pin && (
        <SupervisorPinPanel what={step?.kind === 'void' ? t('pos.rt.void') : t('pos.return.submit')} error={pin.error} busy={busy}
          onApprove={(who, code) => { void send({ who, pin: code }); }} onCancel={() => { setPin(null); confirm.current?.focus(); }} />
      )}
    </div>
  );
}
