import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api } from '../../core/http-client.ts';
import { useCan } from '../../core/permissions.ts';
import { ErrorBox } from '../admin/admin-common.tsx';
import type { FormPanelProps } from '../../renderer/form/form-panels.ts';
import { previewReturn, type ReturnPreview } from './sale-return-preview.ts';
import './pos-i18n.ts';

type Row = Record<string, unknown>;
interface Returned { amount: number; vat: number; refunded_whole: boolean; refunds?: Array<{ payment_method_id: number; payment_type: string; amount: number }> }

/** What is left of a line to return, exact to the 4 decimals quantities have. */
const leftOf = (l: Row) => Math.round((Number(l.qty ?? 0) - Number(l.returned_qty ?? 0)) * 10_000) / 10_000;

/**
 * The return of part of a paid sale (`POST /api/{entity}/{id}/return`, server/pos/sale-return.ts) on the sale's form:
 * a quantity per line, a reason, then a confirmation with the money that goes back, then the server's answer. Shown
 * to a role with edit on the entity; one without the refund transition's permission key (a cashier) confirms with a
 * supervisor's user name and PIN (x-supervisor, x-supervisor-pin). The server judges both, and its refusal is shown
 * as it answered.
 */
export function SaleReturnPanel({ entity, id, record, reload }: FormPanelProps) {
  const { t, i18n } = useTranslation();
  const doc = entity.document!;
  const sale = doc.sale!;
  const flow = entity.workflow;
  const posted = flow?.transitions.find((x) => x.action === (doc.postAction ?? 'approve'))?.to;
  const refundKey = flow?.transitions.find((x) => x.action === (doc.cancelAction ?? 'cancel'))?.permission;
  const canEdit = useCan(entity.menuKey ?? entity.name, 'edit');
  const canRefund = useCan(refundKey ?? entity.menuKey ?? entity.name, 'edit');
  const lines = useMemo(() => ((record[doc.lines ?? 'items'] ?? []) as Row[]), [record, doc.lines]);
  const [qty, setQty] = useState<Record<number, string>>({});
  const [reason, setReason] = useState('');
  const [confirming, setConfirming] = useState<ReturnPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<Returned | null>(null);
  const [methods, setMethods] = useState<Map<number, string>>(new Map());
  const first = useRef<HTMLInputElement>(null);

  // a role with edit but not the refund key (a cashier) returns with a supervisor's user name and PIN, judged by the server
  const needsPin = !canRefund;
  const [supervisor, setSupervisor] = useState('');
  const [pin, setPin] = useState('');
  const open = !!posted && record[flow!.field] === posted && lines.some((l) => leftOf(l) > 0) && canEdit;
  useEffect(() => {
    if (!open || methods.size) return;
    // the methods' names for the money back (the lines hold their ids); without view on them the type is shown
    void api.get<{ data: Row[] }>('/api/payment_method?limit=200').then(
      (r) => setMethods(new Map(r.data.map((m) => [Number(m.id), String((i18n.language === 'en' ? m.name_en : m.name_th) ?? m.name_th ?? m.code)]))),
      () => undefined);
  }, [open, methods.size, i18n.language]);

  if (!open && !done) return null;
  const locale = i18n.language === 'en' ? 'en-GB' : 'th-TH';
  const num = (n: number) => n.toLocaleString(locale, { maximumFractionDigits: 4 });
  const money = (n: number) => n.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const methodName = (methodId: number, type: string) => methods.get(methodId) ?? type;
  const wanted = lines.map((l) => Number(qty[Number(l.id)] || 0));

  const ask = () => {
    setError(null);
    if (wanted.some((q, i) => !Number.isFinite(q) || q < 0 || q > leftOf(lines[i]!))) { setError(new Error(t('pos.return.over'))); return; }
    if (!wanted.some((q) => q > 0)) { setError(new Error(t('pos.return.nothing'))); return; }
    setConfirming(previewReturn(record, lines, (record[sale.payments] ?? []) as Row[], (record[sale.refunds ?? ''] ?? []) as Row[], wanted));
  };
  const back = () => { setConfirming(null); first.current?.focus(); };
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const items = lines.flatMap((l, i) => (wanted[i]! > 0 ? [{ line_id: Number(l.id), qty: wanted[i] }] : []));
      const headers = needsPin ? { headers: { 'x-supervisor': supervisor.trim(), 'x-supervisor-pin': pin } } : {};
      const r = await api.post<{ meta: { returned: Returned } }>(`/api/${entity.name}/${id}/return`, { items, ...(reason.trim() ? { refund_reason: reason.trim() } : {}) }, headers);
      setDone(r.meta.returned);
      setQty({});
      setReason('');
      setPin('');
      reload();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  return (
    <section className="bo-related" data-testid="sale-return-panel" style={{ marginTop: 16 }} onKeyDown={(e) => { if (e.key === 'Escape' && confirming) back(); }}>
      <div className="bo-related-head"><h2>{t('pos.return.title')}</h2></div>
      {done && (
        <div className="bo-related-hint" role="status" data-testid="sale-return-done" style={{ margin: '0 0 12px' }}>
          <strong>{t('pos.return.done', { amount: money(done.amount) })}</strong> <span className="bo-muted">({t('pos.return.vat')} {money(done.vat)})</span>
          {done.refunded_whole && <div>{t('pos.return.whole')}</div>}
          {(done.refunds ?? []).length > 0 && (
            <ul style={{ margin: '6px 0 0' }}>{done.refunds!.map((r) => <li key={r.payment_method_id} data-testid="sale-return-done-refund">{methodName(r.payment_method_id, r.payment_type)}: {money(r.amount)}</li>)}</ul>
          )}
        </div>
      )}
      <ErrorBox error={error} />
      {open && (
        <form onSubmit={(e) => { e.preventDefault(); if (confirming) void submit(); else ask(); }}>
          <table className="bo-table" data-testid="sale-return-lines">
            <thead><tr><th>#</th><th>{t('pos.product')}</th><th className="bo-num-cell">{t('pos.return.sold')}</th><th className="bo-num-cell">{t('pos.return.returned')}</th><th className="bo-num-cell">{t('pos.return.qty')}</th></tr></thead>
            <tbody>
              {lines.map((l, i) => {
                const left = leftOf(l);
                const lineId = Number(l.id);
                return (
                  <tr key={lineId} data-line={lineId}>
                    <td>{i + 1}</td>
                    <td>{String(l.description || `#${String(l.product_id)}`)}{l.unit ? <span className="bo-muted"> ({String(l.unit)})</span> : null}</td>
                    <td className="bo-num-cell">{num(Number(l.qty))}</td>
                    <td className="bo-num-cell" data-testid="sale-return-returned">{num(Number(l.returned_qty ?? 0))}</td>
                    <td className="bo-num-cell">
                      <input ref={i === lines.findIndex((x) => leftOf(x) > 0) ? first : undefined} type="number" className="bo-num-input" data-testid="sale-return-qty"
                        min={0} max={left} step="any" inputMode="decimal" disabled={left <= 0 || !!confirming} placeholder="0"
                        aria-label={`${t('pos.return.qty')} ${String(l.description ?? i + 1)}`} value={qty[lineId] ?? ''}
                        onChange={(e) => setQty((q) => ({ ...q, [lineId]: e.target.value }))} />
                      <div className="bo-muted" style={{ fontSize: 12 }}>{t('pos.return.left', { n: num(left) })}</div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="bo-toolbar" style={{ marginTop: 12 }}>
            <label style={{ flex: 1 }}>{t('pos.return.reason')}
              <input className="p-inputtext p-component" style={{ width: '100%' }} value={reason} maxLength={1000} disabled={!!confirming}
                onChange={(e) => setReason(e.target.value)} data-testid="sale-return-reason" />
            </label>
            {!confirming && <Button type="submit" icon="pi pi-replay" label={t('pos.return.submit')} data-testid="sale-return-submit" />}
          </div>
          {confirming && (
            <div className="bo-related-hint" role="alertdialog" aria-label={t('pos.return.confirm_title')} data-testid="sale-return-confirm-box" style={{ margin: '0 0 12px' }}>
              <strong>{t('pos.return.confirm_title')}</strong>
              <ul style={{ margin: '6px 0' }}>
                {lines.map((l, i) => (wanted[i]! > 0 ? <li key={Number(l.id)}>{String(l.description || `#${String(l.product_id)}`)} × {num(wanted[i]!)}</li> : null))}
              </ul>
              <div>{t('pos.return.amount')}: <strong data-testid="sale-return-preview-amount">{money(confirming.amount)}</strong> <span className="bo-muted">({t('pos.return.vat')} {money(confirming.vat)})</span></div>
              {confirming.whole && <div>{t('pos.return.whole')}</div>}
              {/* a whole refund is the refund action, which records no split by method */}
              {!confirming.whole && confirming.refunds.length > 0 && <div>{t('pos.return.by_method')}: {confirming.refunds.map((r) => `${methodName(r.methodId, r.type)} ${money(r.amount)}`).join(' · ')}</div>}
              {needsPin && (
                <div className="bo-toolbar" style={{ marginTop: 8, marginBottom: 0 }} data-testid="sale-return-pin">
                  <span>{t('pos.pin_why', { what: t('pos.return.title') })}</span>
                  <label>{t('pos.pin_user')} <input className="p-inputtext p-component" autoFocus autoComplete="off" value={supervisor} onChange={(e) => setSupervisor(e.target.value)} data-testid="sale-return-pin-user" /></label>
                  <label>{t('pos.pin_code')} <input className="p-inputtext p-component" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={pin} onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))} data-testid="sale-return-pin-code" /></label>
                </div>
              )}
              <div className="bo-toolbar" style={{ marginTop: 8, marginBottom: 0 }}>
                <Button autoFocus={!needsPin} type="submit" icon="pi pi-check" label={t('pos.return.confirm')} loading={busy} disabled={busy || (needsPin && (!supervisor.trim() || !/^\d{4,8}$/.test(pin)))} data-testid="sale-return-confirm" />
                <Button type="button" label={t('pos.return.back')} outlined onClick={back} disabled={busy} data-testid="sale-return-back" />
              </div>
            </div>
          )}
          <p className="bo-muted" style={{ margin: 0, fontSize: 12 }}>{t('pos.return.keys')}</p>
        </form>
      )}
    </section>
  );
}
