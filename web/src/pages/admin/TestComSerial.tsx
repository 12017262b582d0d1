import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Dropdown } from 'primereact/dropdown';
import { InputText } from 'primereact/inputtext';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { ErrorBox } from './admin-common.tsx';
import { publishScan, splitLines } from './serial-scanner.ts';

/** The bits of the Web Serial API used here (not in TypeScript's DOM library yet). */
interface SerialPortLike {
  open(o: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  readable: ReadableStream<Uint8Array> | null;
  writable: WritableStream<Uint8Array> | null;
}
interface SerialLike { requestPort(): Promise<SerialPortLike> }

const BAUDS = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].map((b) => ({ value: b, label: String(b) }));

export function webSerial(): SerialLike | null {
  const nav = (typeof navigator === 'undefined' ? null : navigator) as (Navigator & { serial?: SerialLike }) | null;
  return nav?.serial ?? null;
}

/** /test_com_serial: a scale or scanner through Web Serial; its lines also go out as barcode input. */
export default function TestComSerial() {
  const { t } = useTranslation();
  const serial = webSerial();
  const [baud, setBaud] = useState(9600);
  const [port, setPort] = useState<SerialPortLike | null>(null);
  const [lines, setLines] = useState<string[]>([]);
  const [out, setOut] = useState('');
  const [error, setError] = useState<unknown>(null);
  const reader = useRef<ReadableStreamDefaultReader<Uint8Array> | null>(null);

  useEffect(() => () => { void reader.current?.cancel().catch(() => undefined); }, []);

  if (!serial) {
    return (
      <section className="bo-page">
        <PageTitle>{t('route.test_com_serial')}</PageTitle>
        <p className="bo-admin-note" data-testid="serial-unsupported">{t('serial.unsupported')}</p>
      </section>
    );
  }

  const connect = async () => {
    setError(null);
    try {
      const p = await serial.requestPort();
      await p.open({ baudRate: baud });
      setPort(p);
      void readLoop(p);
    } catch (e) {
      setError(e);
    }
  };

  const readLoop = async (p: SerialPortLike) => {
    if (!p.readable) return;
    const r = p.readable.getReader();
    reader.current = r;
    const decoder = new TextDecoder();
    let rest = '';
    try {
      for (;;) {
        const { value, done } = await r.read();
        if (done) break;
        const split = splitLines(rest, decoder.decode(value, { stream: true }));
        rest = split.rest;
        for (const line of split.lines) {
          if (!line) continue;
          publishScan(line);
          setLines((l) => [...l.slice(-199), line]);
        }
      }
    } catch (e) {
      setError(e);
    } finally {
      r.releaseLock();
    }
  };

  const disconnect = async () => {
    try {
      await reader.current?.cancel();
      await port?.close();
    } catch (e) {
      setError(e);
    }
    setPort(null);
  };

  const send = async () => {
    if (!port?.writable || !out) return;
    const w = port.writable.getWriter();
    try {
      await w.write(new TextEncoder().encode(`${out}\r\n`));
      setOut('');
    } catch (e) {
      setError(e);
    } finally {
      w.releaseLock();
    }
  };

  return (
    <section className="bo-page">
      <PageTitle>{t('route.test_com_serial')}</PageTitle>
      <div className="bo-card">
        <div className="bo-toolbar">
          <label htmlFor="ser-baud">{t('serial.baud')}</label>
          <Dropdown inputId="ser-baud" value={baud} options={BAUDS} disabled={!!port} onChange={(e) => setBaud(e.value as number)} />
          {port ? <Button label={t('serial.disconnect')} icon="pi pi-times" severity="secondary" onClick={() => void disconnect()} /> : <Button label={t('serial.connect')} icon="pi pi-link" onClick={() => void connect()} />}
          {port && <span className="bo-status-on">{t('serial.connected')}</span>}
        </div>
        <ErrorBox error={error} />
        <h2>{t('serial.lines')}</h2>
        <pre className="bo-log-lines" data-testid="serial-lines">{lines.length ? lines.join('\n') : t('serial.no_lines')}</pre>
        <p className="bo-muted" style={{ fontSize: 13 }}>{t('serial.as_barcode')}</p>
        <form className="bo-toolbar" onSubmit={(e) => { e.preventDefault(); void send(); }}>
          <InputText value={out} aria-label={t('serial.send')} placeholder={t('serial.send')} disabled={!port} onChange={(e) => setOut(e.target.value)} style={{ minWidth: 260 }} />
          <Button type="submit" label={t('socket.echo_send')} icon="pi pi-send" disabled={!port || !out} />
        </form>
      </div>
    </section>
  );
}
