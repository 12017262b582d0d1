import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { api, ApiError } from '../../core/http-client.ts';
import { errorText } from '../admin/admin-common.tsx';
import BarcodeLabelsButton from './BarcodeLabelsButton.tsx';
import './stock-i18n.ts';

interface ScanLine { line_id: number; product_id: number; product_code: string | null; product_name: string | null; lot_no: string | null; wanted: number; scanned: number; state: 'pending' | 'partial' | 'done' }
interface OverScan { id: number; code: string; qty: number; wanted: number; scanned: number; note: string | null; scanned_at: string }
interface ScanView {
  doc_no: string; status: string; packs: string; lines: ScanLine[]; over_scans: OverScan[]; scans: { barcode_id: number | null }[];
  settings: { display_only_scanned: boolean; scan_with_note: boolean; scan_select_product: boolean; oldest_expiry_first: boolean };
}
interface Result { key: number; code: string; ok: boolean; kind: string; text: string }

/** BarcodeDetector is not in every browser (nor in TypeScript's DOM types yet). */
interface Detector { detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]> }
const detectorClass = (): (new (o?: object) => Detector) | null =>
  (typeof window !== 'undefined' && 'BarcodeDetector' in window ? (window as unknown as { BarcodeDetector: new (o?: object) => Detector }).BarcodeDetector : null);

/**
 * The scan panel of a goods receipt or delivery order. A keyboard-wedge
 * scanner types the code and Enter into the focused box; each scan is sent
 * to `POST /api/{entity}/{id}/scan` and its result listed (counted, added,
 * over-scan, refused with the reason). The camera is offered only where the
 * browser has BarcodeDetector.
 */
