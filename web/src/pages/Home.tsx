import { useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { menuAtom, type MenuItem } from '../core/app-data.ts';
import { sessionAtom } from '../core/session-atoms.ts';
import { api } from '../core/http-client.ts';
import { fetchEntityMeta, fetchEntitySummaries } from '../core/entity-meta.ts';
import { loc } from '../core/i18n.ts';
import { mostVisited } from '../core/visit-memory.ts';
import { notificationNumberAtom } from '../core/socket-client.ts';
import { formatIsoDateTime } from '../core/thai-dates.ts';
import { PageTitle } from '../ui/PageTitle.tsx';

type Item = MenuItem & { text: string };
interface Recent { item: Item; titleField: string; rows: Array<Record<string, unknown>> }
interface AlertRow { id: number; title: string; due_at: string }

const RECENT_SCREENS = 3;
const COUNT_CONCURRENCY = 4;

/** Runs `work` over `items`, a few at a time (two CPU cores serve many users). */
async function pool<T>(items: T[], work: (x: T) => Promise<void>, size = COUNT_CONCURRENCY): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

/**
 * Home as a dashboard of what this user may see: shortcuts to their most used
 * screens (remembered in this browser), their unread alerts, how many records
 * each of their screens holds, and the latest changes on the screens they use most.
 * Only entity screens of the user's menu are asked for, so every number is one they may read.
 */
export default function Home() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const session = useAtomValue(sessionAtom);
  const menu = useAtomValue(menuAtom);
  const unread = useAtomValue(notificationNumberAtom);
  const items: Item[] = useMemo(() => (menu.status === 'loaded' ? menu.data.menuList : [])
    .flatMap((g) => g.submenu.map((s) => ({ ...s, text: t(`menu.${s.keyAction}`, { defaultValue: loc(s.label, lang) || s.keyAction }) }))), [menu, t, lang]);
  // the entities' names: a menu entry is counted only when it is an entity's list (/{entity}); a report, a
  // create-from screen or another screen has no /api/{name} list, and asking would be a 404 in the console
  const [entityNames, setEntityNames] = useState<Set<string> | null>(null);
  useEffect(() => {
    let live = true;
    fetchEntitySummaries().then((list) => { if (live) setEntityNames(new Set(list.filter((e) => e.kind !== 'lines' && e.kind !== 'singleton').map((e) => e.name))); }, () => live && setEntityNames(new Set()));
    return () => { live = false; };
  }, []);
  const isList = (i: Item) => !!entityNames?.has(i.path.split('/')[1]!) && i.path === `/${i.path.split('/')[1]!}`;
  const lists = useMemo(() => (entityNames ? items.filter(isList) : []), [items, entityNames]); // eslint-disable-line react-hooks/exhaustive-deps
  const byPath = useMemo(() => new Map(items.map((i) => [i.path, i])), [items]);
  const shortcuts = mostVisited(session.id).map((p) => byPath.get(p)).filter((x): x is Item => !!x);
  const [counts, setCounts] = useState<Record<string, number | null>>({});
  const [recent, setRecent] = useState<Recent[] | null>(null);
  const [alerts, setAlerts] = useState<AlertRow[] | null>(null);

  // counts of every screen in the menu
  useEffect(() => {
    if (lists.length === 0) return;
    const ctl = new AbortController();
    void pool(lists, async (it) => {
      const name = it.path.split('/')[1]!;
      const r = await api.get<{ meta?: { total_count?: number } }>(`/api/${name}`, { searchParams: { limit: 1, fields: 'id', meta: 'total_count' }, signal: ctl.signal })
        .catch(() => null);
      if (!ctl.signal.aborted) setCounts((c) => ({ ...c, [it.path]: r?.meta?.total_count ?? null }));
    });
    return () => ctl.abort();
  }, [lists]);

  // the latest changes on the screens used most (else the first screens of the menu)
  useEffect(() => {
    if (lists.length === 0) { if (entityNames) setRecent([]); return; }
    let live = true;
    const chosen = [...shortcuts.filter((i) => lists.includes(i)), ...lists.filter((i) => !shortcuts.includes(i))].slice(0, RECENT_SCREENS);
    void Promise.all(chosen.map(async (item) => {
      const name = item.path.split('/')[1]!;
      try {
        const meta = await fetchEntityMeta(name);
        const titleField = meta.entity.titleField;
        const r = await api.get<{ data: Array<Record<string, unknown>> }>(`/api/${name}`, { searchParams: { limit: 5, sort: '-updated_at', fields: `id,${titleField},updated_at` } });
        return { item, titleField, rows: r.data };
      } catch {
        return null;
      }
    })).then((list) => { if (live) setRecent(list.filter((x): x is Recent => x !== null)); });
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lists]);

  // unread alerts that are due, for this user only
  useEffect(() => {
    if (!byPath.has('/alert') || session.id === null) { setAlerts([]); return; }
    const filter = { _and: [{ is_read: { _eq: false } }, { due_at: { _lte: new Date().toISOString() } }, { user_id: { _eq: session.id } }] };
    api.get<{ data: AlertRow[] }>('/api/alert', { searchParams: { filter: JSON.stringify(filter), sort: '-due_at', limit: 5, fields: 'id,title,due_at' } })
      .then((r) => setAlerts(r.data), () => setAlerts([]));
  }, [byPath, session.id, unread]);

  return (
    <section className="bo-page bo-home" data-testid="home-dashboard">
      <PageTitle>{t('home.welcome', { name: session.username })}</PageTitle>
      <div className="bo-home-grid">
        <div className="bo-card bo-home-shortcuts">
          <h2><i className="pi pi-bolt" aria-hidden="true" /> {t('home.shortcuts')}</h2>
          {shortcuts.length === 0
            ? <p className="bo-muted">{t('home.shortcuts_empty')}</p>
            : <div className="bo-shortcut-list">{shortcuts.map((s) => <Link key={s.path} to={s.path} className="bo-shortcut">{s.icon && <i className={s.icon} aria-hidden="true" />}{s.text}</Link>)}</div>}
        </div>
        {alerts !== null && byPath.has('/alert') && (
          <div className="bo-card">
            <h2><i className="pi pi-bell" aria-hidden="true" /> {t('home.alerts')}</h2>
            {alerts.length === 0 ? <p className="bo-muted">{t('alert.none_unread')}</p> : (
              <ul className="bo-home-list">
                {alerts.map((a) => <li key={a.id}><Link to={`/view_alert/${a.id}`}>{a.title}</Link><span className="bo-muted"> · {formatIsoDateTime(a.due_at, lang)}</span></li>)}
              </ul>
            )}
          </div>
        )}
        {(recent ?? []).map((r) => (
          <div key={r.item.path} className="bo-card">
            <h2>{t('home.recent', { name: r.item.text })}</h2>
            {r.rows.length === 0 ? <p className="bo-muted">{t('home.recent_empty')}</p> : (
              <ul className="bo-home-list">
                {r.rows.map((row) => (
                  <li key={String(row.id)}>
                    <Link to={`${r.item.path}/${String(row.id)}`}>{String(row[r.titleField] ?? `#${String(row.id)}`)}</Link>
                    {typeof row.updated_at === 'string' && <span className="bo-muted"> · {formatIsoDateTime(row.updated_at, lang)}</span>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </div>
      {items.length > 0 && (
        <div className="bo-card bo-home-counts">
          <h2>{t('home.counts')}</h2>
          <ul className="bo-count-grid">
            {items.map((it) => (
              <li key={it.path}>
                <Link to={it.path}>
                  <span className="bo-count-label">{it.text}</span>
                  <span className="bo-count-value">{counts[it.path] === undefined ? '…' : counts[it.path] === null ? '—' : counts[it.path]!.toLocaleString('en-US')}</span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="bo-muted bo-home-later">{t('home.charts_later')}</p>
    </section>
  );
}
