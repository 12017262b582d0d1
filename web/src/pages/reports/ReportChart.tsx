import { Chart } from 'primereact/chart';
import { useTranslation } from 'react-i18next';
import { loc } from '../../core/i18n.ts';
import type { ReportSummary } from './report-api.ts';
import { cellText } from './report-cells.ts';

const COLORS = ['#3B82F6', '#F59E0B', '#22C55E', '#EF4444', '#8B5CF6', '#14B8A6', '#EC4899', '#64748B'];

/** The report's chart (chart.js through PrimeReact's Chart): its label column along the axis, one dataset per series column. */
export function ReportChart({ report, rows }: { report: ReportSummary; rows: Record<string, unknown>[] }) {
  const { t, i18n } = useTranslation();
  const chart = report.chart!;
  const round = chart.type === 'pie' || chart.type === 'doughnut';
  const colOf = (k: string) => report.columns.find((c) => c.key === k);
  const data = {
    // dates and months along the axis read as on the table (Buddhist era in Thai), not as ISO text
    labels: rows.map((r) => cellText(colOf(chart.label) ?? { type: 'string' }, r[chart.label], i18n.language)),
    datasets: chart.series.map((s, i) => ({
      label: loc(colOf(s)?.label, i18n.language) || s,
      data: rows.map((r) => Number(r[s] ?? 0)),
      backgroundColor: round ? rows.map((_, j) => COLORS[j % COLORS.length]) : COLORS[i % COLORS.length],
      borderColor: COLORS[i % COLORS.length],
      fill: false,
    })),
  };
  const options = { maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } } };
  return (
    <figure data-testid="report-chart" style={{ margin: 0, flex: '1 1 360px', minWidth: 300, height: 320 }} aria-label={t('report.chart')}>
      <Chart type={chart.type} data={data} options={options} style={{ height: '100%' }} />
      {rows.length >= (chart.limit ?? 50) && <figcaption className="bo-muted">{t('report.chart_limited', { count: chart.limit ?? 50 })}</figcaption>}
    </figure>
  );
}
