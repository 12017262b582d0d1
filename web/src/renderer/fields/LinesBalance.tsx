import { useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FormValues } from '../form-model.ts';

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A money input's value in satang (a number, or a decimal text as typed); what cannot be read counts as 0. */
export function satangOf(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(String(v ?? '').replace(/,/g, ''));
  return Number.isFinite(n) ? Math.round(n * 100) : 0;
}

/** Σ of the two fields over the lines, in satang, and their difference (debit − credit). */
export function linesBalance(lines: unknown, debit: string, credit: string): { debit: number; credit: number; difference: number } {
  let d = 0;
  let c = 0;
  for (const l of Array.isArray(lines) ? (lines as Record<string, unknown>[]) : []) { d += satangOf(l?.[debit]); c += satangOf(l?.[credit]); }
  return { debit: d, credit: c, difference: d - c };
}

/**
 * Under a lines grid whose field declares `balance` (a journal voucher): the debit and credit totals and their
 * difference (ผลต่าง), live as the lines are typed; the difference is red until it is zero.
 */
export function LinesBalance({ name, control, balance }: { name: string; control: Control<FormValues>; balance: { debit: string; credit: string } }) {
  const { t } = useTranslation();
  const lines = useWatch({ control, name: name as never });
  const b = linesBalance(lines, balance.debit, balance.credit);
  const baht = (s: number) => MONEY.format(s / 100);
  return (
    <div className="bo-lines-balance" data-testid="lines-balance" data-difference={(b.difference / 100).toFixed(2)} role="status" aria-live="polite">
      <span>{t('form.balance_debit')} <strong data-testid="lines-balance-debit">{baht(b.debit)}</strong></span>
      <span>{t('form.balance_credit')} <strong data-testid="lines-balance-credit">{baht(b.credit)}</strong></span>
      <span className={b.difference === 0 ? 'bo-balance-ok' : 'bo-balance-off'}>
        {t('form.balance_difference')} <strong data-testid="lines-balance-difference">{baht(Math.abs(b.difference))}</strong>
        {b.difference !== 0 && <> ({b.difference > 0 ? t('form.balance_debit_over') : t('form.balance_credit_over')})</>}
      </span>
    </div>
  );
}
