import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './pos-i18n.ts';
import './pos-dialog.css';

/**
 * A supervisor's approval (issue 51 §2): a cashier's role may not give back, void or print again on its own; a
 * supervisor types their user name and PIN here and the server judges them (x-supervisor, x-supervisor-pin).
 * The register's reprint and the sale form's void (a workflow action's approval, pos-form-panels.tsx) use it.
 */
export function SupervisorPinPanel({ what, error, busy, onApprove, onCancel }: { what: string; error: string | null; busy: boolean; onApprove: (who: string, pin: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [who, setWho] = useState('');
  const [pin, setPin] = useState('');
  const ready = !busy && who.trim() !== '' && /^\d{4,8}$/.test(pin);
  const enter = (e: React.KeyboardEvent) => { if (e.key === 'Enter' && ready) { e.preventDefault(); onApprove(who.trim(), pin); } };
  return (
    <div className="bo-pos-modal" role="dialog" aria-modal="true" aria-label={t('pos.pin_title')} data-testid="pos-pin-panel" onKeyDown={(e) => { if (e.key === 'Escape') onCancel(); }}>
      <div className="bo-pos-modal-body">
        <h2>{t('pos.pin_title')}</h2>
        <p className="bo-muted">{t('pos.pin_why', { what })}</p>
        <label className="bo-pos-field">{t('pos.pin_user')}
          <input className="p-inputtext p-component" autoFocus autoComplete="off" value={who} data-testid="pos-pin-user" onChange={(e) => setWho(e.target.value)} onKeyDown={enter} />
        </label>
        <label className="bo-pos-field">{t('pos.pin_code')}
          <input className="p-inputtext p-component bo-pos-big-input" type="password" inputMode="numeric" autoComplete="off" maxLength={8} value={pin} data-testid="pos-pin-code" onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))} onKeyDown={enter} />
        </label>
        {error && <p role="alert" className="bo-error-text" data-testid="pos-pin-error">{error}</p>}
        <div className="bo-pos-actions">
          <button type="button" className="bo-pos-key" onClick={onCancel}>{t('pos.back_to_sale')}</button>
          <button type="button" className="bo-pos-key bo-pos-primary" disabled={!ready} onClick={() => onApprove(who.trim(), pin)} data-testid="pos-pin-ok">{t('pos.pin_ok')}</button>
        </div>
      </div>
    </div>
  );
}
