import { lazy, Suspense, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import './accounting-i18n.ts';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';
import { fetchEntitySummaries } from '../../core/entity-meta.ts';
import { loc } from '../../core/i18n.ts';

// loaded with the first form of a posting document, not with the app
const Journal = lazy(() => import('./DocumentJournalPanel.tsx').then((m) => ({ default: m.DocumentJournalPanel })));

/** A document that posts to the books declares its entry (`document.journal`): its form shows that entry once posted (รายการบัญชี). */
const postsToBooks = (e: FormPanelProps['entity']) => !!e.document?.journal && !!e.workflow;

registerFormPanel({ key: 'document-journal', place: 'body', applies: postsToBooks, Component: (p: FormPanelProps) => <Suspense fallback={null}><Journal {...p} /></Suspense> });

/**
 * An entry a document wrote names it (`source_entity`, `source_id`, `source_doc_no`): among the entry's actions, a
 * link that opens that document (from an entry to its document, as the general ledger's rows do), named by the
 * document's kind in words ("ใบกำกับภาษี TPT-IV…"): the form does not show `source_entity`, a schema's name.
 */
const namesItsSource = (e: FormPanelProps['entity']) => !!(e.fields.source_entity && e.fields.source_id && e.fields.source_doc_no);
function SourceDocumentLink({ record }: FormPanelProps) {
  const { t, i18n } = useTranslation();
  const entity = record.source_entity;
  const id = record.source_id;
  const [kind, setKind] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setKind(null);
    if (typeof entity === 'string') {
      fetchEntitySummaries().then((all) => { const e = all.find((x) => x.name === entity); if (live && e) setKind(loc(e.label, i18n.language)); }, () => undefined);
    }
    return () => { live = false; };
  }, [entity, i18n.language]);
  if (typeof entity !== 'string' || !/^[a-z][a-z0-9_]*$/.test(entity) || id === null || id === undefined) return null;
  return (
    <Link className="p-button p-button-outlined" style={{ textDecoration: 'none' }} to={`/${entity}/${String(id)}`} data-testid="source-document-link">
      <i className="pi pi-file" aria-hidden="true" style={{ marginRight: '0.5rem' }} />{t('ledger.open_source', { doc: [kind, String(record.source_doc_no ?? '')].filter(Boolean).join(' ') })}
    </Link>
  );
}
registerFormPanel({ key: 'journal-source-document', place: 'actions', applies: namesItsSource, Component: SourceDocumentLink });
