import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';

type Kind = 'text' | 'number' | 'boolean' | 'nested';
interface Entry { key: string; kind: Kind; value: unknown }

function kindOf(v: unknown): Kind {
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (v !== null && typeof v === 'object') return 'nested';
  return 'text';
}

export function toEntries(obj: Record<string, unknown>): Entry[] {
  return Object.entries(obj).map(([key, value]) => ({ key, kind: kindOf(value), value }));
}

export function fromEntries(entries: Entry[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const e of entries) if (e.key.trim()) out[e.key.trim()] = e.value;
  return out;
}

/** An object as a small form: one row per entry with its name, kind and value; nested values are kept untouched. */
export function KeyValueEditor({ id, entries, onChange, disabled }: { id: string; entries: Entry[]; onChange: (e: Entry[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<Entry>) => onChange(entries.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const names = entries.map((e) => e.key.trim());
  return (
    <div data-testid={`kv-${id}`}>
      {entries.length === 0 ? <p className="bo-muted" style={{ margin: '4px 0' }}>{t('kv.empty')}</p> : (
        <table className="bo-kv">
          <thead><tr><th style={{ width: '35%' }}>{t('kv.key')}</th><th style={{ width: 140 }}>{t('kv.type')}</th><th>{t('kv.value')}</th><th style={{ width: 48 }} /></tr></thead>
          <tbody>
            {entries.map((e, i) => {
              const dup = e.key.trim() !== '' && names.indexOf(e.key.trim()) !== i;
              return (
                <tr key={i}>
                  <td>
                    <input type="text" value={e.key} disabled={disabled} aria-label={`${t('kv.key')} ${i + 1}`} onChange={(ev) => set(i, { key: ev.target.value })} maxLength={100} />
                    {dup && <small className="bo-field-error">{t('kv.duplicate')}</small>}
                  </td>
                  <td>
                    {e.kind === 'nested' ? <span className="bo-muted">{t('kv.nested')}</span> : (
                      <select value={e.kind} disabled={disabled} aria-label={`${t('kv.type')} ${i + 1}`} onChange={(ev) => {
                        const kind = ev.target.value as Kind;
                        set(i, { kind, value: kind === 'number' ? Number(e.value) || 0 : kind === 'boolean' ? Boolean(e.value) : String(e.value ?? '') });
                      }}>
                        <option value="text">{t('kv.text')}</option>
                        <option value="number">{t('kv.number')}</option>
                        <option value="boolean">{t('kv.yesno')}</option>
                      </select>
                    )}
                  </td>
                  <td>
                    {e.kind === 'boolean' && <input type="checkbox" checked={e.value === true} disabled={disabled} aria-label={`${t('kv.value')} ${i + 1}`} onChange={(ev) => set(i, { value: ev.target.checked })} />}
                    {e.kind === 'number' && <input type="number" value={String(e.value ?? 0)} disabled={disabled} aria-label={`${t('kv.value')} ${i + 1}`} onChange={(ev) => set(i, { value: ev.target.value === '' ? 0 : Number(ev.target.value) })} />}
                    {e.kind === 'text' && <input type="text" value={String(e.value ?? '')} disabled={disabled} aria-label={`${t('kv.value')} ${i + 1}`} onChange={(ev) => set(i, { value: ev.target.value })} />}
                    {e.kind === 'nested' && <code className="bo-muted" style={{ fontSize: 12 }}>{Array.isArray(e.value) ? `[${(e.value as unknown[]).length}]` : `{${Object.keys(e.value as object).length}}`}</code>}
                  </td>
                  <td>{!disabled && <Button type="button" icon="pi pi-trash" text severity="danger" aria-label={t('kv.remove')} onClick={() => onChange(entries.filter((_, j) => j !== i))} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {!disabled && <Button type="button" label={t('kv.add')} icon="pi pi-plus" text size="small" onClick={() => onChange([...entries, { key: '', kind: 'text', value: '' }])} />}
    </div>
  );
}

export type { Entry as KeyValueEntry };
