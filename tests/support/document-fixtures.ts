/** Throw-away documents for engine tests: an order and its deliveries, the delivery made from the order. */
import { label } from './temp-schemas.ts';

const states = (values: string[], locked: string[]) => values.map((value) => ({ value, label: label(value), ...(locked.includes(value) ? { locked: true } : {}) }));
const enumOf = (values: string[]) => ({ type: 'enum', label: label('Status'), default: 'draft', options: values.map((value) => ({ value, label: label(value) })) });
const ORDER_STATES = ['draft', 'approved', 'partial', 'completed', 'cancelled'];
const DELIVERY_STATES = ['draft', 'approved', 'cancelled'];

export const order = {
  name: 'tf_order', label: label('Order'), kind: 'document', titleField: 'doc_no',
  fields: {
    doc_no: { type: 'string', label: label('No.'), required: true, unique: true },
    customer_name: { type: 'string', label: label('Customer'), required: true },
    status: enumOf(ORDER_STATES),
    items: { type: 'lines', entity: 'tf_order_item', label: label('Items') },
  },
  workflow: {
    field: 'status', initial: 'draft', states: states(ORDER_STATES, ['approved', 'partial', 'completed', 'cancelled']),
    transitions: [
      { action: 'approve', label: label('Approve'), from: ['draft'], to: 'approved' },
      { action: 'cancel', label: label('Cancel'), from: ['draft', 'approved'], to: 'cancelled' },
    ],
  },
  document: { lines: 'items' },
};
export const orderItem = {
  name: 'tf_order_item', label: label('Order item'), kind: 'lines', titleField: 'description', parent: { entity: 'tf_order', field: 'order_id' },
  fields: {
    description: { type: 'string', label: label('Description'), required: true },
    qty: { type: 'decimal', label: label('Qty'), required: true, precision: 15, scale: 4, min: 0 },
    price: { type: 'money', label: label('Price'), required: true },
  },
};
export const delivery = {
  name: 'tf_delivery', label: label('Delivery'), kind: 'document', titleField: 'doc_no',
  fields: {
    doc_no: { type: 'string', label: label('No.') },
    customer_name: { type: 'string', label: label('Customer'), required: true },
    status: enumOf(DELIVERY_STATES),
    items: { type: 'lines', entity: 'tf_delivery_item', label: label('Items') },
  },
  workflow: {
    field: 'status', initial: 'draft', states: states(DELIVERY_STATES, ['approved', 'cancelled']),
    transitions: [
      { action: 'approve', label: label('Approve'), from: ['draft'], to: 'approved' },
      { action: 'cancel', label: label('Cancel'), from: ['draft', 'approved'], to: 'cancelled' },
    ],
  },
  document: {
    lines: 'items',
    from: [{ source: 'tf_order', states: ['approved'], partial: 'partial', complete: 'completed', header: ['customer_name'], lineFields: ['description', 'price'] }],
  },
};
export const deliveryItem = {
  name: 'tf_delivery_item', label: label('Delivery item'), kind: 'lines', titleField: 'description', parent: { entity: 'tf_delivery', field: 'delivery_id' },
  fields: {
    description: { type: 'string', label: label('Description'), required: true },
    qty: { type: 'decimal', label: label('Qty'), required: true, precision: 15, scale: 4, min: 0 },
    price: { type: 'money', label: label('Price'), required: true },
    source_line_id: { type: 'integer', label: label('Source line'), min: 1 },
  },
};

export const DOCUMENT_FIXTURES = [order, orderItem, delivery, deliveryItem];
