import { describe, expect, it } from 'vitest';
import { buildTree, statementSign, type AccountRow } from './account-tree.ts';

const acc = (id: number, code: string, parent: number | null, group = false): AccountRow => ({ id, code, name_th: `บัญชี ${code}`, name_en: null, account_type: 'asset', parent_id: parent, is_group: group });

describe('the chart as a tree with balances', () => {
  it('puts accounts under their headings in code order and sums a heading\'s accounts exactly', () => {
    const tree = buildTree([acc(3, '1112', 2), acc(1, '1000', null, true), acc(2, '1100', 1, true), acc(4, '1111', 2), acc(5, '2000', null, true)],
      new Map([['1111', { opening: 0.05, closing: 0.1 }], ['1112', { opening: 0, closing: 0.2 }], ['1000', { opening: 0, closing: 0 }]]));
    expect(tree.map((n) => n.account.code)).toEqual(['1000', '2000']);
    const cash = tree[0]!.children[0]!;
    expect(cash.children.map((n) => n.account.code)).toEqual(['1111', '1112']);
    // 0.1 + 0.2 in satang: 30, not 30.000000000000004
    expect(cash.balance).toBe(30);
    expect(tree[0]!.balance).toBe(30);
    expect(tree[0]!.opening).toBe(5);
    expect(tree[1]!.balance).toBe(0);
  });

  it('stands an account whose parent is missing or loops at the top', () => {
    const tree = buildTree([acc(1, 'A', 2), acc(2, 'B', 1), acc(3, 'C', 99)], new Map());
    expect(tree.map((n) => n.account.code).sort()).toEqual(['A', 'B', 'C']);
  });

  it('signs a statement line\'s accounts as the statement does, so an income line of 1,000 opens accounts of 1,000', () => {
    const income = (id: number, code: string): AccountRow => ({ ...acc(id, code, null), account_type: 'income' });
    // the trial balance answers debit positive: sales of 1,000 credited, less 50 of returns debited
    const balances = new Map([['4110', { opening: 0, closing: -1000 }], ['4120', { opening: -20, closing: 30 }], ['5100', { opening: 0, closing: 400 }]]);
    const tree = buildTree([income(1, '4110'), income(2, '4120'), { ...acc(3, '5100', null), account_type: 'expense' }], balances, statementSign);
    expect(tree.map((n) => [n.account.code, n.opening, n.balance])).toEqual([['4110', 0, 100000], ['4120', 2000, -3000], ['5100', 0, 40000]]);
    // the whole chart stays debit positive
    expect(buildTree([income(1, '4110')], balances)[0]!.balance).toBe(-100000);
    // an account with nothing reads 0.00, not -0.00
    expect(Object.is(buildTree([income(9, '4999')], balances, statementSign)[0]!.balance, 0)).toBe(true);
    expect(['asset', 'expense', 'liability', 'equity', 'income'].map((t) => statementSign({ account_type: t }))).toEqual([1, 1, -1, -1, -1]);
  });
});
