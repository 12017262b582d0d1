import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../../../engine/schema/document-spec-types.ts';
import { api, ApiError } from '../../core/http-client.ts';
import { fetchEntityMeta, type EntityMeta } from '../../core/entity-meta.ts';
import { toast } from '../../core/toast-bus.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { formatCell } from '../../renderer/format-value.ts';
import { formatMeasure } from './money-format.ts';
import { CreateFromHeader, createFromHeaderFields, headerBody } from './CreateFromHeader.tsx';
import { ALL_PARTIES, createFromSpec, openDocumentsCall, partiesCall, partyOf, preselectCall } from './create-from-calls.ts';
import './finance-i18n.ts';

type Row = Record<string, unknown>;

interface OpenLine {
  document_id: number;
  document_no: string;
  source_line_id: number;
  line_no: number | null;
  description: string | null;
  product_code?: string | null;
  product_name?: string | null;
  product_name_en?: string | null;
  measure: string;
  ordered: number;
  done: number;
  remaining: number;
}

export interface CreateFromPageProps {
  /** The document to make (receipt, tax_invoice, delivery_order …). */
  target: string;
  /** The documents it is made from (sales_order, purchase_order …). */
  source: string;
  /** The screen's title: the schema's `from[].label` in the user's language. */
  title: string;
  /** A source document to start with (`?source=12`, the source form's action button): its party and it are chosen. */
  preselect?: number;
}

/**
 * One screen for every "create from" route (/receipt/sales_order,
 * /tax_invoice/sales_order, and the stock routes later): choose a customer,
 * tick its open source documents, see what is left on each line, set what to
 * take, and create: the server makes the draft (POST /api/{target}/from/{source})
 * with the same checks as the API, and the new document opens.
 */
const ALL = ALL_PARTIES;

