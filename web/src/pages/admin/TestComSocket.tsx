import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAtomValue } from 'jotai';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import type { Socket } from 'socket.io-client';
import { connectSocket, currentSocket, socketStateAtom, SOCKET_RECONNECTION_ATTEMPTS } from '../../core/socket-client.ts';
import { sessionAtom } from '../../core/session-atoms.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';

interface Received { at: string; event: string; payload: string }

/** /test_com_socket: the live socket's state, a ping in milliseconds, an echo test and the events received. */
export default function TestComSocket() {
  const { t } = useTranslation();
  const state = useAtomValue(socketStateAtom);
  const session = useAtomValue(sessionAtom);
  const [socket, setSocket] = useState<Socket | null>(currentSocket());
  const [transport, setTransport] = useState('—');
  const [attempts, setAttempts] = useState(0);
  const [ping, setPing] = useState<number | null>(null);
  const [pingError, setPingError] = useState('');
  const [echo, setEcho] = useState('สวัสดี hello');
  const [reply, setReply] = useState('');
  const [events, setEvents] = useState<Received[]>([]);

  // the socket loads lazily after sign-in: look for it until it is there
  useEffect(() => {
    if (socket) return;
    const timer = setInterval(() => { const s = currentSocket(); if (s) setSocket(s); }, 300);
    return () => clearInterval(timer);
  }, [socket]);

  useEffect(() => {
    if (!socket) return;
    const readTransport = () => setTransport(socket.io.engine?.transport?.name ?? '—');
    readTransport();
    const onAttempt = (n: number) => setAttempts(n);
    const onConnect = () => { setAttempts(0); readTransport(); socket.io.engine?.on('upgrade', readTransport); };
    const onAny = (event: string, ...args: unknown[]) => {
      setEvents((list) => [{ at: new Date().toLocaleTimeString(), event, payload: JSON.stringify(args.length === 1 ? args[0] : args) }, ...list].slice(0, 50));
    };
    socket.io.on('reconnect_attempt', onAttempt);
    socket.on('connect', onConnect);
    socket.onAny(onAny);
    socket.io.engine?.on('upgrade', readTransport);
    return () => {
      socket.io.off('reconnect_attempt', onAttempt);
      socket.off('connect', onConnect);
      socket.offAny(onAny);
    };
  }, [socket]);

  const doPing = useCallback(async () => {
    if (!socket) return;
    setPingError('');
    const start = performance.now();
    try {
      await socket.timeout(5000).emitWithAck('diag:ping', {});
      setPing(Math.round((performance.now() - start) * 10) / 10);
    } catch {
      setPing(null);
      setPingError(t('socket.timeout'));
    }
  }, [socket, t]);

  useEffect(() => { if (socket && state.isConnected) void doPing(); }, [socket, state.isConnected, doPing]);

  const doEcho = async () => {
    if (!socket) return;
    try {
      const r = (await socket.timeout(5000).emitWithAck('diag:echo', { text: echo })) as { ok: boolean; text?: string; error?: string };
      setReply(r.ok ? r.text ?? '' : r.error ?? '');
    } catch {
      setReply(t('socket.timeout'));
    }
  };

  return (
    <section className="bo-page">
      <PageTitle actions={<Button label={t('socket.reconnect')} icon="pi pi-refresh" outlined onClick={() => { setSocket(null); void connectSocket(session.id_token); }} />}>{t('route.test_com_socket')}</PageTitle>
      <div className="bo-stats">
        <div className="bo-card bo-stat"><span className="bo-muted">{t('socket.state')}</span><b data-testid="socket-state" className={state.isConnected ? 'bo-status-on' : 'bo-status-off'}>{state.isConnected ? t('socket.connected') : t('socket.disconnected')}</b></div>
        <div className="bo-card bo-stat"><span className="bo-muted">{t('socket.transport')}</span><b data-testid="socket-transport">{state.isConnected ? transport : '—'}</b></div>
        <div className="bo-card bo-stat"><span className="bo-muted">{t('socket.attempts')}</span><b data-testid="socket-attempts">{attempts} / {SOCKET_RECONNECTION_ATTEMPTS}</b></div>
        <div className="bo-card bo-stat"><span className="bo-muted">{t('socket.ping_time')}</span><b data-testid="socket-ping">{ping === null ? (pingError || '—') : `${ping} ms`}</b></div>
      </div>
      <div className="bo-admin-sections">
        <div className="bo-card">
          <h2>{t('socket.ping')} / {t('socket.echo')}</h2>
          <div className="bo-toolbar">
            <Button label={t('socket.ping')} icon="pi pi-bolt" outlined onClick={() => void doPing()} disabled={!state.isConnected} />
            <InputText value={echo} maxLength={2000} aria-label={t('socket.echo')} onChange={(e) => setEcho(e.target.value)} style={{ minWidth: 240 }} />
            <Button label={t('socket.echo_send')} icon="pi pi-send" onClick={() => void doEcho()} disabled={!state.isConnected} />
            <span>{t('socket.echo_reply')}: <b data-testid="socket-echo">{reply}</b></span>
          </div>
        </div>
        <div className="bo-card">
          <h2>{t('socket.events')}</h2>
          {events.length === 0 ? <p className="bo-muted">{t('socket.no_events')}</p> : (
            <table className="bo-admin-table" data-testid="socket-events">
              <tbody>{events.map((e, i) => <tr key={i}><td style={{ width: 110 }}>{e.at}</td><td className="bo-mono">{e.event}</td><td className="bo-mono">{e.payload}</td></tr>)}</tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}
