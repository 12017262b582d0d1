import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CreateFromScreen } from '../../../../engine/documents/create-from-labels.ts';
import { Spinner } from '../../ui/Spinner.tsx';

const CreateFromPage = lazy(() => import('./CreateFromPage.tsx'));

/** /{target}/{source}[?source=id]: the create-from screen with its declared title, the source chosen when named. */
export default function CreateFromRoute({ screen }: { screen: CreateFromScreen }) {
  const { i18n } = useTranslation();
  const [params] = useSearchParams();
  const pre = Number(params.get('source'));
  const title = screen.label[i18n.language === 'en' ? 'en' : 'th'];
  return (
    <Suspense fallback={<Spinner />}>
      <CreateFromPage key={`${screen.path}?${pre}`} target={screen.target} source={screen.source} title={title} preselect={Number.isInteger(pre) && pre > 0 ? pre : undefined} />
    </Suspense>
  );
}
