import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { fetchEntityMeta } from '../../core/entity-meta.ts';
import { formatCell } from '../../renderer/format-value.ts';
import { useDocumentChain, type ChainDocument } from '../../renderer/document-chain.ts';
import type { FormPanelProps } from '../../renderer/form/form-panels.ts';

/** The stamp the chain is read again on: the record's status and last change. */
function stampOf(entity: EntitySchema, record: Record<string, unknown>): string {
  return `${String(record[entity.workflow?.field ?? 'status'] ?? '')}:${String(record.updated_at ?? '')}`;
}

/** Labels of the entities the links name, read from their schemas (cached for the session). */
function useSchemas(names: string[]): Record<string, EntitySchema> {
  const [schemas, setSchemas] = useState<Record<string, EntitySchema>>({});
  const key = [...new Set(names)].sort().join(',');
  useEffect(() => {
    let live = true;
    for (const n of key ? key.split(',') : []) void fetchEntityMeta(n).then((m) => live && setSchemas((s) => ({ ...s, [n]: m.entity })), () => undefined);
    return () => { live = false; };
  }, [key]);
  return schemas;
}

function DocLinks({ docs, schemas }: { docs: ChainDocument[]; schemas: Record<string, EntitySchema> }) {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'th';
  return (
    <ul className="bo-chain-docs">
      {docs.map((d) => {
        const s = schemas[d.entity];
        const status = s?.workflow && d.status !== null ? formatCell(s.fields[s.workflow.field], d.status, i18n.language) : d.status;
        return (
          <li key={`${d.entity}-${d.id}`}>
            <span className="bo-muted">{s ? s.label[lang] : d.entity}</span>{' '}
            <Link to={`/${d.entity}/${d.id}`} data-testid="chain-link">{d.title || `${s?.label[lang] ?? d.entity}`}</Link>
            {status && <span className="bo-chain-status"> · {status}</span>}
          </li>
        );
      })}
    </ul>
  );
}

/** Under a document's form: the documents it was made from and those made from it, as links. */
export function DocumentChainLinks({ entity, id, record }: FormPanelProps) {
  const { t } = useTranslation();
  const chain = useDocumentChain(entity, id, stampOf(entity, record));
  const schemas = useSchemas([...(chain?.sources ?? []), ...(chain?.made ?? [])].map((d) => d.entity));
  if (!chain || (!chain.sources.length && !chain.made.length)) return null;
  return (
    <section className="bo-chain" aria-label={t('document.made_into')} data-testid="document-chain">
      {chain.sources.length > 0 && <div><h2>{t('document.made_from')}</h2><DocLinks docs={chain.sources} schemas={schemas} /></div>}
      {chain.made.length > 0 && <div><h2>{t('document.made_into')}</h2><DocLinks docs={chain.made} schemas={schemas} /></div>}
    </section>
  );
}

/** Among a posted document's actions: one button per create-from screen it can open now ("รับชำระ"), with it chosen. */
export function DocumentNextSteps({ entity, id, record }: FormPanelProps) {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const chain = useDocumentChain(entity, id, stampOf(entity, record));
  const lang = i18n.language === 'en' ? 'en' : 'th';
  return (
    <>
      {(chain?.create ?? []).map((s) => (
        <Button key={s.path} type="button" icon="pi pi-arrow-right" label={s.action[lang]} title={s.label[lang]} onClick={() => navigate(s.href)} data-create-from={s.path} />
      ))}
    </>
  );
}
