import { lazy, Suspense } from 'react';
import { registerFormPanel } from '../../renderer/form/form-panels.ts';

const Panel = lazy(() => import('./EtaxCertificatePanel.tsx').then((m) => ({ default: m.EtaxCertificatePanel })));

/** The issuing company's form shows the e-Tax signing certificate's status (issue 34 §4). */
registerFormPanel({ key: 'etax-certificate', place: 'body', applies: (e) => e.etaxIssuer === true, Component: () => <Suspense fallback={null}><Panel /></Suspense> });
