import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../documents/money-format.ts';
import { readQty, unitAllowsDecimals, type CartFigures, type CartLine } from './register-cart.ts';

/**
 * The cart of the register. A quantity box edits as a person expects (issue 51 §1): typing replaces the figure,
 * Backspace leaves an empty box while the new figure is typed (the line stays), 0 asks before the line goes,
 * and a counted unit takes no fraction. Voiding a line asks too.
 */
export function CartTable({ lines, fig, promoName, favs, onQty, onRemove, onFav, onDone, setMessage }: {
  lines: CartLine[]; fig: CartFigures; promoName: (id: number | null) => string; favs: number[];
  /** Answers whether the quantity was taken (the stock check may refuse it). */
  onQty: (index: number, qty: number) => boolean;
  onRemove: (index: number) => void; onFav: (productId: number) => void; onDone: () => void; setMessage: (m: string | null) => void;
}) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [asking, setAsking] = useState<number | null>(null);
  const draft = (pid: number, v: string | undefined) => setDrafts((d) => { const n = { ...d }; if (v === undefined) delete n[pid]; else n[pid] = v; return n; });

  const type = (i: number, l: CartLine, text: string) => {
    const r = readQty(text, unitAllowsDecimals(l.unit));
    if (r.kind === 'no_decimals') { setMessage(t('pos.whole_units', { unit: l.unit ?? '' })); return; }
    if (r.kind === 'invalid') return;
    draft(l.product_id, text);
    setMessage(null);
    if (r.kind === 'zero') setAsking(l.product_id);
    if (r.kind === 'qty' && !onQty(i, r.qty)) draft(l.product_id, String(l.qty));
  };

  return (
    <div className="bo-pos-cart-wrap">
      <table className="bo-table bo-pos-cart" data-testid="pos-cart">
        <thead><tr><th>{t('pos.product')}</th><th className="bo-num-cell">{t('pos.qty')}</th><th className="bo-num-cell">{t('pos.price')}</th><th className="bo-num-cell">{t('pos.discount')}</th><th className="bo-num-cell">{t('pos.amount')}</th><th /></tr></thead>
        <tbody>
          {lines.map((l, i) => (
            <tr key={l.product_id} data-testid="pos-line">
              <td>
                <button type="button" className={`bo-pos-star${favs.includes(l.product_id) ? ' on' : ''}`} aria-label={t('pos.favourite')} title={t('pos.favourite')} onClick={() => onFav(l.product_id)}>★</button>
                {l.code} {l.name}
                {fig.lines[i]?.promotion_id ? <div className="bo-muted" data-testid="pos-line-promo">{t('pos.promotion')}: {promoName(fig.lines[i]!.promotion_id)}</div> : null}
                {asking === l.product_id && (
                  <div className="bo-pos-ask" data-testid="pos-remove-ask">{t('pos.remove_ask')}{' '}
                    <button type="button" className="bo-pos-key" data-testid="pos-remove-yes" onClick={() => { setAsking(null); draft(l.product_id, undefined); onRemove(i); }}>{t('pos.remove')}</button>{' '}
                    <button type="button" className="bo-pos-key" data-testid="pos-remove-no" onClick={() => { setAsking(null); draft(l.product_id, undefined); onDone(); }}>{t('pos.keep')}</button>
                  </div>
                )}
              </td>
              <td className="bo-num-cell">
                <input className="p-inputtext p-component bo-pos-qty" inputMode={unitAllowsDecimals(l.unit) ? 'decimal' : 'numeric'} aria-label={t('pos.qty')}
                  value={drafts[l.product_id] ?? String(l.qty)} data-testid="pos-qty"
                  onFocus={(e) => e.target.select()}
                  onChange={(e) => type(i, l, e.target.value)}
                  onBlur={() => { if (asking !== l.product_id) draft(l.product_id, undefined); }}
                  onKeyDown={(e) => { if (e.key === 'Enter' || e.key === 'Escape') { e.preventDefault(); draft(l.product_id, undefined); onDone(); } }} />
                {l.unit && <div className="bo-muted bo-pos-unit">{l.unit}</div>}
              </td>
              <td className="bo-num-cell">{formatMoney(l.price)}</td>
              <td className="bo-num-cell" data-testid="pos-line-discount">{formatMoney(fig.lines[i]?.discount ?? 0)}</td>
              <td className="bo-num-cell">{formatMoney(fig.lines[i]?.amount ?? 0)}</td>
              <td><button type="button" className="bo-pos-void" aria-label={t('pos.void_line')} title={t('pos.void_line')} data-testid="pos-void" onClick={() => setAsking(l.product_id)}>✕</button></td>
            </tr>
          ))}
          {!lines.length && <tr><td colSpan={6} className="bo-muted">{t('pos.empty')}</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