export default function CreateFromPage({ target, source, title, preselect }: CreateFromPageProps) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const [targetSchema, setTargetSchema] = useState<EntitySchema | null>(null);
  const [readable, setReadable] = useState<string[] | undefined>(undefined);
  const [header, setHeader] = useState<Record<string, string>>({});
  const [sourceSchema, setSourceSchema] = useState<EntitySchema | null>(null);
  const [sourceMeta, setSourceMeta] = useState<EntityMeta | null>(null);
  const [customers, setCustomers] = useState<Row[] | null>(null);
  // every open document is listed at once; choosing a customer (or supplier) narrows the list
  const [customer, setCustomer] = useState<string>(ALL);
  const [docs, setDocs] = useState<Row[] | null>(null);
  const [picked, setPicked] = useState<number[]>([]);
  const [lines, setLines] = useState<OpenLine[] | null>(null);
  const [take, setTake] = useState<Record<number, string>>({});
  // by amount (a receipt from bills): one amount received, which the server spreads over the lines oldest due first
  const [received, setReceived] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    fetchEntityMeta(target).then((m) => { setTargetSchema(m.entity); setReadable(m.readable); }, (e: ApiError) => setError(e.message));
    fetchEntityMeta(source).then((m) => { setSourceSchema(m.entity); setSourceMeta(m); }, (e: ApiError) => setError(e.message));
  }, [target, source]);

  // the party the source documents belong to (a customer, a supplier): its documents are picked together;
  // a source without a required party (a production report) lists every open document at once
  const party = useMemo(() => partyOf(sourceMeta), [sourceMeta]);
  useEffect(() => {
    if (!sourceSchema) return;
    if (!party) { setCustomers([]); setCustomer(ALL); return; }
    // opened from a source document: its customer (or supplier) is chosen at once
    // the same calls the boot entry may have sent already (create-from-calls.ts): their answers are taken, not asked again
    if (preselect !== undefined) {
      const c = preselectCall(source, preselect, party);
      api.get<{ data: Row }>(c.path, { searchParams: c.searchParams })
        .then((r) => { if (r.data[party.field] !== null && r.data[party.field] !== undefined) setCustomer(String(r.data[party.field])); }, () => undefined);
    }
    const c = partiesCall(party);
    api.get<{ data: Row[] }>(c.path, { searchParams: c.searchParams })
      .then((r) => setCustomers(r.data), (e: ApiError) => setError(e.message));
  }, [sourceSchema, party, preselect, source]);

  const spec: DocumentSource | undefined = useMemo(() => createFromSpec(targetSchema, source), [targetSchema, source]);
  const measure = spec?.measure ?? 'qty';
  const headerFields = useMemo(() => (targetSchema ? createFromHeaderFields(targetSchema, spec) : []), [targetSchema, spec]);

  // the customer's documents this target can still be made from
  useEffect(() => {
    setDocs(null); setPicked([]); setLines(null);
    const call = customer && spec && sourceSchema ? openDocumentsCall(spec, sourceSchema, party, customer) : null;
    if (!call) return;
    api.get<{ data: Row[] }>(call.path, { searchParams: call.searchParams })
      .then((r) => {
        setDocs(r.data);
        if (preselect !== undefined && r.data.some((d) => Number(d.id) === preselect)) setPicked([preselect]);
      }, (e: ApiError) => setError(e.message));
  }, [customer, spec, sourceSchema, source, party, preselect]);

  // what is open on the ticked documents' lines; what to take starts at all of it
  useEffect(() => {
    if (!picked.length) { setLines(null); return; }
    api.get<{ data: OpenLine[] }>(`/api/${target}/from/${source}`, { searchParams: { ids: picked.join(',') } }).then((r) => {
      setLines(r.data);
      setTake(Object.fromEntries(r.data.map((l) => [l.source_line_id, l.remaining > 0 ? String(l.remaining) : '0'])));
    }, (e: ApiError) => setError(e.message));
  }, [picked, target, source]);

  // a header the ticked documents suggest (a goods receipt's warehouse from its order's), while the person has not
  // set it: filled in when they agree, emptied when they do not; the server takes the same (headerDefaults)
  const typed = useRef(new Set<string>());
  useEffect(() => {
    const defaults = Object.entries(spec?.headerDefaults ?? {}).filter(([to]) => headerFields.includes(to) && !typed.current.has(to));
    if (!defaults.length || !docs) return;
    const chosen = docs.filter((d) => picked.includes(Number(d.id)));
    setHeader((h) => {
      const next = { ...h };
      for (const [to, of] of defaults) {
        const values = new Set(chosen.map((d) => (d[of] === null || d[of] === undefined ? '' : String(d[of]))));
        next[to] = values.size === 1 ? [...values][0]! : '';
      }
      return next;
    });
  }, [picked, docs, spec, headerFields]);

  const toggle = (id: number) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p, id]));

  const create = async () => {
    if (!lines) return;
    const spread = measure === 'amount' && received.trim() !== '';
    const chosen = lines.map((l) => ({ source_line_id: l.source_line_id, value: (take[l.source_line_id] ?? '').trim() }))
      .filter((l) => l.value !== '' && Number(l.value) > 0)
      .map((l) => ({ source_line_id: l.source_line_id, [measure === 'amount' ? 'amount' : 'qty']: l.value }));
    if (!chosen.length && !spread) { toast('error', t('common.error'), t('create_from.nothing')); return; }
    setBusy(true);
    setError(null);
    try {
      const values = targetSchema ? headerBody(targetSchema, header) : {};
      const what = spread ? { amount: received.trim().replace(/,/g, '') } : { lines: chosen };
      const res = await api.post<{ data: Row }>(`/api/${target}/from/${source}`, { ids: picked, ...what, ...(Object.keys(values).length ? { values } : {}) });
      toast('success', t('create_from.created'), String(res.data[targetSchema?.titleField ?? 'id'] ?? ''));
      navigate(`/${target}/${String(res.data.id)}`);
    } catch (err) {
      // "some fields are invalid" alone left the user guessing: each field is named by its label, and a field the
      // sources give (a goods receipt from production has no supplier) says so, since no input here can fill it
      const fieldText = (fe: { field: string; message: string }) => {
        if (fe.field === 'amount') return `${t('create_from.received')}: ${fe.message}`;
        const name = fe.field.replace(/^values\./, '');
        const label = targetSchema?.fields[name]?.label[lang] ?? name;
        return spec?.header?.includes(name) ? t('create_from.from_source', { field: label }) : `${label}: ${fe.message}`;
      };
      const message = err instanceof ApiError && err.fields.length ? [err.message, ...err.fields.map(fieldText)].join(' · ')
        : err instanceof ApiError ? err.message : String(err);
      setError(message);
      toast('error', t('common.error'), message);
    } finally {
      setBusy(false);
    }
  };

  const docNo = (d: Row) => String(d[sourceSchema?.titleField ?? 'id'] ?? d.id);
  const statusField = sourceSchema?.workflow?.field;

  return (
    <section className="bo-page" data-testid="create-from">
      <PageTitle>{title}</PageTitle>
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {(!customers || !targetSchema || !sourceSchema) && !error && <Spinner />}
      {customers && targetSchema && sourceSchema && (
        <>
          <p className="bo-muted">{`${sourceSchema.labelPlural?.[lang] ?? sourceSchema.label[lang]} → ${targetSchema.label[lang]}`}</p>
          {party && <label className="bo-picker">
            <span>{sourceSchema.fields[party.field]?.label[lang] ?? t('create_from.customer')}</span>
            <select data-testid="create-from-customer" className="p-inputtext p-component" value={customer} onChange={(e) => setCustomer(e.target.value)}>
              {/* named by the source's own field: a purchase order's supplier is not "a customer" */}
              <option value={ALL}>{t('create_from.all_party', { party: sourceSchema.fields[party.field]?.label[lang] ?? t('create_from.customer') })}</option>
              {customers.map((c) => <option key={String(c.id)} value={String(c.id)}>{`${String(c.code ?? '')} ${String(c.name_th ?? '')}`.trim()}</option>)}
            </select>
          </label>}

          {customer && !docs && <Spinner />}
          {docs && docs.length === 0 && <p className="bo-muted">{party && customer !== ALL ? t('create_from.none_open_party', { party: sourceSchema.fields[party.field]?.label[lang] ?? t('create_from.customer') }) : t('create_from.none_open')}</p>}
          {docs && docs.length > 0 && (
            <>
              <h2>{t('create_from.documents')}</h2>
              <div className="bo-table-wrap">
                <table className="bo-table" data-testid="create-from-documents">
                  <thead>
                    <tr>
                      <th scope="col">{t('create_from.select')}</th>
                      <th scope="col">{sourceSchema.fields[sourceSchema.titleField]?.label[lang] ?? t('create_from.document')}</th>
                      {sourceSchema.fields.doc_date && <th scope="col">{sourceSchema.fields.doc_date.label[lang]}</th>}
                      {sourceSchema.fields.total_amount && <th scope="col" className="bo-num-cell">{sourceSchema.fields.total_amount.label[lang]}</th>}
                      {statusField && <th scope="col">{sourceSchema.fields[statusField]?.label[lang]}</th>}
                    </tr>
                  </thead>
                  <tbody>
                    {docs.map((d) => (
                      <tr key={String(d.id)}>
                        <td><input type="checkbox" aria-label={docNo(d)} checked={picked.includes(Number(d.id))} onChange={() => toggle(Number(d.id))} /></td>
                        <td>{docNo(d)}</td>
                        {sourceSchema.fields.doc_date && <td>{formatCell(sourceSchema.fields.doc_date, d.doc_date, i18n.language)}</td>}
                        {sourceSchema.fields.total_amount && <td className="bo-num-cell">{formatCell(sourceSchema.fields.total_amount, d.total_amount, i18n.language)}</td>}
                        {statusField && <td>{formatCell(sourceSchema.fields[statusField], d[statusField], i18n.language)}</td>}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}

          {docs && docs.length > 0 && !picked.length && <p className="bo-muted">{t('create_from.pick_documents')}</p>}
          {lines && (
            <>
              <h2>{t('create_from.lines')}</h2>
              {measure === 'amount' && (
                <label className="bo-picker">
                  <span>{t('create_from.received')}</span>
                  <input type="text" inputMode="decimal" className="p-inputtext p-component bo-num-input" data-testid="create-from-received"
                    value={received} onChange={(e) => setReceived(e.target.value)} />
                  <span className="bo-muted">{t('create_from.received_hint')}</span>
                </label>
              )}
              <div className="bo-table-wrap">
                <table className="bo-table" data-testid="create-from-lines">
                  <thead>
                    <tr>
                      <th scope="col">{t('create_from.document')}</th>
                      <th scope="col">{t('create_from.product')}</th>
                      <th scope="col">{t('create_from.description')}</th>
                      <th scope="col" className="bo-num-cell">{t(`create_from.ordered.${measure === 'amount' ? 'amount' : 'qty'}`)}</th>
                      <th scope="col" className="bo-num-cell">{t('create_from.done')}</th>
                      <th scope="col" className="bo-num-cell">{t('create_from.remaining')}</th>
                      <th scope="col" className="bo-num-cell">{t(`create_from.take.${measure === 'amount' ? 'amount' : 'qty'}`)}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {lines.map((l) => (
                      <tr key={l.source_line_id} data-line={l.source_line_id}>
                        <td>{`${l.document_no}${l.line_no ? ` #${l.line_no}` : ''}`}</td>
                        <td data-testid="product">{[l.product_code, lang === 'en' ? l.product_name_en : l.product_name].filter(Boolean).join(' ')}</td>
                        <td>{l.description ?? ''}</td>
                        <td className="bo-num-cell">{formatMeasure(l.ordered, measure)}</td>
                        <td className="bo-num-cell">{formatMeasure(l.done, measure)}</td>
                        <td className="bo-num-cell" data-testid="remaining">{formatMeasure(l.remaining, measure)}</td>
                        <td className="bo-num-cell">
                          <input
                            type="text" inputMode="decimal" className="bo-num-input" aria-label={`${t(`create_from.take.${measure === 'amount' ? 'amount' : 'qty'}`)} ${l.document_no} ${l.line_no ?? ''}`.trim()}
                            disabled={l.remaining <= 0} value={take[l.source_line_id] ?? ''}
                            onChange={(e) => setTake((v) => ({ ...v, [l.source_line_id]: e.target.value.replace(/,/g, '') }))}
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <CreateFromHeader target={targetSchema} fields={headerFields} readable={readable} values={header} onChange={(n, v) => { typed.current.add(n); setHeader((h) => ({ ...h, [n]: v })); }} />
              <div className="bo-form-actions">
                <Button type="button" label={t('create_from.create')} icon="pi pi-check" loading={busy} onClick={() => void create()} data-testid="create-from-submit" />
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
