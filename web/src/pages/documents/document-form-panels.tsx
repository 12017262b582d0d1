import { lazy, Suspense } from 'react';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';

// loaded with the first document form, not with the app
const Chain = lazy(() => import('./DocumentChainPanel.tsx').then((m) => ({ default: m.DocumentChainLinks })));
const NextSteps = lazy(() => import('./DocumentChainPanel.tsx').then((m) => ({ default: m.DocumentNextSteps })));

/** A document in a chain has lines (the server answers /related for those). */
const inChain = (e: FormPanelProps['entity']) => !!e.document?.lines;

/** A document's chain on its form (issue 38 §1): links to its sources and to what was made from it, and the next steps. */
registerFormPanel({ key: 'document-chain', place: 'body', applies: inChain, Component: (p: FormPanelProps) => <Suspense fallback={null}><Chain {...p} /></Suspense> });
registerFormPanel({ key: 'document-next-steps', place: 'actions', applies: inChain, Component: (p: FormPanelProps) => <Suspense fallback={null}><NextSteps {...p} /></Suspense> });
