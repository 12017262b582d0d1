import type { MenuItem } from '../menu/menu-types.ts';
import { menuKeyOf, type ReportCatalogue } from './report-catalogue.ts';

/**
 * The menu entries of the report files: each report the caller may view, under
 * its `menuGroup` (a group the menu does not have yet is added after "reports",
 * labelled from ui-strings' menu.<group>), at /<name>. Nothing here names a report:
 * a new file is a new entry.
 */
export function addReportItems(menu: MenuItem[], catalogue: ReportCatalogue, canView: (menuKey: string) => boolean, groupLabels: Record<string, { th: string; en: string }>): void {
  const order = Object.keys(groupLabels);
  for (const def of catalogue.all()) {
    if (!canView(menuKeyOf(def))) continue;
    let group = menu.find((g) => g.key === def.menuGroup);
    if (!group) {
      group = { key: def.menuGroup, label: groupLabels[def.menuGroup] ?? { th: def.menuGroup, en: def.menuGroup }, icon: 'pi pi-chart-bar', submenu: [] };
      menu.push(group);
    }
    group.submenu.push({ keyAction: menuKeyOf(def), label: def.label, path: `/${def.name}`, icon: def.chart ? 'pi pi-chart-bar' : 'pi pi-table' });
  }
  // groups in the order ui-strings lists them; unknown ones last
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  menu.sort((a, b) => rank(a.key) - rank(b.key));
}
