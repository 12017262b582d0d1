import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { createFromScreen, type CreateFromScreen } from '../../../../engine/documents/create-from-labels.ts';
import { fetchEntityMeta } from '../../core/entity-meta.ts';
import { Spinner } from '../../ui/Spinner.tsx';

const CreateFromPage = lazy(() => import('./CreateFromPage.tsx'));

/**
 * The create-from screen a schema declares (`document.from[]` of `target`), or null when it
 * declares none for `source` (then the caller shows what the path otherwise means).
 */
export async function findCreateFrom(target: string, source: string): Promise<CreateFromScreen | null> {
  const meta = await fetchEntityMeta(target).catch(() => null);
  const spec = meta?.entity.document?.from?.find((f) => f.source === source);
  return meta && spec ? createFromScreen(meta.entity, spec, meta.related[source]) : null;
}

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
