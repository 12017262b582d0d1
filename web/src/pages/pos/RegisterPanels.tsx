import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ApiError } from '../../core/http-client.ts';
import { formatMoney } from '../documents/money-format.ts';
import type { HeldBill } from './register-data.ts';
import type { QueuedSale } from './offline-queue.ts';

type Row = Record<string, any>;

/** Thai notes and coins counted in the drawer at close. */
const DENOMINATIONS = [1000, 500, 100, 50, 20, 10, 5, 2, 1, 0.5, 0.25] as const;

/**
 * Opening a shift with its float, and closing it: the drawer counted by denomination (or the total typed), then
 * the expected cash, the counted cash and the difference as the server worked them out.
 */
export function ShiftPanel({ terminalId, shift, busy, setBusy, onOpened, onClosed, onCancel }: {
  terminalId: number; shift: Row | null; busy: boolean; setBusy: (b: boolean) => void;
  onOpened: (s: Row) => void; onClosed: (closed: Row) => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [opening, setOpening] = useState('0');
  const [counted, setCounted] = useState('');
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [closed, setClosed] = useState<Row | null>(null);
  const [error, setError] = useState<string | null>(null);
  const byCount = DENOMINATIONS.reduce((s, d) => s + d * (Number(counts[d]) || 0), 0);

  const open = async () => {
    setBusy(true);
    try {
      const r = await api.post<{ data: Row }>('/api/pos_shift', { pos_id: terminalId, opening_cash: Number(opening || 0) });
      setClosed(null);
      setError(null);
      onOpened(r.data);
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };
  const close = async () => {
    setBusy(true);
    try {
      const r = await api.post<{ data: Row }>(`/api/pos_shift/${shift!.id}/actions/close`, { counted_cash: Number(counted || 0) });
      setClosed(r.data);
      setError(null);
      onClosed(r.data);
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };

  return (
    <div className="bo-pos-shift">
      {error && <p role="alert" className="bo-error-text" data-testid="pos-error">{error}</p>}
      {closed && (
        <dl data-testid="pos-closed" className="bo-pos-totals">
          <dt>{t('pos.shift_closed')}</dt><dd>{String(closed.shift_no)}</dd>
          <dt>{t('pos.expected_cash')}</dt><dd data-testid="pos-expected">{formatMoney(Number(closed.expected_cash))}</dd>
          <dt>{t('pos.counted_cash')}</dt><dd data-testid="pos-counted">{formatMoney(Number(closed.counted_cash))}</dd>
          <dt>{t('pos.difference')}</dt><dd data-testid="pos-difference">{formatMoney(Number(closed.difference))}</dd>
        </dl>
      )}
      {!shift && (
        <div className="bo-pos-row">
          <label>{t('pos.opening_cash')} <input className="p-inputtext p-component" inputMode="decimal" value={opening} onChange={(e) => setOpening(e.target.value)} data-testid="pos-opening"
            onKeyDown={(e) => { if (e.key === 'Enter' && !busy) void open(); }} /></label>
          <button type="button" className="bo-pos-key bo-pos-primary" disabled={busy} onClick={() => { void open(); }} data-testid="pos-open">{t('pos.open_shift')}</button>
        </div>
      )}
      {shift && (
        <div>
          <fieldset className="bo-pos-denoms" data-testid="pos-denominations">
            <legend>{t('pos.count_by_note')}</legend>
            {DENOMINATIONS.map((d) => (
              <label key={d}>{formatMoney(d)} ×
                <input className="p-inputtext p-component" inputMode="numeric" value={counts[d] ?? ''} data-testid="pos-denomination"
                  onChange={(e) => { const next: Record<string, string> = { ...counts, [d]: e.target.value.replace(/\D/g, '') }; setCounts(next); setCounted(DENOMINATIONS.reduce((s, x) => s + x * (Number(next[x]) || 0), 0).toFixed(2)); }} />
              </label>
            ))}
            <div>{t('pos.counted_total')} <strong>{formatMoney(byCount)}</strong></div>
          </fieldset>
          <div className="bo-pos-row">
            <label>{t('pos.counted_cash')} <input className="p-inputtext p-component" inputMode="decimal" value={counted} autoFocus onChange={(e) => setCounted(e.target.value)} data-testid="pos-counted-input"
              onKeyDown={(e) => { if (e.key === 'Enter' && !busy && counted !== '') void close(); if (e.key === 'Escape') onCancel(); }} /></label>
            <button type="button" className="bo-pos-key bo-pos-primary" disabled={busy || counted === ''} onClick={() => { void close(); }} data-testid="pos-close-confirm">{t('pos.confirm_close')}</button>
            {/* "close shift" pressed by mistake: back to selling */}
            <button type="button" className="bo-pos-key" disabled={busy} onClick={onCancel} data-testid="pos-close-cancel">{t('pos.cancel_close')}</button>
          </div>
        </div>
      )}
    </div>
  );
}

/** The bills put aside on this terminal; taking one back puts the bill on the counter aside in its place. */
export function RecallPanel({ bills, onRecall, onCancel }: { bills: HeldBill[]; onRecall: (id: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.recall')} onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <div className="bo-pos-modal-body">
        <h2>{t('pos.recall')}</h2>
        <ul className="bo-pos-rows">
          {bills.map((b) => (
            <li key={b.id}><button type="button" className="bo-pos-key" data-testid="pos-held-bill" autoFocus onClick={() => onRecall(b.id)}>
              {new Date(b.at).toLocaleTimeString('th-TH', { hour: '2-digit', minute: '2-digit' })} · {t('pos.held_lines', { n: b.lines.length })}
            </button></li>
          ))}
        </ul>
        <button type="button" className="bo-pos-key" onClick={onCancel}>{t('pos.back_to_sale')}</button>
      </div>
    </div>
  );
}

/** Sales made offline that the server refused: shown with the reason until the cashier has dealt with them. */
export function QueuePanel({ refused, onDismiss }: { refused: QueuedSale[]; onDismiss: (key: string) => void }) {
  const { t } = useTranslation();
  if (!refused.length) return null;
  return (
    <div className="bo-pos-refused" role="alert" data-testid="pos-refused">
      <strong>{t('pos.refused_title')}</strong>
      <ul>
        {refused.map((q) => (
          <li key={q.key} data-testid="pos-refused-sale">
            {q.provisional_no} · {formatMoney(q.slip.total)} · {q.error}{' '}
            <button type="button" className="bo-pos-key" onClick={() => onDismiss(q.key)}>{t('pos.refused_seen')}</button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Pay-in and pay-out (issue 51 §2): cash put into the drawer (coins from the bank) or taken out (a small purchase),
 * always with a reason; the server records it on the shift (POST /api/pos_shift/{id}/cash) and the X/Z reports and
 * the expected cash at the close count it.
 */
export function CashMovePanel({ shiftId, onDone, onCancel }: { shiftId: number; onDone: (move: Row) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [direction, setDirection] = useState<'in' | 'out'>('in');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ready = !busy && Number(amount) > 0 && reason.trim() !== '';
  const save = async () => {
    if (!ready) return;
    setBusy(true);
    try {
      const r = await api.post<{ data: Row; meta: { move: Row } }>(`/api/pos_shift/${shiftId}/cash`, { direction, amount: Number(amount), reason: reason.trim() });
      onDone(r.meta.move);
    } catch (err) { setError((err as ApiError).message); } finally { setBusy(false); }
  };
  const enter = (e: React.KeyboardEvent) => { if (e.key === 'Enter') { e.preventDefault(); void save(); } };
  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.cash_move')} data-testid="pos-cash-panel" onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <div className="bo-pos-modal-body">
        <h2>{t('pos.cash_move')}</h2>
        <div className="bo-pos-methods">
          <button type="button" className={`bo-pos-key${direction === 'in' ? ' on' : ''}`} data-testid="pos-cash-in" onClick={() => setDirection('in')}>{t('pos.pay_in')}</button>
          <button type="button" className={`bo-pos-key${direction === 'out' ? ' on' : ''}`} data-testid="pos-cash-out" onClick={() => setDirection('out')}>{t('pos.pay_out')}</button>
        </div>
        <label className="bo-pos-field">{t('pos.cash_amount')}
          <input className="p-inputtext p-component bo-pos-big-input" inputMode="decimal" autoFocus value={amount} data-testid="pos-cash-amount" onChange={(e) => setAmount(e.target.value)} onKeyDown={enter} />
        </label>
        <label className="bo-pos-field">{t('pos.cash_reason')} *
          <input className="p-inputtext p-component" maxLength={200} value={reason} data-testid="pos-cash-reason" onChange={(e) => setReason(e.target.value)} onKeyDown={enter} />
        </label>
        {error && <p role="alert" className="bo-error-text" data-testid="pos-cash-error">{error}</p>}
        <div className="bo-pos-actions">
          <button type="button" className="bo-pos-key" onClick={onCancel}>{t('pos.back_to_sale')}</button>
          <button type="button" className="bo-pos-key bo-pos-primary" disabled={!ready} onClick={() => { void save(); }} data-testid="pos-cash-save">{t('pos.cash_save')}</button>
        </div>
      </div>
    </div>
  );
}

