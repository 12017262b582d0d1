/** An account of the chart as the tree reads it. */
export interface AccountRow { id: number; code: string; name_th: string; name_en: string | null; account_type: string; parent_id: number | null; is_group: boolean; is_active?: boolean; dbd_line?: string | null }

/** An account's figures from the trial balance, in baht (debit positive). */
export interface Figures { opening: number; closing: number }
/** An account and the accounts under it; `opening` and `balance` (closing) in satang: its own plus its children's. */
export interface TreeNode { account: AccountRow; children: TreeNode[]; opening: number; balance: number }

/** The account types whose balance is on the credit side: a statement shows them credit-positive (revenue, liabilities, equity). */
const CREDIT_SIDE = new Set(['income', 'liability', 'equity']);

/**
 * How a statement signs an account's figures: 1 (debit positive) for assets and expenses, -1 (credit positive) for
 * income, liabilities and equity, as the profit and loss and the balance sheet show them; a statement line's
 * drill-down signs its accounts so, or an income line of 1,000 would open accounts of -1,000.
 */
export const statementSign = (a: Pick<AccountRow, 'account_type'>): 1 | -1 => (CREDIT_SIDE.has(a.account_type) ? -1 : 1);

/**
 * The chart as a tree: each account under its `parent_id` (an account whose parent is missing, or a parent chain
 * that loops, stands at the top), children in code order; a node's opening and closing balances are its own (by
 * account code, in baht as the trial balance answers them, times `sign` of the account: debit positive unless told)
 * plus its children's, summed in satang so the sums are exact.
 */
export function buildTree(accounts: AccountRow[], balances: Map<string, Figures>, sign: (a: AccountRow) => 1 | -1 = () => 1): TreeNode[] {
  const nodes = new Map(accounts.map((a) => [a.id, { account: a, children: [] as TreeNode[], opening: 0, balance: 0 }]));
  const roots: TreeNode[] = [];
  const loops = (a: AccountRow): boolean => {
    const seen = new Set<number>([a.id]);
    for (let p = a.parent_id; p !== null && p !== undefined; p = nodes.get(p)?.account.parent_id ?? null) {
      if (seen.has(p)) return true;
      seen.add(p);
    }
    return false;
  };
  for (const n of nodes.values()) {
    const parent = n.account.parent_id === null || n.account.parent_id === undefined ? undefined : nodes.get(n.account.parent_id);
    if (parent && !loops(n.account)) parent.children.push(n); else roots.push(n);
  }
  const byCode = (a: TreeNode, b: TreeNode) => a.account.code.localeCompare(b.account.code, 'en', { numeric: true });
  const sum = (n: TreeNode): void => {
    n.children.sort(byCode);
    for (const c of n.children) sum(c);
    const own = balances.get(n.account.code);
    const k = sign(n.account);
    // `+ 0` so a credit-side account with nothing shows 0.00, not -0.00
    n.opening = k * Math.round((own?.opening ?? 0) * 100) + n.children.reduce((s, c) => s + c.opening, 0) + 0;
    n.balance = k * Math.round((own?.closing ?? 0) * 100) + n.children.reduce((s, c) => s + c.balance, 0) + 0;
  };
  roots.sort(byCode);
  for (const r of roots) sum(r);
  return roots;
}
