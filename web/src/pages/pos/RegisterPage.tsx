import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, ApiError } from '../../core/http-client.ts';
import { formatMoney } from '../documents/money-format.ts';
import type { PromotionRow } from '../../../../engine/pos/promotion-math.ts';
import { addProduct, bangkokToday, figures, setQty, type CartLine, type CartProduct } from './register-cart.ts';
import { favourites, findCached, heldBills, installRegisterApp, loadProducts, readCache, writeCache } from './register-data.ts';
import { isUnreachable, useSaleQueue } from './sale-queue.ts';
import { provisionalNumber } from './offline-queue.ts';
import { sellerOf, slipOfCart, slipOfSale, type SlipData } from './slip-data.ts';
import { SaleSlip } from './SaleSlip.tsx';
import { ShiftReportSlip } from './ShiftReportSlip.tsx';
import { PayPanel, type PaidRow, type PayMethod } from './PayPanel.tsx';
import { CartTable } from './CartTable.tsx';
import { BuyerPanel, type Buyer } from './BuyerPanel.tsx';
import { ShiftPanel, RecallPanel, QueuePanel, CashMovePanel } from './RegisterPanels.tsx';
import { SupervisorPinPanel } from './SupervisorPinPanel.tsx';
import { RegisterReturnPanel, type ReturnDone } from './RegisterReturnPanel.tsx';
import './pos-i18n.ts';
import './pos-dialog.css';
import './pos-register.css';

type Row = Record<string, any>;
interface Terminal { id: number; code: string; name: string; sales_channel_id: number | null; default_payment_method_id: number | null; your_company_id: number | null }

