import { useEffect, useRef, useState } from 'react';
import { formatIsoDateTime } from '../core/thai-dates.ts';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api } from '../core/http-client.ts';
import { sessionAtom } from '../core/session-atoms.ts';
import { notificationNumberAtom } from '../core/socket-client.ts';

interface AlertRow { id: number; title: string; due_at: string; message?: string | null }

const RECENT = 8;

function when(iso: string, lang: string): string {
  return iso ? formatIsoDateTime(iso, lang) : '';
}

/** The Notification button's panel: the signed-in user's recent unread alerts (due, not read), each opening /view_alert/{id}. */
export function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const unread = useAtomValue(notificationNumberAtom);
  const [rows, setRows] = useState<AlertRow[] | null>(null);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const ctl = new AbortController();
    const filter = { _and: [{ is_read: { _eq: false } }, { due_at: { _lte: new Date().toISOString() } }, ...(session.id !== null ? [{ user_id: { _eq: session.id } }] : [])] };
    api.get<{ data: AlertRow[] }>('/api/alert', {
      searchParams: { filter: JSON.stringify(filter), sort: '-due_at', limit: RECENT, fields: 'id,title,due_at,message' }, signal: ctl.signal,
    }).then((r) => setRows(r.data), (e: unknown) => { if (!ctl.signal.aborted) { console.error('recent alerts failed:', e); setRows([]); } });
    return () => ctl.abort();
  }, [unread, session.id]);

  useEffect(() => {
    const down = (e: MouseEvent) => {
      const target = e.target as Element | null;
      if (ref.current?.contains(target) || target?.closest?.('[data-testid=notification-button]')) return;
      onClose();
    };
    const key = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    document.addEventListener('mousedown', down);
    document.addEventListener('keydown', key);
    return () => { document.removeEventListener('mousedown', down); document.removeEventListener('keydown', key); };
  }, [onClose]);

  return (
    <div className="bo-notify-panel" ref={ref} role="dialog" aria-label={t('alert.recent_unread')} data-testid="notification-panel">
      <div className="bo-notify-head">
        <strong>{t('alert.recent_unread')}</strong>
        {unread > 0 && <span className="bo-count">{unread}</span>}
      </div>
      {rows === null && <div className="bo-notify-empty"><i className="pi pi-spin pi-spinner" aria-hidden="true" /></div>}
      {rows && rows.length === 0 && <div className="bo-notify-empty">{t('alert.none_unread')}</div>}
      {rows && rows.length > 0 && (
        <ul>
          {rows.map((a) => (
            <li key={a.id}>
              <Link to={`/view_alert/${a.id}`} onClick={onClose}>
                <i className="pi pi-bell" aria-hidden="true" />
                <span className="bo-notify-text">
                  <span className="bo-notify-title">{a.title}</span>
                  {a.message && <span className="bo-notify-msg">{a.message}</span>}
                  <span className="bo-notify-when">{when(a.due_at, i18n.language)}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Link to="/alert" className="bo-notify-all" onClick={onClose}>{t('alert.see_all')} <i className="pi pi-angle-right" aria-hidden="true" /></Link>
    </div>
  );
}
