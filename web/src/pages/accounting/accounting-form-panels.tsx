import { lazy, Suspense } from 'react';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';

// loaded with the first form of a posting document, not with the app
const Journal = lazy(() => import('./DocumentJournalPanel.tsx').then((m) => ({ default: m.DocumentJournalPanel })));

/** A document that posts to the books declares its entry (`document.journal`): its form shows that entry once posted (รายการบัญชี). */
const postsToBooks = (e: FormPanelProps['entity']) => !!e.document?.journal && !!e.workflow;

registerFormPanel({ key: 'document-journal', place: 'body', applies: postsToBooks, Component: (p: FormPanelProps) => <Suspense fallback={null}><Journal {...p} /></Suspense> });
