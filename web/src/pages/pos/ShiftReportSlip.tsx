import { createPortal } from 'react-dom';
import { formatMoney } from '../documents/money-format.ts';
import { thaiDateTime } from './slip-data.ts';

type Row = Record<string, any>;

/**
 * The shift's X report (mid-shift) or Z report (at the close) on 80 mm paper, printed from the page like a sale's
 * slip (the same print stylesheet), from GET /api/pos_shift/{id}/report.
 */
export function ShiftReportSlip({ report, terminal, methodName }: { report: Row | null; terminal: string; methodName: (id: number) => string }) {
  if (!report) return null;
  const when = (v: unknown) => (v ? thaiDateTime(new Date(String(v))) : '');
  const line = (label: string, value: unknown, testId?: string) => <div className="r"><span>{label}</span><span data-testid={testId}>{formatMoney(Number(value ?? 0))}</span></div>;
  return createPortal(
    <div className="bo-pos-slip" data-testid="pos-report-slip">
      <div className="c t">{report.kind === 'Z' ? 'รายงานปิดกะ (Z)' : 'รายงานระหว่างกะ (X)'}</div>
      <div className="c">จุดขาย {terminal}</div>
      <div className="r"><span>กะ</span><span>{String(report.shift_no ?? '')}</span></div>
      <div className="r"><span>เปิดกะ</span><span>{when(report.opened_at)}</span></div>
      {report.closed_at && <div className="r"><span>ปิดกะ</span><span>{when(report.closed_at)}</span></div>}
      <div className="r"><span>พิมพ์เมื่อ</span><span>{thaiDateTime(new Date())}</span></div>
      <hr />
      <div className="r"><span>จำนวนบิล</span><span>{String(report.sales_count ?? 0)}</span></div>
      {line('ยอดขาย', report.sales_total)}
      {Number(report.returned_total) > 0 && line('คืนสินค้า', -Number(report.returned_total))}
      {line('ยอดขายสุทธิ', report.net_sales)}
      <hr />
      <div className="t">รับชำระตามวิธี</div>
      {((report.payments as Row[]) ?? []).map((p) => <div key={p.payment_method_id}>{line(methodName(Number(p.payment_method_id)), p.amount)}</div>)}
      {line('เงินทอน', report.change_given)}
      <hr />
      {line('เงินทอนตั้งต้น', report.opening_cash)}
      {line('เงินสดรับสุทธิ', report.cash_taken)}
      {line('นำเงินเข้าลิ้นชัก', report.pay_in, 'pos-report-pay-in')}
      {line('นำเงินออกจากลิ้นชัก', -Number(report.pay_out ?? 0), 'pos-report-pay-out')}
      {((report.cash_moves as Row[]) ?? []).map((m, i) => (
        <div key={i} className="r" data-testid="pos-report-move"><span>{m.direction === 'in' ? '  + ' : '  − '}{String(m.reason ?? '')}</span><span>{formatMoney(Number(m.amount ?? 0))}</span></div>
      ))}
      {line('เงินสดที่ควรมี', report.expected_cash, 'pos-report-expected')}
      {report.kind === 'Z' && line('เงินสดที่นับได้', report.counted_cash)}
      {report.kind === 'Z' && line('ส่วนต่าง', report.difference)}
    </div>,
    document.body,
  );
}
