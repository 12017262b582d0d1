import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlainButton } from '../ui/PlainButton.tsx';
import { Menu } from 'primereact/menu';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { downloadQuery, saveBlob } from '../core/http-client.ts';
import { ApiError } from '../core/api-error.ts';
import { useCan } from '../core/permissions.ts';
import { toast } from '../core/toast-bus.ts';

export interface ListExportProps {
  entity: EntitySchema;
  /** The list's current query (filter, search, sort, fields): the export holds what the list shows, every page of it. */
  query: Record<string, string | number | undefined>;
}

/** CSV and XLSX of the list as filtered, for roles with the export flag (the server checks the same). */
export function ListExport({ entity, query }: ListExportProps) {
  const { t, i18n } = useTranslation();
  const menu = useRef<Menu>(null);
  const [busy, setBusy] = useState(false);
  const allowed = useCan(entity.menuKey ?? entity.name, 'export');
  if (!allowed) return null;
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const run = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    try {
      const { blob, fileName } = await downloadQuery(`/api/${entity.name}/export`, { ...query, format, lang });
      saveBlob(blob, fileName ?? `${entity.name}.${format}`);
    } catch (err) {
      toast('error', t('common.error'), err instanceof ApiError ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Menu popup ref={menu} model={[
        { label: t('output.export_csv'), icon: 'pi pi-file', command: () => void run('csv') },
        { label: t('output.export_xlsx'), icon: 'pi pi-file-excel', command: () => void run('xlsx') },
      ]} />
      <PlainButton type="button" icon="pi pi-download" label={t('output.export')} outlined severity="secondary" loading={busy}
        aria-haspopup="menu" onClick={(e) => menu.current?.toggle(e)} data-testid="list-export" />
    </>
  );
}
