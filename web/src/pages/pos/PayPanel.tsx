import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import QRCode from 'qrcode';
import { formatMoney } from '../documents/money-format.ts';
import { promptPayIdOf, promptPayPayload } from '../../../../engine/documents/promptpay-payload.ts';
import { payState, quickCash, type PaymentRow } from './register-cart.ts';

export interface PayMethod { id: number; name_th: string; payment_type: string; requires_reference?: boolean | number | null }
export interface PaidRow { payment_method_id: number; amount: number; reference?: string }

const fixed = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/**
 * The payment step (issue 51 §2): one tap per method, the amount still due already in a non-cash row, the exact
 * amount and the next banknotes as buttons for cash, the change shown large, the reference a method asks for,
 * and for PromptPay the QR of the amount on screen. A PromptPay row is paid only when the cashier confirms the
 * transfer arrived: the sale is not sent before (the confirm button stays off).
 */
export function PayPanel({ total, methods, defaultMethodId, sellerPromptPay, busy, error, onConfirm, onCancel }: {
  total: number; methods: PayMethod[]; defaultMethodId: number | null; sellerPromptPay: string | null; busy: boolean; error: string | null;
  onConfirm: (rows: PaidRow[]) => void; onCancel: () => void;
}) {
  const { t } = useTranslation();
  const first = methods.find((m) => m.id === defaultMethodId) ?? methods.find((m) => m.payment_type === 'cash') ?? methods[0];
  const rowFor = (m: PayMethod | undefined, due: number): PaymentRow => ({ payment_method_id: m?.id ?? 0, is_cash: m?.payment_type === 'cash', amount: m && m.payment_type !== 'cash' ? fixed(due) : '', reference: '' });
  const [rows, setRows] = useState<PaymentRow[]>(() => [rowFor(first, total)]);
  const [active, setActive] = useState(0);
  const [qrConfirmed, setQrConfirmed] = useState(false);
  const [qrImage, setQrImage] = useState<string | null>(null);
  const received = useRef<HTMLInputElement>(null);
  const method = (id: number) => methods.find((m) => m.id === id);
  const state = payState(total, rows);
  const others = rows.reduce((s, r, i) => (i === active ? s : s + (Number(r.amount) || 0)), 0);
  const dueHere = Math.max(0, Math.round((total - others) * 100) / 100);
  const row = rows[active]!;
  const current = method(row.payment_method_id);
  const isQr = current?.payment_type === 'qr';
  const qrRow = rows.find((r) => method(r.payment_method_id)?.payment_type === 'qr');
  // the money is the issuing company's: the QR pays the sale's company (the terminal's), whichever method shows it
  const qrId = promptPayIdOf(sellerPromptPay) ? sellerPromptPay : null;
  // the server refuses the same (reference_required); cash never asks for one
  const needsRef = (m: PayMethod | undefined) => !!m && m.payment_type !== 'cash' && truthy(m.requires_reference);
  const missingRef = rows.some((r) => needsRef(method(r.payment_method_id)) && !(r.reference ?? '').trim());
  const ready = !busy && state.problem === null && !missingRef && (!qrRow || qrConfirmed);

  useEffect(() => { received.current?.focus(); received.current?.select(); }, [active, row.payment_method_id]);
  const qrAmount = isQr ? Math.round((Number(row.amount) || 0) * 100) : 0;
  const payload = useMemo(() => (isQr && qrId && qrAmount > 0 ? promptPayPayload(qrId, qrAmount, null).payload : null), [isQr, qrId, qrAmount]);
  // a confirmation is of one amount: a changed amount is a new QR to check
  useEffect(() => { setQrConfirmed(false); }, [qrAmount]);
  useEffect(() => {
    setQrImage(null);
    if (payload) QRCode.toDataURL(payload, { errorCorrectionLevel: 'M', margin: 2, width: 260 }).then(setQrImage, () => setQrImage(null));
  }, [payload]);

  const update = (patch: Partial<PaymentRow>) => setRows((rs) => rs.map((r, i) => (i === active ? { ...r, ...patch } : r)));
  const choose = (m: PayMethod) => {
    setQrConfirmed(false);
    update({ payment_method_id: m.id, is_cash: m.payment_type === 'cash', amount: m.payment_type === 'cash' ? '' : fixed(dueHere), reference: '' });
  };
  const split = () => {
    const left = Math.max(0, Math.round((total - rows.reduce((s, r) => s + (Number(r.amount) || 0), 0)) * 100) / 100);
    const cash = methods.find((m) => m.payment_type === 'cash') ?? methods[0];
    setRows((rs) => [...rs, { ...rowFor(cash, left), amount: '' }]);
    setActive(rows.length);
  };
  const confirm = () => {
    if (!ready) return;
    onConfirm(rows.filter((r) => Number(r.amount) > 0).map((r) => ({ payment_method_id: r.payment_method_id, amount: Number(r.amount), ...(r.reference?.trim() ? { reference: r.reference.trim() } : {}) })));
  };

  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.payments')} data-testid="pos-pay-panel"
      onKeyDown={(e) => { if (e.key === 'Escape') { e.preventDefault(); onCancel(); } }}>
      <div className="bo-pos-modal-body bo-pos-paybox">
        <div className="bo-pos-due"><span>{t('pos.total')}</span><strong data-testid="pos-pay-total">{formatMoney(total)}</strong></div>
        <div className="bo-pos-methods">
          {methods.map((m) => (
            <button key={m.id} type="button" className={`bo-pos-key${m.id === row.payment_method_id ? ' on' : ''}`} data-testid="pos-method" data-type={m.payment_type} onClick={() => choose(m)}>{m.name_th}</button>
          ))}
        </div>
        {rows.length > 1 && (
          <ul className="bo-pos-rows" data-testid="pos-pay-rows">
            {rows.map((r, i) => (
              <li key={i}><button type="button" className={`bo-pos-link${i === active ? ' on' : ''}`} onClick={() => setActive(i)}>{method(r.payment_method_id)?.name_th ?? ''}: {r.amount ? formatMoney(Number(r.amount)) : '—'}</button></li>
            ))}
          </ul>
        )}
        <label className="bo-pos-field">{t('pos.received')}
          <input ref={received} className="p-inputtext p-component bo-pos-big-input" inputMode="decimal" value={row.amount} data-testid="pos-received"
            onChange={(e) => update({ amount: e.target.value })} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); confirm(); } }} />
        </label>
        {row.is_cash && (
          <div className="bo-pos-quick">
            <button type="button" className="bo-pos-key" data-testid="pos-exact" onClick={() => update({ amount: fixed(dueHere) })}>{t('pos.exact')} {formatMoney(dueHere)}</button>
            {quickCash(dueHere).map((v) => <button key={v} type="button" className="bo-pos-key" data-testid="pos-quick-cash" onClick={() => update({ amount: fixed(v) })}>{formatMoney(v)}</button>)}
          </div>
        )}
        {current && current.payment_type !== 'cash' && (
          <label className="bo-pos-field">{t('pos.reference')}{needsRef(current) ? ' *' : ''}
            <input className="p-inputtext p-component" value={row.reference ?? ''} data-testid="pos-reference" maxLength={100}
              onChange={(e) => update({ reference: e.target.value })} onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); confirm(); } }} />
          </label>
        )}
        {isQr && (
          <div className="bo-pos-qr">
            {qrImage ? <img src={qrImage} alt={t('pos.qr_alt')} width={220} height={220} data-testid="pos-qr" /> : <p className="bo-error-text">{qrId ? '' : t('pos.no_promptpay')}</p>}
            <div>{t('pos.qr_amount')} <strong>{formatMoney(qrAmount / 100)}</strong></div>
            <button type="button" className={`bo-pos-key${qrConfirmed ? ' on' : ''}`} data-testid="pos-qr-confirm" disabled={!qrImage} onClick={() => setQrConfirmed(true)}>
              {qrConfirmed ? t('pos.qr_confirmed') : t('pos.qr_confirm')}
            </button>
          </div>
        )}
        <div className="bo-pos-change">
          {state.problem === 'underpaid' && <span>{t('pos.due')} <strong data-testid="pos-due">{formatMoney(state.due)}</strong></span>}
          {state.problem === 'overpaid_non_cash' && <span className="bo-error-text">{t('pos.non_cash_over')}</span>}
          {!state.problem && <span>{t('pos.change')} <strong data-testid="pos-change">{formatMoney(state.change)}</strong></span>}
        </div>
        {missingRef && <p className="bo-muted">{t('pos.reference_needed')}</p>}
        {error && <p role="alert" className="bo-error-text" data-testid="pos-pay-error">{error}</p>}
        <div className="bo-pos-actions">
          <button type="button" className="bo-pos-key" onClick={onCancel} data-testid="pos-pay-cancel">{t('pos.back_to_sale')}</button>
          <button type="button" className="bo-pos-key" onClick={split} disabled={state.problem !== 'underpaid'} data-testid="pos-split">{t('pos.split')}</button>
          <button type="button" className="bo-pos-key bo-pos-primary" disabled={!ready} onClick={confirm} data-testid="pos-pay-confirm">{t('pos.confirm_pay')}</button>
        </div>
      </div>
    </div>
  );
}