const q = (filter: unknown) => JSON.stringify(filter);
const newKey = () => (globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`);
const cartKey = (id: number) => `pos.cart.${id}`;

/**
 * The register (issues 33 §3, 51): a full-screen counter screen for a scanner, a keyboard or a touch screen. The
 * scan box takes the focus back after every action, so a scan is never lost; the products, prices and promotions
 * are kept on the device, so a scan is found and a sale is made with the network down (queued in IndexedDB with
 * its Idempotency-Key and a provisional number, sent in order when the network is back). The server prices every
 * sale again and is the authority. After each sale the 80 mm slip prints itself from the page (SaleSlip.tsx).
 */
export default function RegisterPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  const cache = useMemo(() => readCache(), []);
  const [terminals, setTerminals] = useState<Terminal[] | null>((cache.terminals as Terminal[] | undefined) ?? null);
  const [terminalId, setTerminalId] = useState<number | null>(null);
  const [shift, setShift] = useState<Row | null>(null);
  const [promotions, setPromotions] = useState<PromotionRow[]>((cache.promotions as PromotionRow[] | undefined) ?? []);
  const [methods, setMethods] = useState<PayMethod[]>((cache.methods as PayMethod[] | undefined) ?? []);
  const [products, setProducts] = useState<CartProduct[]>(cache.products ?? []);
  const [company, setCompany] = useState<Row | null>(null);
  const [lines, setLines] = useState<CartLine[]>([]);
  const [code, setCode] = useState('');
  const [choices, setChoices] = useState<CartProduct[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [payError, setPayError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [paying, setPaying] = useState(false);
  const [panel, setPanel] = useState<'close' | 'recall' | 'buyer' | 'cash' | 'pin' | 'return' | null>(null);
  const [pinError, setPinError] = useState<string | null>(null);
  const [buyer, setBuyer] = useState<Buyer | null>(null);
  const [last, setLast] = useState<{ slip: SlipData; change: number } | null>(null);
  const [slip, setSlip] = useState<SlipData | null>(null);
  const [report, setReport] = useState<Row | null>(null);
  const [printNo, setPrintNo] = useState(0);
  const [favs, setFavs] = useState<number[]>([]);
  const onHand = useRef(new Map<number, number>());
  const negativeOk = useRef(false);
  const key = useRef<string>(newKey());
  const scan = useRef<HTMLInputElement>(null);
  const linesNow = useRef<CartLine[]>([]);
  linesNow.current = lines;
  const terminal = terminals?.find((x) => x.id === terminalId) ?? null;
  const today = bangkokToday();
  const focusScan = useCallback(() => { setTimeout(() => scan.current?.focus(), 0); }, []);
  const methodName = useCallback((id: number) => methods.find((m) => m.id === id)?.name_th ?? 'ชำระเงิน', [methods]);
  const seller = useMemo(() => sellerOf(company), [company]);

  const queue = useSaleQueue(terminalId, (sale, queued) => {
    setMessage(t('pos.queue_sent', { temp: queued.provisional_no, no: sale.doc_no }));
    setLast((l) => (l?.slip.docNo === queued.provisional_no ? { ...l, slip: slipOfSale(sale, seller, terminal ? `${terminal.code} ${terminal.name}` : '', methodName) } : l));
  });
  const offline = !queue.online || queue.waiting.length > 0;

  useEffect(() => {
    installRegisterApp();
    api.get<{ data: Terminal[] }>('/api/pos', { searchParams: { filter: q({ is_active: { _eq: true } }), limit: 100 } }).then((r) => { setTerminals(r.data); writeCache({ terminals: r.data }); },
      (e: ApiError) => { if (!cache.terminals) setError(e.message); });
    api.get<{ data: PayMethod[] }>('/api/payment_method', { searchParams: { filter: q({ is_active: { _eq: true } }), limit: 100, sort: 'sort_order' } }).then((r) => { setMethods(r.data); writeCache({ methods: r.data }); }, () => undefined);
    // the spec's call: live promotions, published ones only
    api.get<{ data: PromotionRow[] }>('/api/promotion/list', { searchParams: { is_delete: 0, is_publish: 1, limit: 500 } }).then((r) => { setPromotions(r.data); writeCache({ promotions: r.data as never }); }, () => undefined);
    loadProducts().then((p) => { setProducts(p); writeCache({ products: p }); }, () => undefined);
  }, [cache.terminals]);

  useEffect(() => {
    if (!terminals || terminalId) return;
    const kept = Number(localStorage.getItem('pos.terminal'));
    setTerminalId(terminals.find((x) => x.id === kept)?.id ?? terminals[0]?.id ?? null);
  }, [terminals, terminalId]);

  useEffect(() => {
    if (!terminal) return;
    localStorage.setItem('pos.terminal', String(terminal.id));
    setFavs(favourites.read(terminal.id));
    try { setLines(JSON.parse(localStorage.getItem(cartKey(terminal.id)) ?? '[]') as CartLine[]); } catch { setLines([]); }
    const kept = readCache();
    setShift(kept.shifts?.[terminal.id] ?? null);
    setCompany(kept.companies?.[String(terminal.your_company_id)] ?? null);
    api.get<{ data: Row[] }>('/api/pos_shift', { searchParams: { filter: q({ pos_id: { _eq: terminal.id }, status: { _eq: 'open' } }), limit: 1 } })
      .then((r) => { setShift(r.data[0] ?? null); writeCache({ shifts: { ...readCache().shifts, [terminal.id]: r.data[0] ?? null } }); }, () => undefined);
    if (terminal.your_company_id) {
      api.get<{ data: Row }>(`/api/your_company/${terminal.your_company_id}`).then((r) => { setCompany(r.data); writeCache({ companies: { ...readCache().companies, [String(terminal.your_company_id)]: r.data } }); }, () => undefined);
    }
  }, [terminal]);

  // the cart survives a reload or a closed tab
  useEffect(() => { if (terminalId) localStorage.setItem(cartKey(terminalId), JSON.stringify(lines)); }, [lines, terminalId]);

  // the slip prints itself once it is on the page; the focus goes back to the scan box, not to a print button
  useEffect(() => {
    if (!printNo) return;
    window.print();
    focusScan();
  }, [printNo, focusScan]);

  const fig = useMemo(() => figures(lines, promotions, today, terminal?.sales_channel_id ?? null), [lines, promotions, today, terminal]);
  const promoName = (id: number | null) => promotions.find((p) => p.id === id)?.name ?? '';

  /** Whether the terminal's stock allows `qty` of the product (advice: the server judges again when the sale is made). */
  const stockAllows = (p: { id: number; code: string }, qty: number): boolean => {
    const held = onHand.current.get(p.id);
    if (held === undefined || negativeOk.current || qty <= held) return true;
    setError(t('pos.out_of_stock', { code: p.code, n: held }));
    return false;
  };

  const add = async (p: CartProduct) => {
    setChoices([]);
    setLast(null);
    focusScan();
    if (p.price === null || p.price === undefined) { setError(t('pos.no_price', { code: p.code })); return; }
    if (!onHand.current.has(p.id) && terminal && queue.online) {
      try {
        const r = await api.get<{ data: { product_id: number; qty: number }[]; meta: { negative_allowed: boolean } }>('/api/pos_order/on-hand', { searchParams: { pos_id: terminal.id, product_id: p.id } });
        onHand.current.set(p.id, r.data[0]?.qty ?? 0);
        negativeOk.current = r.meta.negative_allowed;
      } catch { /* unknown stock: the server judges it when the sale is sent */ }
    }
    // the cart as last rendered: the updater below adds to the newest, the stock check reads this one
    const had = linesNow.current.find((l) => l.product_id === p.id)?.qty ?? 0;
    if (!stockAllows(p, had + 1)) return;
    setLines((ls) => addProduct(ls, p));
    setError(Number(p.price) === 0 ? t('pos.zero_price', { code: p.code }) : null);
  };

  const find = async (text: string) => {
    const local = findCached(products, text);
    if (local.length === 1) return add(local[0]!);
    if (!queue.online) { if (!local.length) setError(t('pos.not_found', { code: text })); setChoices(local); return; }
    const fields = 'id,code,name_th,price,barcode,vat_type,unit';
    try {
      // a scanner sends a barcode: looked up alone it is one indexed read; then the code, then a search
      for (const field of ['barcode', 'code']) {
        const exact = await api.get<{ data: CartProduct[] }>('/api/product', { searchParams: { filter: q({ [field]: { _eq: text } }), fields, limit: 2 } });
        if (exact.data.length === 1) return add(exact.data[0]!);
      }
      const found = await api.get<{ data: CartProduct[] }>('/api/product', { searchParams: { search: text, fields, limit: 10 } });
      if (found.data.length === 1) return add(found.data[0]!);
      if (!found.data.length) setError(t('pos.not_found', { code: text }));
      setChoices(found.data);
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      queue.setOnline(false);
      if (!local.length) setError(t('pos.not_found', { code: text }));
      setChoices(local);
    }
  };

  const onScan = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') { setCode(''); setChoices([]); return; }
    if (e.key === 'F8') { e.preventDefault(); setPanel('return'); return; }
    if (e.key === 'ArrowDown' && choices.length) { e.preventDefault(); document.querySelector<HTMLButtonElement>('[data-testid="pos-choice"]')?.focus(); return; }
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const text = code.trim();
    setCode('');
    if (text) find(text).catch((err: ApiError) => setError(err.message));
    else if (lines.length) setPaying(true);
  };

  const finish = (done: SlipData, change: number) => {
    setLines([]);
    setPaying(false);
    setPayError(null);
    setBuyer(null);
    key.current = newKey();
    onHand.current.clear();
    setLast({ slip: done, change });
    setReport(null);
    setSlip(done);
    setPrintNo((n) => n + 1);
  };

  const pay = async (rows: PaidRow[]) => {
    if (!shift || !terminal) return;
    setBusy(true);
    setPayError(null);
    const full = buyer ? { invoice_type: 'full', buyer_name: buyer.buyer_name, buyer_tax_id: buyer.buyer_tax_id, buyer_branch_code: buyer.buyer_branch_code, ...(buyer.buyer_address ? { buyer_address: buyer.buyer_address } : {}) } : {};
    const body = { pos_shift_id: shift.id, items: lines.map((l) => ({ product_id: l.product_id, qty: l.qty })), payments: rows, ...full };
    const change = Math.max(0, Math.round((rows.reduce((s, r) => s + r.amount, 0) - fig.total) * 100) / 100);
    try {
      // while older sales wait, a new one queues behind them: the queue is sent in the order the sales were made
      if (queue.online && !queue.waiting.length) {
        try {
          const r = await api.post<{ data: Row }>('/api/pos_order', body, { headers: { 'Idempotency-Key': key.current } });
          setMessage(t('pos.sold', { no: r.data.doc_no }));
          finish(slipOfSale(r.data, seller, `${terminal.code} ${terminal.name}`, methodName), Number(r.data.change_amount));
          return;
        } catch (err) {
          // refused (stock, price, a closed shift): the key is kept, the cashier sees why; no answer: queue it
          if (!isUnreachable(err)) { setPayError((err as ApiError).message); return; }
          queue.setOnline(false);
        }
      }
      const temp = provisionalNumber(terminal.code, today);
      const done = slipOfCart(lines, fig, rows, change, temp.no, seller, `${terminal.code} ${terminal.name}`, methodName);
      await queue.enqueue({ key: key.current, seq: temp.seq, terminal_id: terminal.id, body, provisional_no: temp.no, created_at: new Date().toISOString(), state: 'waiting', slip: done });
      setMessage(t('pos.queued', { no: temp.no }));
      finish(done, change);
      if (navigator.onLine) void queue.flush();
    } finally {
      setBusy(false);
    }
  };

  /** The shift's X report (open) or Z report (closed), printed like a slip. */
  const printReport = async (shiftId: number) => {
    try {
      const r = await api.get<{ data: Row }>(`/api/pos_shift/${shiftId}/report`);
      setReport(r.data);
      setPrintNo((n) => n + 1);
    } catch (err) { setError((err as ApiError).message); }
  };

  /** A copy of the last slip: the server says yes first (the cashier's role asks a supervisor's PIN), then it prints, marked สำเนา. */
  const reprint = async (approval?: { who: string; pin: string }) => {
    if (!last) return;
    if (!last.slip.saleId) { setError(t('pos.reprint_offline')); focusScan(); return; }
    setBusy(true);
    try {
      const headers = approval ? { 'x-supervisor': approval.who, 'x-supervisor-pin': approval.pin } : undefined;
      const r = await api.post<{ data: { copies: number } }>(`/api/pos_order/${last.slip.saleId}/reprint`, {}, headers ? { headers } : {});
      setPanel(null);
      setPinError(null);
      setReport(null);
      setSlip({ ...last.slip, copy: r.data.copies });
      setPrintNo((n) => n + 1);
    } catch (err) {
      const e = err as ApiError;
      if (e.status === 403 && !approval) { setPinError(null); setPanel('pin'); } else if (e.status === 403) setPinError(e.message); else { setPanel(null); setError(e.message); focusScan(); }
    } finally { setBusy(false); }
  };

  /** A return or void made at the register: its outcome in the message line, and the scan box ready for the next customer. */
  const returned = (d: ReturnDone) => {
    setPanel(null);
    setError(null);
    const amount = formatMoney(d.amount);
    if (d.kind === 'void') setMessage(t('pos.rt.voided_done', { no: d.docNo, amount }));
    else setMessage(d.creditNote ? t('pos.rt.returned_note', { no: d.docNo, amount, note: d.creditNote }) : t('pos.rt.returned', { no: d.docNo, amount }));
    focusScan();
  };

  const hold = () => {
    if (!terminal || !lines.length) return;
    heldBills.write(terminal.id, [...heldBills.read(terminal.id), { id: newKey(), at: new Date().toISOString(), lines }]);
    setLines([]);
    setMessage(t('pos.held'));
    focusScan();
  };
  const recall = (id: string) => {
    if (!terminal) return;
    const bills = heldBills.read(terminal.id);
    const bill = bills.find((b) => b.id === id);
    if (!bill) return;
    const rest = bills.filter((b) => b.id !== id);
    // the bill on the counter is put aside in its place, not lost
    heldBills.write(terminal.id, lines.length ? [...rest, { id: newKey(), at: new Date().toISOString(), lines }] : rest);
    setLines(bill.lines as CartLine[]);
    setPanel(null);
    focusScan();
  };
  const toggleFav = (id: number) => {
    if (!terminal) return;
    const next = favs.includes(id) ? favs.filter((x) => x !== id) : [...favs, id];
    favourites.write(terminal.id, next);
    setFavs(next);
    focusScan();
  };

  if (!terminals) return <section className="bo-pos-screen"><h1>{t(titleKey)}</h1>{error && <p role="alert" className="bo-error-text">{error}</p>}</section>;
  const favProducts = favs.map((id) => products.find((p) => p.id === id)).filter((p): p is CartProduct => Boolean(p));
  const held = terminal ? heldBills.read(terminal.id) : [];
  return (
    <section className="bo-pos-screen" data-testid="pos-register">
      <header className="bo-pos-bar">
        <strong className="bo-pos-title">{t(titleKey)}</strong>
        <select className="p-inputtext p-component" aria-label={t('pos.terminal')} data-testid="pos-terminal" value={terminalId ?? ''} onChange={(e) => { setTerminalId(Number(e.target.value)); onHand.current.clear(); }}>
          {terminals.map((x) => <option key={x.id} value={x.id}>{x.code} {x.name}</option>)}
        </select>
        {shift && <span data-testid="pos-shift-no">{t('pos.shift')} {String(shift.shift_no)}</span>}
        <span className="bo-pos-spacer" />
        {shift && <button type="button" className="bo-pos-key" disabled={!lines.length} onClick={hold} data-testid="pos-hold">{t('pos.hold')}</button>}
        {shift && <button type="button" className="bo-pos-key" disabled={!held.length} onClick={() => setPanel('recall')} data-testid="pos-recall">{t('pos.recall')} ({held.length})</button>}
        {shift && <button type="button" className="bo-pos-key" disabled={!queue.online} title={t('pos.rt.open_hint')} onClick={() => setPanel('return')} data-testid="pos-return-open">{t('pos.rt.open')}</button>}
        {shift && <button type="button" className="bo-pos-key" disabled={!queue.online} onClick={() => setPanel('cash')} data-testid="pos-cash-move">{t('pos.cash_move')}</button>}
        {shift && <button type="button" className="bo-pos-key" onClick={() => { void printReport(Number(shift.id)); }} data-testid="pos-x-report">{t('pos.x_report')}</button>}
        {shift && <button type="button" className="bo-pos-key" onClick={() => setPanel('close')} data-testid="pos-close">{t('pos.close_shift')}</button>}
        <Link className="bo-pos-key" to="/" data-testid="pos-exit">{t('pos.exit')}</Link>
      </header>
      {offline && (
        <div className="bo-pos-offline" role="status" data-testid="pos-offline">
          {queue.online ? t('pos.sending', { n: queue.waiting.length }) : t('pos.offline', { n: queue.waiting.length })}
        </div>
      )}
      <QueuePanel refused={queue.refused} onDismiss={(k) => { void queue.dismiss(k); focusScan(); }} />
      {!terminals.length && <p className="bo-muted">{t('pos.no_terminal')}</p>}
      {(!shift || panel === 'close') && terminal && (
        <ShiftPanel terminalId={terminal.id} shift={shift} busy={busy} setBusy={setBusy}
          onOpened={(s) => { setShift(s); writeCache({ shifts: { ...readCache().shifts, [terminal.id]: s } }); setPanel(null); focusScan(); }}
          onClosed={(closedShift) => { void printReport(Number(closedShift.id)); setShift(null); writeCache({ shifts: { ...readCache().shifts, [terminal.id]: null } }); setPanel(null); setLines([]); setMessage(null); setLast(null); }}
          onCancel={() => { setPanel(null); focusScan(); }} />
      )}
      {shift && (
        <div className="bo-pos-main">
          <div className="bo-pos-left">
            <input ref={scan} className="p-inputtext p-component bo-pos-scan" autoFocus autoComplete="off" aria-label={t('pos.scan')} placeholder={t('pos.scan')}
              value={code} onChange={(e) => setCode(e.target.value)} onKeyDown={onScan} data-testid="pos-scan" aria-describedby="pos-keys" />
            <p id="pos-keys" className="bo-muted bo-pos-keys">{t('pos.keys')}</p>
            {error && <p role="alert" className="bo-error-text" data-testid="pos-error">{error}</p>}
            {message && <p className="bo-muted" data-testid="pos-message">{message}</p>}
            {choices.length > 0 && (
              <ul className="bo-scan-results" aria-label={t('pos.pick')} data-testid="pos-choices"
                onKeyDown={(e) => {
                  const b = [...document.querySelectorAll<HTMLButtonElement>('[data-testid="pos-choice"]')];
                  const at = b.indexOf(document.activeElement as HTMLButtonElement);
                  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') { e.preventDefault(); b[Math.max(0, Math.min(b.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1)))]?.focus(); }
                  if (e.key === 'Escape') { setChoices([]); focusScan(); }
                }}>
                {choices.map((p) => <li key={p.id}><button type="button" className="p-link" data-testid="pos-choice" onClick={() => { void add(p); }}>{p.code} {p.name_th} ({formatMoney(Number(p.price ?? 0))})</button></li>)}
              </ul>
            )}
            {favProducts.length > 0 && (
              <div className="bo-pos-favs" aria-label={t('pos.favourites')}>
                {favProducts.map((p) => <button key={p.id} type="button" className="bo-pos-key" data-testid="pos-quick-key" onClick={() => { void add(p); }}>{p.name_th}<small>{formatMoney(Number(p.price ?? 0))}</small></button>)}
              </div>
            )}
            <CartTable lines={lines} fig={fig} promoName={promoName} favs={favs} onDone={focusScan} setMessage={setError} onFav={toggleFav}
              onRemove={(i) => { setLines((ls) => setQty(ls, i, 0)); focusScan(); }}
              onQty={(i, n) => { const l = lines[i]!; if (!stockAllows({ id: l.product_id, code: l.code }, n)) return false; setLines((ls) => setQty(ls, i, n)); return true; }} />
          </div>
          <aside className="bo-pos-right">
            <dl className="bo-pos-totals">
              <dt>{t('pos.subtotal')}</dt><dd data-testid="pos-subtotal">{formatMoney(fig.subtotal)}</dd>
              {fig.billDiscount > 0 && <><dt>{t('pos.bill_discount')} ({promoName(fig.billPromotionId)})</dt><dd data-testid="pos-bill-discount">{formatMoney(fig.billDiscount)}</dd></>}
              <dt>{t('pos.vat')}</dt><dd data-testid="pos-vat">{formatMoney(fig.vat)}</dd>
              {fig.exempt > 0 && <><dt>{t('pos.vat_exempt')}</dt><dd data-testid="pos-vat-exempt">{formatMoney(fig.exempt)}</dd></>}
            </dl>
            <div className="bo-pos-total"><span>{t('pos.total')}</span><strong data-testid="pos-total">{formatMoney(fig.total)}</strong></div>
            <button type="button" className={`bo-pos-key${buyer ? ' on' : ''}`} onClick={() => setPanel('buyer')} data-testid="pos-full-invoice">
              {buyer ? `${t('pos.full_invoice')}: ${buyer.buyer_name}` : t('pos.full_invoice')}
            </button>
            <button type="button" className="bo-pos-key bo-pos-primary bo-pos-paybtn" disabled={!lines.length || busy} onClick={() => setPaying(true)} data-testid="pos-pay">{t('pos.pay')}</button>
            {last && (
              <div className="bo-pos-last" data-testid="pos-sold">
                <div>{last.slip.provisional ? t('pos.provisional') : t('pos.last_sale')} <span data-testid="pos-sold-no">{last.slip.docNo}</span></div>
                <div>{t('pos.change')} <strong className="bo-pos-bigchange" data-testid="pos-sold-change">{formatMoney(last.change)}</strong></div>
                <button type="button" className="bo-pos-key" data-testid="pos-print" disabled={busy} onClick={() => { void reprint(); }}>{t('pos.reprint')}</button>
              </div>
            )}
          </aside>
        </div>
      )}
      {paying && shift && (
        <PayPanel total={fig.total} methods={methods} defaultMethodId={terminal?.default_payment_method_id ?? null} sellerPromptPay={company?.promptpay_id ?? null}
          busy={busy} error={payError} onConfirm={(rows) => { void pay(rows); }} onCancel={() => { setPaying(false); setPayError(null); focusScan(); }} />
      )}
      {panel === 'buyer' && <BuyerPanel buyer={buyer} onSave={(b) => { setBuyer(b); setPanel(null); focusScan(); }} onCancel={() => { setPanel(null); focusScan(); }} />}
      {panel === 'cash' && shift && (
        <CashMovePanel shiftId={Number(shift.id)} onCancel={() => { setPanel(null); focusScan(); }}
          onDone={(m) => { setPanel(null); setMessage(t(m.direction === 'in' ? 'pos.cash_moved_in' : 'pos.cash_moved_out', { amount: formatMoney(Number(m.amount)), reason: String(m.reason) })); focusScan(); }} />
      )}
      {panel === 'pin' && (
        <SupervisorPinPanel what={t('pos.reprint_what')} error={pinError} busy={busy} onApprove={(who, pin) => { void reprint({ who, pin }); }} onCancel={() => { setPanel(null); setPinError(null); focusScan(); }} />
      )}
      {panel === 'return' && shift && (
        <RegisterReturnPanel shiftId={Number(shift.id)} lastNo={last && !last.slip.provisional ? last.slip.docNo : null} onDone={returned} onCancel={() => { setPanel(null); focusScan(); }} />
      )}
      {panel === 'recall' && terminal && <RecallPanel bills={held} onRecall={recall} onCancel={() => { setPanel(null); focusScan(); }} />}
      <SaleSlip slip={report ? null : slip} />
      <ShiftReportSlip report={report} terminal={terminal ? `${terminal.code} ${terminal.name}` : ''} methodName={methodName} />
    </section>
  );
}
