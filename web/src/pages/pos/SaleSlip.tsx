import { createPortal } from 'react-dom';
import { formatMoney } from '../documents/money-format.ts';
import type { SlipData } from './slip-data.ts';

const qty = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 4 });

/**
 * The 80 mm slip, printed by the browser from the page itself (issue 51 §2: no PDF download, no focus left on a
 * button). It sits outside the app's root and only the print stylesheet shows it (pos-register.css: @page 80 mm,
 * everything else hidden). A kiosk browser started with --kiosk-printing prints it without a dialog.
 */
export function SaleSlip({ slip }: { slip: SlipData | null }) {
  if (!slip) return null;
  return createPortal(
    <div className="bo-pos-slip" data-testid="pos-slip">
      {slip.seller && (
        <div className="c">
          <strong>{slip.seller.name}</strong>
          {slip.seller.taxId && <div>เลขประจำตัวผู้เสียภาษี {slip.seller.taxId}{slip.seller.branch ? ` (${slip.seller.branch})` : ''}</div>}
          {slip.buyer && slip.seller.address && <div>{slip.seller.address}</div>}
        </div>
      )}
      {slip.terminal && <div className="c">จุดขาย {slip.terminal}</div>}
      <div className="c t">{slip.title}</div>
      {slip.copy ? <div className="c t" data-testid="pos-slip-copy">*** สำเนา ครั้งที่ {slip.copy} ***</div> : null}
      {slip.provisional && <div className="c t" data-testid="pos-slip-provisional">*** ออฟไลน์: เลขที่ชั่วคราว รอส่งข้อมูล ***</div>}
      {slip.taxInvoiceNo && <div className="r"><span>เลขที่ใบกำกับภาษี</span><span>{slip.taxInvoiceNo}</span></div>}
      <div className="r"><span>{slip.provisional ? 'เลขที่ชั่วคราว' : 'เลขที่บิล'}</span><span data-testid="pos-slip-no">{slip.docNo}</span></div>
      <div className="r"><span>วันที่</span><span>{slip.when}</span></div>
      {slip.buyer && <div>ผู้ซื้อ {slip.buyer.name} เลขประจำตัวผู้เสียภาษี {slip.buyer.taxId} {slip.buyer.address}</div>}
      <hr />
      {slip.lines.map((l, i) => (
        <div key={i}>
          <div>{l.name}</div>
          <div className="r"><span>&nbsp;&nbsp;{qty(l.qty)} × {formatMoney(l.price)}</span><span>{formatMoney(l.amount + l.discount)}</span></div>
          {l.discount > 0 && <div className="r"><span>&nbsp;&nbsp;ส่วนลดโปรโมชั่น</span><span>-{formatMoney(l.discount)}</span></div>}
        </div>
      ))}
      <hr />
      <div className="r"><span>รวมเป็นเงิน</span><span>{formatMoney(slip.subtotal)}</span></div>
      {slip.billDiscount > 0 && <div className="r"><span>ส่วนลดท้ายบิล</span><span>-{formatMoney(slip.billDiscount)}</span></div>}
      <div className="r b"><span>ยอดสุทธิ</span><span>{formatMoney(slip.total)}</span></div>
      <div className="r"><span>ภาษีมูลค่าเพิ่มในยอด</span><span>{formatMoney(slip.vat)}</span></div>
      {slip.payments.map((p, i) => (
        <div key={i}>
          <div className="r"><span>{p.name}</span><span>{formatMoney(p.amount)}</span></div>
          {p.reference && <div>&nbsp;&nbsp;อ้างอิง {p.reference}</div>}
        </div>
      ))}
      <div className="r b"><span>เงินทอน</span><span>{formatMoney(slip.change)}</span></div>
      <div className="c">ขอบคุณที่ใช้บริการ</div>
    </div>,
    document.body,
  );
}