export default function ScanPanel({ entity, id, onScanned }: { entity: string; id: number; onScanned: () => void }) {
  const { t, i18n } = useTranslation();
  const [view, setView] = useState<ScanView | null>(null);
  const [code, setCode] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<Result[]>([]);
  const [camera, setCamera] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const seq = useRef(0);
  const Detector = detectorClass();

  // scans come fast: an older read that answers late must not replace a newer one
  const loads = useRef(0);
  const load = useCallback(() => {
    const mine = ++loads.current;
    return api.get<{ data: ScanView }>(`/api/${entity}/${id}/scan`).then((r) => { if (mine === loads.current) setView(r.data); }, () => { if (mine === loads.current) setView(null); });
  }, [entity, id]);
  useEffect(() => { void load(); }, [load]);
  useEffect(() => { input.current?.focus(); }, [view?.status]);

  // one scan at a time, in the order scanned; the box stays enabled (and focused) meanwhile, so a
  // scanner that sends the next code while the last is still being counted loses no keystroke
  const sendOne = useCallback(async (text: string, withNote: string) => {
    const key = ++seq.current;
    try {
      const r = await api.post<{ data: { result: string; qty: number; scanned_qty: number; wanted: number } }>(`/api/${entity}/${id}/scan`, { code: text, ...(withNote ? { note: withNote } : {}) });
      const d = r.data;
      setResults((rs) => [{ key, code: text, ok: true, kind: d.result, text: `${d.result === 'added' ? t('scan.added') : t('scan.counted')} +${d.qty} (${d.scanned_qty}/${d.wanted})` }, ...rs].slice(0, 50));
      onScanned();
    } catch (e) {
      const kind = e instanceof ApiError ? (e.code === 'SCAN_REFUSED' ? `refused:${String(e.params?.reason ?? '')}` : e.code) : 'error';
      setResults((rs) => [{ key, code: text, ok: false, kind, text: errorText(e) }, ...rs].slice(0, 50));
    } finally {
      await load();
    }
  }, [entity, id, load, onScanned, t]);
  const chain = useRef<Promise<void>>(Promise.resolve());
  const pending = useRef(0);
  const send = useCallback((raw: string): Promise<void> => {
    const text = raw.trim();
    if (!text) return Promise.resolve();
    const withNote = note;
    setNote('');
    pending.current++;
    setBusy(true);
    const run = chain.current.then(() => sendOne(text, withNote)).finally(() => {
      if (--pending.current > 0) return;
      setBusy(false);
      // back to the box for the next scan (a note typed for the last one took the focus)
      input.current?.focus();
    });
    chain.current = run.catch(() => undefined);
    return run;
  }, [note, sendOne]);

  // the camera: frames go to BarcodeDetector; one code is sent once until it leaves the picture
  useEffect(() => {
    if (!camera || !Detector) return;
    let stream: MediaStream | null = null;
    let stop = false;
    let last = '';
    const detector = new Detector({ formats: ['code_128', 'qr_code', 'ean_13', 'ean_8'] });
    void navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } }).then(async (s) => {
      stream = s;
      if (!video.current) return;
      video.current.srcObject = s;
      await video.current.play();
      while (!stop) {
        const found = await detector.detect(video.current).catch(() => []);
        const value = found[0]?.rawValue ?? '';
        if (value && value !== last) await send(value);
        last = value;
        await new Promise((r) => setTimeout(r, 300));
      }
    }, (e) => { setResults((rs) => [{ key: ++seq.current, code: '', ok: false, kind: 'camera', text: errorText(e) }, ...rs]); setCamera(false); });
    return () => { stop = true; stream?.getTracks().forEach((tr) => tr.stop()); };
  }, [camera, Detector, send]);

  if (!view) return null;
  const draft = view.status === 'draft';
  const fmt = (n: number) => n.toLocaleString(i18n.language === 'en' ? 'en-GB' : 'th-TH', { maximumFractionDigits: 4 });
  return (
    <section className="bo-related" data-testid="scan-panel" style={{ marginTop: 16 }}>
      <h3>{t('scan.title')}</h3>
      {draft ? (
        <form className="bo-toolbar" onSubmit={(e) => { e.preventDefault(); setCode(''); void send(code); }}>
          <label style={{ flex: 1 }}>{t('scan.input')}
            <input ref={input} className="p-inputtext p-component" style={{ width: '100%' }} value={code} autoComplete="off" aria-busy={busy}
              onChange={(e) => setCode(e.target.value)} data-testid="scan-input" />
          </label>
          {view.settings.scan_with_note && (
            <label>{t('scan.note')}<input className="p-inputtext p-component" value={note} onChange={(e) => setNote(e.target.value)} data-testid="scan-note" /></label>
          )}
          {Detector
            ? <Button type="button" icon="pi pi-camera" label={camera ? t('scan.camera_stop') : t('scan.camera')} outlined onClick={() => setCamera(!camera)} />
            : <Button type="button" icon="pi pi-camera" label={t('scan.camera')} outlined disabled tooltip={t('scan.camera_unavailable')} data-testid="scan-camera-unavailable" />}
        </form>
      ) : <p className="bo-muted">{t('scan.only_draft')}</p>}
      {!Detector && draft && <p className="bo-muted" style={{ marginTop: 0 }}>{t('scan.camera_unavailable')}</p>}
      {camera && <video ref={video} muted playsInline style={{ width: 320, maxWidth: '100%' }} />}
      {results.length > 0 && (
        <>
          <h4>{t('scan.results')}</h4>
          <ul className="bo-scan-results" data-testid="scan-results">
            {results.map((r) => <li key={r.key} data-ok={r.ok} data-kind={r.kind} className={r.ok ? '' : 'bo-warn'}><code>{r.code}</code> {r.text}</li>)}
          </ul>
        </>
      )}
      {view.settings.display_only_scanned && <p className="bo-muted">{t('scan.display_only')}</p>}
      <div className="bo-toolbar"><BarcodeLabelsButton entity={view.packs} ids={[...new Set(view.scans.map((s) => s.barcode_id).filter((b): b is number => b !== null))]} /></div>
      {/* its own scroll box: on a phone the lines (longer headings in English) scroll here, not the page */}
      <div className="bo-table-wrap">
      <table className="bo-admin-table" data-testid="scan-lines">
        <thead><tr><th>#</th><th>{t('stock.product')}</th><th>{t('stock.lot')}</th><th className="bo-num">{t('scan.wanted')}</th><th className="bo-num">{t('scan.scanned')}</th><th /></tr></thead>
        <tbody>
          {view.lines.map((l, i) => (
            <tr key={l.line_id} data-line={l.line_id} data-state={l.state}>
              <td>{i + 1}</td><td>{l.product_code ?? l.product_id} {l.product_name ?? ''}</td><td>{l.lot_no ?? ''}</td><td className="bo-num">{fmt(l.wanted)}</td><td className="bo-num">{fmt(l.scanned)}</td><td>{t(`scan.state.${l.state}`)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      {view.over_scans.length > 0 && (
        <>
          <h4>{t('scan.over_scans')}</h4>
          <ul data-testid="scan-over-list">{view.over_scans.map((o) => <li key={o.id} className="bo-warn"><code>{o.code}</code> +{fmt(o.qty)} ({fmt(o.scanned)}/{fmt(o.wanted)}){o.note ? ` · ${o.note}` : ''}</li>)}</ul>
        </>
      )}
    </section>
  );
}
