import { Suspense, useEffect, useState } from 'react';
import { lazyScreen } from '../../ui/lazy-screen.tsx';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CreateFromScreen } from '../../../../engine/documents/create-from-labels.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { findCreateFrom } from './find-create-from.ts';
import { SourceSwitchedOff } from './SourceSwitchedOff.tsx';

const CreateFromPage = lazyScreen(() => import('./CreateFromPage.tsx'));

/** Loads the create-from page with this route (ui/route-screens.tsx), so it shows without a Suspense fallback. */
export function preloadCreateFromPage(): Promise<void> {
  return CreateFromPage.preload();
}

/** /{target}/{source}[?source=id]: the create-from screen with its declared title, the source chosen when named. */
export default function CreateFromRoute({ screen }: { screen: CreateFromScreen }) {
  const { i18n } = useTranslation();
  const [params] = useSearchParams();
  const pre = Number(params.get('source'));
  const title = screen.label[i18n.language === 'en' ? 'en' : 'th'];
  return (
    <Suspense fallback={<Spinner />}>
      <SourceSwitchedOff source={screen.source} title={title}>
        <CreateFromPage key={`${screen.path}?${pre}`} target={screen.target} source={screen.source} title={title} preselect={Number.isInteger(pre) && pre > 0 ? pre : undefined} />
      </SourceSwitchedOff>
    </Suspense>
  );
}

/** /{entity}/{word}: the create-from screen of `target` from `source` when its schema declares one, else not found. */
export function CreateFromLookup({ target, source }: { target: string; source: string }) {
  const [screen, setScreen] = useState<CreateFromScreen | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setScreen(undefined);
    void findCreateFrom(target, source).then((s) => live && setScreen(s));
    return () => { live = false; };
  }, [target, source]);
  if (screen === undefined) return <Spinner />;
  return screen ? <CreateFromRoute screen={screen} /> : <NotFound />;
}
