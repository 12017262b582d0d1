import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { settingsAtom } from '../../core/app-data.ts';
import { useEntitySchema } from '../../core/use-entity-schema.ts';
import { enablingSettings } from '../../../../engine/schema/schema-types.ts';
import { errorText } from '../../../../engine/errors/error-texts.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';

/**
 * A create-from screen whose source the site settings switch off (schema key
 * enabledBy: receiving or delivering from a production report while
 * manufactured products are off) says so instead of offering the source's
 * documents; it follows the settings live.
 */
export function SourceSwitchedOff({ source, title, children }: { source: string; title: string; children: React.ReactNode }) {
  const { i18n } = useTranslation();
  const schema = useEntitySchema(source);
  const settings = useAtomValue(settingsAtom);
  const entity = schema.status === 'ready' ? schema.meta.entity : null;
  const off = entity && settings.status === 'loaded' ? enablingSettings(entity).find((n) => { const v = settings.data[n]; return !(v === true || v === 1 || v === '1'); }) : undefined;
  if (!entity || !off) return <>{children}</>;
  const lang = i18n.language === 'en' ? 'en' : 'th';
  return (
    <section className="bo-page" data-testid="source-switched-off">
      <PageTitle>{title}</PageTitle>
      <p className="bo-muted">{errorText('FEATURE_DISABLED', { feature: entity.label[lang], setting: off }, lang)}</p>
    </section>
  );
}
